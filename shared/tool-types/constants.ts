/**
 * The tool types' plain facts (names, defaults, limits), apart from their TypeBox schemas so the
 * renderer's editors can use them without loading TypeBox (the schemas re-export them).
 */

/** The tool types, in the order the app lists them; shared/tool-types/catalog.ts checks this against its schemas. */
export const TOOL_TYPE_NAMES = ['function', 'http', 'container', 'pipeline', 'mcp'] as const;

/** What an http tool gets when its impl leaves these out (the editor's placeholders show the same). */
export const HTTP_DEFAULTS = { timeoutMs: 10_000, maxRetries: 2 } as const;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What a container tool gets when its impl leaves a limit out (the editor's placeholders show the same). */
export const CONTAINER_DEFAULTS = { timeoutSeconds: 9, memory: '256m', cpus: 1 } as const;

/** A step ID: a letter, then letters, digits, `_` or `-`; it names the step in `${steps.<id>.value}`. */
export const STEP_ID_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
export const PIPELINE_MAX_STEPS = 50;
/** The whole run, every step included, unless impl.timeoutSeconds says otherwise. */
export const PIPELINE_DEFAULT_TIMEOUT_SECONDS = 60;
export const PIPELINE_MAX_TIMEOUT_SECONDS = 900;
/** Pipelines calling pipelines: at most this many levels, the outermost included. */
export const PIPELINE_MAX_DEPTH = 8;
/** Read-only steps of one pipeline running side by side, at most (electron/core/tool-types/pipeline/plan.ts). */
export const PIPELINE_MAX_PARALLEL_STEPS = 4;
