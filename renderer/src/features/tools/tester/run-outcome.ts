import type { InvokeResult } from '../../../../../shared/types.js';
import type { ApiError } from '../../../../../shared/errors.js';

/** What one run of the tester came to: the arguments it was given and its result, or the error that stopped it. */
export interface RunOutcome {
  args: unknown;
  result?: InvokeResult;
  error?: ApiError;
}
