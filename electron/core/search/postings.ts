/**
 * Inverted index: word → (entity → bit mask of the fields the word occurs in).
 *
 * The dictionary is minisearch's SearchableMap, the radix tree under MiniSearch itself: it
 * gives exact, prefix and Levenshtein look-ups over all indexed words without scanning them.
 * We keep our own postings instead of MiniSearch's documents because the ranking here is
 * strict tiers, not BM25: computing and sorting BM25 scores only to throw them away costs
 * most of a query, and our postings are removed at once instead of by a background vacuum.
 */
import SearchableMap from 'minisearch/SearchableMap';
import { maxEditDistance } from './normalize.js';

export type Postings<E> = Map<E, number>;

/** Called once per matching word: `exact` when the indexed word equals the query word. */
export type PostingsVisitor<E> = (postings: Postings<E>, exact: boolean) => void;

export class TermPostings<E> {
  private readonly words = new SearchableMap<Postings<E>>();

  get wordCount(): number {
    return this.words.size;
  }

  add(entity: E, fieldMasks: ReadonlyMap<string, number>): void {
    for (const [word, mask] of fieldMasks) {
      this.words.fetch(word, newPostings).set(entity, mask);
    }
  }

  remove(entity: E, words: Iterable<string>): void {
    for (const word of words) {
      const postings = this.words.get(word);
      if (!postings) continue;
      postings.delete(entity);
      if (postings.size === 0) this.words.delete(word);
    }
  }

  /** Re-indexes an entity whose text changed: only words it lost are looked up for removal. */
  replace(entity: E, oldWords: readonly string[], fieldMasks: ReadonlyMap<string, number>): void {
    for (const word of oldWords) {
      if (fieldMasks.has(word)) continue;
      const postings = this.words.get(word);
      if (!postings) continue;
      postings.delete(entity);
      if (postings.size === 0) this.words.delete(word);
    }
    this.add(entity, fieldMasks);
  }

  /** Merges postings built outside the tree (bulk load: one tree insert per distinct word). */
  merge(staged: ReadonlyMap<string, Postings<E>>): void {
    for (const [word, postings] of staged) {
      const existing = this.words.get(word);
      if (!existing) {
        this.words.set(word, postings);
        continue;
      }
      for (const [entity, mask] of postings) existing.set(entity, mask);
    }
  }

  clear(): void {
    this.words.clear();
  }

  /**
   * Visits every indexed word that equals `word`, starts with it, or is within
   * maxEditDistance(word) edits of it; each word's postings once.
   */
  lookup(word: string, visit: PostingsVisitor<E>): void {
    const exact = this.words.get(word);
    if (exact) visit(exact, true);
    // values(), not entries(): the iterator would build every key string, and the postings
    // object identifies the exact match already.
    for (const postings of this.words.atPrefix(word).values()) {
      if (postings !== exact) visit(postings, false);
    }
    const distance = maxEditDistance(word);
    if (distance === 0) return;
    for (const [indexed, [postings]] of this.words.fuzzyGet(word, distance)) {
      if (!indexed.startsWith(word)) visit(postings, false);
    }
  }
}

function newPostings<E>(): Postings<E> {
  return new Map<E, number>();
}
