import type { ErrorCode, ErrorDetails, FieldIssue } from '../../shared/errors.js';

/** An error with a contract code. Thrown inside core, turned into an envelope at the edge. */
export class CoreError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
    this.details = details;
  }
}

export function invalid(issues: FieldIssue[], summary?: string): CoreError {
  const message = summary ?? issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  return new CoreError('INVALID_INPUT', message, { issues });
}

export function notFound(what: string): CoreError {
  return new CoreError('NOT_FOUND', `${what} was not found`);
}

export function isCoreError(e: unknown): e is CoreError {
  return e instanceof CoreError;
}
