/**
 * `toolwright run` while the run goes: its output printed as it arrives, and Ctrl-C turned into
 * a clean cancel.
 */
import { constants as osConstants } from 'node:os';
import type { InvokeResult, InvokeStreamEvent } from '../../shared/types.js';
import { valueText } from '../../shared/format.js';

/**
 * `run --stream`: chunks go to stdout as they arrive (a server's progress to stderr); at the end the value follows (after a
 * rule on stderr) unless it is just what streamed, and errors go to stderr as always.
 */
export class StreamPrinter {
  private streamed = '';

  readonly onEvent = (event: InvokeStreamEvent): void => {
    if (event.type === 'progress') {
      // The count on stderr; a message comes as a chunk too, printed below as output.
      process.stderr.write(`progress ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}\n`);
      return;
    }
    if (event.type !== 'chunk') return;
    this.streamed += event.text;
    process.stdout.write(event.text);
  };

  result(result: InvokeResult, printResult: (r: InvokeResult) => void): void {
    if (this.streamed && !this.streamed.endsWith('\n')) process.stdout.write('\n');
    if (result.ok && valueText(result.value).trim() === this.streamed.trim()) return;
    if (result.ok && this.streamed) process.stderr.write('── result ──\n');
    printResult(result);
  }
}

/**
 * While a run goes, Ctrl-C (SIGINT) or SIGTERM cancels it cleanly (the container is removed,
 * the request aborted) instead of killing the process; a second one exits at once.
 */
export function stopOnSignal(cancel: () => void): { readonly signal: NodeJS.Signals | undefined; dispose(): void } {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(128 + osConstants.signals[signal]);
    received = signal;
    process.stderr.write(`\ntoolwright: ${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping the run (again to quit at once)\n`);
    cancel();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get signal() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
