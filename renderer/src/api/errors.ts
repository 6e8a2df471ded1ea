/** How a failed operation reaches the renderer: the contract's error, unchanged, and the words to show for any error. */
import type { ApiError, FieldIssue } from '../../../shared/errors.js';

/** An operation failed: carries the contract error (code, message, details) unchanged. */
export class ApiCallError extends Error {
  readonly error: ApiError;
  constructor(error: ApiError) {
    super(error.message);
    this.name = 'ApiCallError';
    this.error = error;
  }
  get code(): string {
    return this.error.code;
  }
  get issues(): FieldIssue[] {
    return this.error.details?.issues ?? [];
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof ApiCallError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

export function errorCode(e: unknown): string | undefined {
  return e instanceof ApiCallError ? e.code : undefined;
}
