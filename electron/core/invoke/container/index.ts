export { createContainerRunner, type ContainerRunner, type ContainerRunnerOptions } from './runner.js';
export { encodePayload, MAX_PAYLOAD_CHARS } from './payload.js';
export { sweepOrphans, type SweepOptions, type SweepResult } from './orphans.js';
export type { DockerStatusSnapshot } from './docker-status.js';
export { builtImageTag } from './images.js';
export { readBuildContext } from './build-context.js';
export { LABEL_MANAGED, LABEL_TOOL, LABEL_INVOCATION, LABEL_OWNER, LABEL_DEADLINE, LABEL_BUILD_HASH, MANAGED_FILTER } from './labels.js';
export { FAILURE_CODES, OUTPUT_CAP_BYTES, type FailureKind } from './output.js';
