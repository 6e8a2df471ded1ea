/**
 * Failed bearer-token attempts per client address in a sliding minute: past the limit, the
 * address gets 429 until its oldest failure leaves the window, so guessing a token is slow.
 */
export const MAX_FAILED_PER_MINUTE = 20;
const WINDOW_MS = 60_000;
/** Addresses remembered at once; the oldest go first (a flood of addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = MAX_FAILED_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(address: string): number[] {
    const since = this.now() - WINDOW_MS;
    const list = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(address, list);
    else this.failures.delete(address);
    return list;
  }

  /** Seconds until the address may try again; 0 when it may now. */
  retryAfter(address: string): number {
    const list = this.recent(address);
    if (list.length < this.limit) return 0;
    return Math.max(1, Math.ceil((list[list.length - this.limit]! + WINDOW_MS - this.now()) / 1000));
  }

  fail(address: string): void {
    const list = this.recent(address);
    list.push(this.now());
    this.failures.delete(address);
    this.failures.set(address, list);
    if (this.failures.size > MAX_ADDRESSES) this.failures.delete(this.failures.keys().next().value!);
  }
}
