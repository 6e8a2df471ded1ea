/**
 * The refusal while the audit log cannot be written (AUDIT_UNAVAILABLE): the cause in words a
 * person can act on, with its errno code, and how to fix it.
 */
import { CoreError } from '../errors.js';

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file stands where its folder should be',
  EISDIR: 'a folder stands where a log file should be',
  EIO: 'an input/output error of the disk',
  EMFILE: 'too many open files',
};

/** The refusal while the log cannot be written: what failed, and how to fix it. */
export function auditUnavailable(error: unknown): CoreError {
  if (error instanceof CoreError && error.code === 'AUDIT_UNAVAILABLE') return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cause = (code && CAUSES[code]) ?? (error instanceof Error ? error.message : String(error));
  return new CoreError(
    'AUDIT_UNAVAILABLE',
    `the audit log (<data>/audit) cannot be written: ${cause}${code ? ` (${code})` : ''}. Calls, changes and approvals are refused until ` +
      'it can be written again: free space or fix the folder\'s permissions (or set config auditRecords to "when-possible" to work on without a complete log)',
    { cause: code ?? cause },
  );
}
