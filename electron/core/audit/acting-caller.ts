/**
 * The operation in progress, as the audit log sees it: who it acts for (shared/caller.ts), and the
 * audit records it made. The dispatcher runs every operation inside one; the writers of stored
 * state are far below and shared by every caller, so the change records read the caller here
 * instead of every store method passing it down, and the dispatcher answers only once the
 * operation's records are durable.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../../../shared/caller.js';

interface Operation {
  caller: Caller | undefined;
  /** The records' durability, until the operation is answered (then it is closed: undefined). */
  records: Promise<void>[] | undefined;
}

const current = new AsyncLocalStorage<Operation>();

/**
 * Runs an operation and settles once it and every audit record it made are done: the operation's
 * own failure first, else the first record that could not be written (AUDIT_UNAVAILABLE).
 */
export async function recordedOperation<T>(caller: Caller | undefined, work: () => Promise<T> | T): Promise<T> {
  // An operation run inside another (a step dispatching its own) acts for the same caller unless it names one.
  const operation: Operation = { caller: caller ?? current.getStore()?.caller, records: [] };
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await current.run(operation, work) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // Records made by work the operation started and left running land after it is closed: not waited for.
  const records = operation.records ?? [];
  operation.records = undefined;
  const settled = await Promise.allSettled(records);
  if (!outcome.ok) throw outcome.error;
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return outcome.value;
}

/** Notes a record of the operation in progress: it is answered only once the record is durable. */
export function noteRecord(durable: Promise<void>): void {
  current.getStore()?.records?.push(durable);
}

/** Whether someone's operation is in progress (not the core's own start-up or housekeeping). */
export function inOperation(): boolean {
  return current.getStore()?.records !== undefined;
}

export function actingCaller(): Caller | undefined {
  return current.getStore()?.caller;
}
