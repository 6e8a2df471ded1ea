/**
 * The learned field of the index: per tool, the words of the searches that led agents to call it,
 * each with a strength (the usage store, electron/core/search/learning/, keeps and decays them).
 * Kept apart from the BM25F postings so that learning one more search costs a map update, not a
 * rebuild: a query word adds, for each tool that learned it, idf · strength / (1 + strength).
 */
import type { ToolSearchEntry } from './entry.js';
import type { Analyzer } from './analyze.js';

/** A learned word counts at most this much of an indexed word of the same idf. */
export const LEARNED_WEIGHT = 1;

export class LearnedField {
  /** term → tool → strength. */
  private readonly byTerm = new Map<string, Map<number, number>>();
  /** tool → its learned terms. */
  private readonly byDoc = new Map<number, Map<string, number>>();
  private readonly docOf = new Map<string, number>();

  constructor(
    entries: readonly ToolSearchEntry[],
    private readonly analyzer: Analyzer,
    private readonly indexedDf: (term: string) => number = () => 0,
    private readonly count = entries.length,
  ) {
    entries.forEach((e, d) => this.docOf.set(e.id ?? e.name, d));
  }

  get size(): number {
    return this.byDoc.size;
  }

  /** Replaces what a tool (by entry id, else name) has learned: raw words → strength. Unknown tools are ignored. */
  set(id: string, words: Readonly<Record<string, number>>): void {
    const d = this.docOf.get(id);
    if (d === undefined) return;
    for (const term of this.byDoc.get(d)?.keys() ?? []) {
      const docs = this.byTerm.get(term)!;
      docs.delete(d);
      if (!docs.size) this.byTerm.delete(term);
    }
    this.byDoc.delete(d);
    const terms = new Map<string, number>();
    for (const [word, strength] of Object.entries(words)) {
      if (!(strength > 0) || !Number.isFinite(strength)) continue;
      for (const term of this.analyzer.terms(word)) terms.set(term, Math.max(terms.get(term) ?? 0, strength));
    }
    if (!terms.size) return;
    this.byDoc.set(d, terms);
    for (const [term, strength] of terms) this.byTerm.set(term, (this.byTerm.get(term) ?? new Map<number, number>()).set(d, strength));
  }

  /** The idf a learned term counts with (0 when no tool learned it). */
  idf(term: string): number {
    const docs = this.byTerm.get(term);
    if (!docs) return 0;
    const df = Math.max(docs.size, this.indexedDf(term));
    return Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
  }

  /** Each tool that learned the term, with what the term adds to its score. */
  visit(term: string, each: (doc: number, score: number) => void): void {
    const docs = this.byTerm.get(term);
    if (!docs) return;
    const idf = this.idf(term);
    for (const [d, strength] of docs) each(d, LEARNED_WEIGHT * idf * (strength / (1 + strength)));
  }

  /** What the learned field adds to a tool for these query terms. */
  score(doc: number, words: readonly { term: string }[]): number {
    const terms = this.byDoc.get(doc);
    if (!terms) return 0;
    let s = 0;
    for (const { term } of words) {
      const strength = terms.get(term);
      if (strength) s += LEARNED_WEIGHT * this.idf(term) * (strength / (1 + strength));
    }
    return s;
  }

  holdsTerm(doc: number, term: string): boolean {
    return this.byDoc.get(doc)?.has(term) === true;
  }

  holds(doc: number, word: string): boolean {
    return this.analyzer.terms(word).some((t) => this.byDoc.get(doc)?.has(t));
  }
}
