/**
 * How the CLI ends: exit codes 0 ok, 1 the tool failed, 2 bad usage or input, 3 refused by a
 * gate; a run stopped by Ctrl-C (or SIGTERM) ends with 130 (143), the shell's code for a
 * command interrupted so.
 */
import type { ApiError, ErrorCode } from '../../shared/errors.js';

const GATE_CODES = new Set<ErrorCode>([
  'TOOLS_DISABLED',
  'TOOL_DISABLED',
  'BUNDLE_DISABLED',
  'BUNDLE_DELETED',
  'CONFIRMATION_REQUIRED',
  'RATE_LIMITED',
  'TOOL_UNAVAILABLE',
  'FORBIDDEN',
  'BUILTIN_READONLY',
  'UNAUTHORIZED',
]);
const INPUT_CODES = new Set<ErrorCode>([
  'INVALID_INPUT',
  'INVALID_ARGS',
  'NOT_FOUND',
  'CONFLICT',
  'MODIFIED_ELSEWHERE',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
]);

export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === undefined) return 1;
  if (GATE_CODES.has(code)) return 3;
  if (INPUT_CODES.has(code)) return 2;
  return 1;
}

/** An answer the CLI prints as `toolwright: CODE: message` (or `{error}` with --json) and exits with. */
export class CliFailure extends Error {
  constructor(
    readonly error: ApiError,
    readonly exitCode = exitCodeFor(error.code),
  ) {
    super(error.message);
  }
}
