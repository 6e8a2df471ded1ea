/**
 * Error codes of the operations contract. They cross IPC and REST unchanged, so a caller can
 * branch on `code`; `message` says what was wrong and how to fix it; `details` carries
 * machine-readable context (e.g. the field a validation error concerns).
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_ARGS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BUILTIN_READONLY: 403,
  TOOLS_DISABLED: 403,
  CONFIRMATION_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BUNDLE_DISABLED: 409,
  BUNDLE_DELETED: 409,
  TOOL_DISABLED: 409,
  MODIFIED_ELSEWHERE: 412,
  PAYLOAD_TOO_LARGE: 413,
  /** The request line and headers together pass the host's limit (16 KB): a long query belongs in a body. */
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  /** The implementation behind a tool failed: an http non-success status or unreadable answer, a container that exited non-zero, ran out of memory or flooded its output, a tool-reported error. */
  UPSTREAM_ERROR: 502,
  /** A tool answered, but its value does not match the tool's outputSchema (or is not JSON): the tool or its schema needs fixing. */
  INVALID_OUTPUT: 502,
  TOOL_UNAVAILABLE: 503,
  BUSY: 503,
  /** The audit log cannot be written (disk full, permissions): calls, changes and approvals are refused rather than done unrecorded (config auditRecords). */
  AUDIT_UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldIssue {
  /** JSON pointer-ish path of the field, e.g. "impl.urlTemplate" or "slug". */
  field: string;
  message: string;
}

export interface ErrorDetails {
  issues?: FieldIssue[];
  [key: string]: unknown;
}

export interface ApiError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export function httpStatusFor(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && typeof (value as ApiError).code === 'string' && typeof (value as ApiError).message === 'string';
}
