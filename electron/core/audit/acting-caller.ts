/**
 * Who the operation in progress acts for, when its transport knows more than its own name (an
 * OAuth caller over REST: `rest@oauth:<sub>`). The dispatcher sets it around a handler; the
 * writers of stored state are far below and shared by every caller, so the audit's change records
 * read it here instead of every store method passing it down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const acting = new AsyncLocalStorage<string>();

export function actAs<T>(caller: string | undefined, work: () => T): T {
  return caller === undefined ? work() : acting.run(caller, work);
}

export function actingCaller(): string | undefined {
  return acting.getStore();
}
