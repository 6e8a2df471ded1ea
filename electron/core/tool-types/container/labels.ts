/**
 * Labels put on every container and image this runner creates. They are how a later start of
 * the app finds what a crashed one left behind (sweepOrphans) and how tests prove nothing leaks.
 */
export const LABEL_MANAGED = 'io.toolwright.managed';
export const LABEL_TOOL = 'io.toolwright.tool';
export const LABEL_INVOCATION = 'io.toolwright.invocation';
/** `<hostname>/<pid>` of the process that created the container. */
export const LABEL_OWNER = 'io.toolwright.owner';
/** Epoch milliseconds after which the container has no business existing any more. */
export const LABEL_DEADLINE = 'io.toolwright.deadline';
/** Hash of the build context an image was built from. */
export const LABEL_BUILD_HASH = 'io.toolwright.build-hash';

export const MANAGED_FILTER = `${LABEL_MANAGED}=true`;
