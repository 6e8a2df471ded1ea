/** The services built-in functions use (functions/services.ts), built on first use by the function runner and closed with it. */
import type { HttpRunnerOptions } from '../http/runner.js';
import type { CommandSandbox, FunctionServices, GuardedWeb, OperationRunner } from '../../functions/services.js';
import { HtmlConverter } from '../../functions/web/html-convert.js';
import { createGuardedWeb } from './guarded-web.js';

export interface FunctionServiceOptions {
  /** The http runner's options (tests point names at loopback). */
  http?: HttpRunnerOptions;
  sandbox?: () => CommandSandbox | undefined;
  /** The dispatcher, late-bound (the schedule tools). */
  operations?: () => OperationRunner | undefined;
  /** How long one page may take to convert (default CONVERT_BUDGET_MS); tests shorten it. */
  convertBudgetMs?: number;
}

export function createFunctionServices(opts: FunctionServiceOptions = {}): FunctionServices & { close(): Promise<void> } {
  let web: GuardedWeb | undefined;
  let html: HtmlConverter | undefined;
  return {
    get web() {
      return (web ??= createGuardedWeb(opts.http));
    },
    get html() {
      return (html ??= new HtmlConverter(opts.convertBudgetMs));
    },
    sandbox: () => opts.sandbox?.(),
    operations: () => opts.operations?.(),
    async close() {
      await Promise.all([web?.close(), html?.close()]);
    },
  };
}
