/**
 * Files on disk that could not be read: one record each, with the path and a reason that says
 * what to fix. Collected by the store, config, built-in state and secrets; listed by
 * problems.list. Reasons name the fault and its position, never the file's content.
 */
import type { Problem } from '../../shared/types.js';

export function problem(path: string, kind: Problem['kind'], reason: string): Problem {
  return { path, kind, reason, detectedAt: new Date().toISOString() };
}

/** Problems by path, telling a listener when the set changes. */
export class ProblemRegistry {
  private readonly byPath = new Map<string, Problem>();

  constructor(private readonly onChange: () => void = () => undefined) {}

  /** Records a problem; tells the listener only when the path's reason is new. */
  add(p: Problem): void {
    const same = this.byPath.get(p.path)?.reason === p.reason;
    this.byPath.set(p.path, p);
    if (!same) this.onChange();
  }

  /** Records problems found while loading, without telling anyone (nobody listens yet). */
  absorb(problems: readonly Problem[]): void {
    for (const p of problems) this.byPath.set(p.path, p);
  }

  clear(path: string): void {
    if (this.byPath.delete(path)) this.onChange();
  }

  /** Forgets every problem under a folder (before it is read again), silently. */
  forgetUnder(dir: string): void {
    for (const path of [...this.byPath.keys()]) if (path.startsWith(dir)) this.byPath.delete(path);
  }

  list(): Problem[] {
    return [...this.byPath.values()];
  }
}

/** Sorted by path, the order problems.list answers in. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.path.localeCompare(b.path));
}

/** problems.list: every source's problems, sorted by path. */
export class ProblemsService {
  constructor(private readonly sources: ReadonlyArray<() => Problem[]>) {}

  list(): { items: Problem[] } {
    return { items: sortProblems(this.sources.flatMap((s) => s())) };
  }
}
