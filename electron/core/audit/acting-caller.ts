/**
 * Who the operation in progress acts for (shared/caller.ts). The dispatcher sets it around a
 * handler; the writers of stored state are far below and shared by every caller, so the audit's
 * change records read it here instead of every store method passing it down.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../../../shared/caller.js';

const acting = new AsyncLocalStorage<Caller>();

export function actAs<T>(caller: Caller | undefined, work: () => T): T {
  return caller === undefined ? work() : acting.run(caller, work);
}

export function actingCaller(): Caller | undefined {
  return acting.getStore();
}
