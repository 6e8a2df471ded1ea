/**
 * Owner-scoped disposables (VS Code's lifecycle pattern): whoever starts a timer, a watcher or
 * a listener hands its undo to a Disposables list, and closing the owner empties the list, in
 * reverse order, once. Nothing the core starts outlives close().
 */
export interface Disposable {
  dispose(): void | Promise<void>;
}

export type Undo = Disposable | (() => void | Promise<void>);

export class Disposables implements Disposable {
  private readonly items: Undo[] = [];
  private disposed = false;

  constructor(private readonly onError: (what: string, e: unknown) => void = () => undefined) {}

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Adds an undo; returns what was added. After dispose(), the undo runs at once. */
  add<T extends Undo>(item: T): T {
    if (this.disposed) void this.run(item);
    else this.items.push(item);
    return item;
  }

  /** An interval owned by this list. */
  interval(fn: () => void, ms: number): void {
    const timer = setInterval(fn, ms);
    timer.unref();
    this.add(() => clearInterval(timer));
  }

  /** Subscribes to an emitter (Node's or any with on/off) for as long as the list lives. */
  listen<A extends unknown[]>(
    emitter: { on(event: string, fn: (...a: A) => void): unknown; off(event: string, fn: (...a: A) => void): unknown },
    event: string,
    fn: (...a: A) => void,
  ): void {
    emitter.on(event, fn);
    this.add(() => void emitter.off(event, fn));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) await this.run(item);
  }

  private async run(item: Undo): Promise<void> {
    try {
      await (typeof item === 'function' ? item() : item.dispose());
    } catch (e) {
      this.onError('dispose', e);
    }
  }
}
