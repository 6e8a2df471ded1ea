/**
 * Errors inside the core. A CoreError carries a contract code and is turned into the wire
 * shape `{code, message, details?}` at the edge (toApiError), so a code survives IPC, REST,
 * MCP and the CLI unchanged.
 */
import type { ApiError, ErrorCode, ErrorDetails, FieldIssue } from '../../shared/errors.js';
import { MAX_ISSUES, MAX_QUOTE_CHARS, quoteKey } from '../../shared/limits.js';

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

/**
 * At most MAX_ISSUES issues travel, each field and message cut to a quotable length, with the
 * count of all: an input with 100,000 unknown keys gets a short answer, not one as big as itself.
 */
export function capIssues(issues: readonly FieldIssue[]): { issues: FieldIssue[]; issueCount?: number } {
  const shown = issues.slice(0, MAX_ISSUES).map((i) => ({ field: quoteKey(i.field), message: quoteKey(i.message, MAX_QUOTE_CHARS * 2) }));
  return issues.length > shown.length ? { issues: shown, issueCount: issues.length } : { issues: shown };
}

/** "a: x; b: y; and 180 more" */
export function summariseIssues(issues: readonly FieldIssue[], issueCount = issues.length): string {
  const text = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  return issueCount > issues.length ? `${text}; and ${issueCount - issues.length} more` : text;
}

export function invalid(issues: FieldIssue[], summary?: string): CoreError {
  const capped = capIssues(issues);
  return new CoreError('INVALID_INPUT', summary ?? summariseIssues(capped.issues, capped.issueCount), capped);
}

export function notFound(what: string): CoreError {
  return new CoreError('NOT_FOUND', `${what} was not found`);
}

export function isCoreError(e: unknown): e is CoreError {
  return e instanceof CoreError;
}

/** The one wording of a cancelled run, whoever notices the cancellation (engine, runner, function). */
export function cancelledError(details?: ErrorDetails): CoreError {
  return new CoreError('CANCELLED', 'the invocation was cancelled', details);
}

export interface ToApiErrorOptions {
  /** Where an unexpected (non-CoreError) failure is reported; CoreErrors are expected answers and are not logged. */
  log?: (e: unknown) => void;
  /** Prefix of an unexpected failure's message: "unexpected error" for operations, "the tool failed" for a run. */
  unexpected?: string;
}

/** The wire shape of any thrown value: a CoreError keeps its code; anything else is INTERNAL. */
export function toApiError(e: unknown, options: ToApiErrorOptions = {}): ApiError {
  if (isCoreError(e)) return e.details !== undefined ? { code: e.code, message: e.message, details: e.details } : { code: e.code, message: e.message };
  options.log?.(e);
  return { code: 'INTERNAL', message: `${options.unexpected ?? 'unexpected error'}: ${e instanceof Error ? e.message : String(e)}` };
}
