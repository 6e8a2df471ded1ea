// Long on purpose: the postings, the tiers and keyset paging share one index's private state; split, each would reach into the others.
/**
 * The in-memory search index over tools, kept current incrementally by the store.
 *
 * Indexed: the tool's slug, displayName, description and tags, and its bundle's slug and
 * displayName (bundles are indexed once and joined at query time, so renaming a bundle
 * re-indexes one bundle, not its tools). Matching is case-, diacritic- and Unicode-
 * normalisation-insensitive (see normalize.ts).
 *
 * A query is split into words the same way as the indexed text. A tool matches a query word
 * when one of its indexed words equals it (whole word), starts with it, or is within a
 * small edit distance of it (see maxEditDistance). Tools matching no query word are not
 * returned. Results are ordered by (see rank.ts):
 *   1. tier (the spec's order) — prefix: the slug or displayName begins with the whole query
 *      ("weat", "weather" and "weather n" for `weather-now`); word: otherwise every matched
 *      query word equals a whole word in some indexed field; fuzzy: everything else (a word
 *      only within edit distance of, or only starting with, a query word);
 *   2. the number of distinct query words matched, more first;
 *   3. newer modifiedAt first;
 *   4. toolID, so ties still have one fixed order.
 *
 * A query with no letters or digits (empty, whitespace, punctuation only) returns an empty
 * page: there is nothing to rank by, and "list everything" is tools.list's job.
 *
 * Hidden unless includeDisabled: disabled tools, and tools of disabled or soft-deleted bundles.
 *
 * Paging is keyset paging on the rank tuple (page-token.ts): a tool that did not change
 * between two page requests is never repeated or skipped, whatever else was created,
 * edited or deleted meanwhile. A token only works for the search (folded words and
 * includeDisabled) that issued it.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import { CoreError, invalid } from '../errors.js';
import { tokenize } from './normalize.js';
import { decodePageToken, encodePageToken, searchBinding } from './page-token.js';
import { TermPostings } from './postings.js';
import { TIER_FUZZY, TIER_NAMES, TIER_PREFIX, TIER_WORD, TopK, compareRank, rankScore, type RankKey } from './rank.js';

export interface SearchOptions {
  includeDisabled?: boolean;
  pageSize?: number;
  pageToken?: string;
}
export interface SearchResultItem {
  toolID: string;
  tier: 'prefix' | 'word' | 'fuzzy';
  /** Field → the (folded) query words that matched in it. Fields: see SEARCH_FIELDS. */
  matches: Record<string, string[]>;
  /** 10 × words matched + 3/2/1 for prefix/word/fuzzy: never increases along the order. */
  score: number;
}
export interface SearchResultPage {
  items: SearchResultItem[];
  nextPageToken?: string;
}

export const SEARCH_FIELDS = ['slug', 'displayName', 'description', 'tags', 'bundleSlug', 'bundleDisplayName'] as const;
const FIELD_SLUG = 0;
const FIELD_DISPLAY_NAME = 1;
const FIELD_DESCRIPTION = 2;
const FIELD_TAGS = 3;
const FIELD_BUNDLE_SLUG = 4;
const FIELD_BUNDLE_DISPLAY_NAME = 5;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
/** Query words are tracked as bits of a 32-bit integer. */
export const MAX_QUERY_WORDS = 32;

interface BundleEntry {
  bundleID: string;
  slug: string;
  displayName: string;
  isEnabled: boolean;
  softDeleted: boolean;
  words: string[];
  tools: Set<ToolEntry>;
}

interface ToolEntry extends RankKey {
  bundle: BundleEntry;
  isEnabled: boolean;
  slugKey: string;
  nameKey: string;
  /** Indexed text, to skip re-indexing when only flags or timestamps changed. */
  textSignature: string;
  words: string[];
  // Scratch space of the running query (search is synchronous), reset when stamp is stale.
  stamp: number;
  wordBits: number;
  exactBits: number;
  /** Allocated on the first query of several words that touches the tool. */
  fieldWordBits: Int32Array | undefined;
  /** A one-word query's fields, as a mask: most queries (each keystroke's) need no per-field words. */
  fieldMask: number;
}

export class ToolSearchIndex {
  private readonly tools = new Map<string, ToolEntry>();
  private readonly bundles = new Map<string, BundleEntry>();
  private readonly toolWords = new TermPostings<ToolEntry>();
  private readonly bundleWords = new TermPostings<BundleEntry>();
  private queryStamp = 0;

  get size(): number {
    return this.tools.size;
  }

  /** Adds or replaces a tool (incremental; no full rebuild). The bundle is the tool's bundle as it is now. */
  upsert(tool: ToolFile, bundle: BundleFile): void {
    assertSameBundle(tool, bundle);
    const bundleEntry = this.syncBundle(bundle);
    const existing = this.tools.get(tool.toolID);
    if (!existing) {
      const entry = newToolEntry(tool, bundleEntry);
      this.tools.set(entry.toolID, entry);
      bundleEntry.tools.add(entry);
      this.toolWords.add(entry, indexToolText(tool, entry));
      return;
    }
    if (existing.bundle !== bundleEntry) {
      this.detachFromBundle(existing);
      existing.bundle = bundleEntry;
      bundleEntry.tools.add(existing);
    }
    existing.isEnabled = tool.isEnabled;
    existing.modifiedAtMs = timestampMs(tool.modifiedAt);
    const signature = textSignature(tool);
    if (signature === existing.textSignature) return;
    existing.textSignature = signature;
    const oldWords = existing.words;
    this.toolWords.replace(existing, oldWords, indexToolText(tool, existing));
  }

  remove(toolID: string): void {
    const entry = this.tools.get(toolID);
    if (!entry) return;
    this.toolWords.remove(entry, entry.words);
    this.tools.delete(toolID);
    this.detachFromBundle(entry);
  }

  /** A bundle's slug/displayName/isEnabled/softDeletedAt changed: its tools' bundle fields and visibility follow. */
  upsertBundle(bundle: BundleFile): void {
    // A bundle without indexed tools has nothing to find; its first tool's upsert brings it.
    if (this.bundles.has(bundle.bundleID)) this.syncBundle(bundle);
  }

  /**
   * Bulk load at store open. Adds or replaces the given tools (others stay: call clear()
   * first to start over). New tools' words go into the dictionary once per distinct word.
   */
  load(entries: Iterable<{ tool: ToolFile; bundle: BundleFile }>): void {
    let staged = new Map<string, Map<ToolEntry, number>>();
    const stagedTools = new Set<string>();
    for (const { tool, bundle } of entries) {
      if (this.tools.has(tool.toolID)) {
        // A tool given twice: its first words must be in the tree before upsert can replace them.
        if (stagedTools.has(tool.toolID)) {
          this.toolWords.merge(staged);
          staged = new Map();
          stagedTools.clear();
        }
        this.upsert(tool, bundle);
        continue;
      }
      stagedTools.add(tool.toolID);
      assertSameBundle(tool, bundle);
      const bundleEntry = this.syncBundle(bundle);
      const entry = newToolEntry(tool, bundleEntry);
      this.tools.set(entry.toolID, entry);
      bundleEntry.tools.add(entry);
      for (const [word, mask] of indexToolText(tool, entry)) {
        let postings = staged.get(word);
        if (!postings) staged.set(word, (postings = new Map()));
        postings.set(entry, mask);
      }
    }
    this.toolWords.merge(staged);
  }

  clear(): void {
    this.tools.clear();
    this.bundles.clear();
    this.toolWords.clear();
    this.bundleWords.clear();
  }

  /**
   * One page of results, best first. Throws CoreError('INVALID_INPUT') for a bad pageSize,
   * more than MAX_QUERY_WORDS different words, or a damaged or foreign pageToken.
   */
  search(q: string, opts: SearchOptions = {}): SearchResultPage {
    const pageSize = checkPageSize(opts.pageSize);
    const includeDisabled = opts.includeDisabled === true;
    const sequence = tokenize(q);
    const words = [...new Set(sequence)];
    if (words.length > MAX_QUERY_WORDS) {
      throw invalid([{ field: 'q', message: `the query has ${words.length} different words; at most ${MAX_QUERY_WORDS} are searched — shorten it` }]);
    }
    const binding = searchBinding(sequence, includeDisabled);
    // An empty token means the first page, as `?pageToken=` from a form or URL builder would say.
    const after = opts.pageToken ? decodePageToken(opts.pageToken, binding) : undefined;
    if (words.length === 0) return { items: [] };

    const touched = this.collectMatches(words);
    const phrase = sequence.join(' ');
    const best = new TopK<ToolEntry>(pageSize + 1);
    for (const entry of touched) {
      if (!includeDisabled && !isVisible(entry)) continue;
      entry.count = popCount(entry.wordBits);
      entry.tier =
        entry.count === words.length && (entry.slugKey.startsWith(phrase) || entry.nameKey.startsWith(phrase))
          ? TIER_PREFIX
          : entry.exactBits === entry.wordBits
            ? TIER_WORD
            : TIER_FUZZY;
      if (after && compareRank(entry, after) <= 0) continue;
      best.offer(entry);
    }
    const ranked = best.sorted();
    const page = ranked.slice(0, pageSize);
    const items = page.map((entry) => toResultItem(entry, words, words.length === 1 ? entry.fieldMask : undefined));
    const last = page[page.length - 1];
    if (ranked.length > pageSize && last) {
      const key: RankKey = { count: last.count, tier: last.tier, modifiedAtMs: last.modifiedAtMs, toolID: last.toolID };
      return { items, nextPageToken: encodePageToken(binding, key) };
    }
    return { items };
  }

  /** Marks every tool matching a query word in its scratch fields; returns the tools touched. */
  private collectMatches(words: readonly string[]): ToolEntry[] {
    const stamp = ++this.queryStamp;
    const touched: ToolEntry[] = [];
    // One word: only which fields matched matters, a mask (a one-letter query touches most tools).
    const touchOne = (entry: ToolEntry, _bit: number, exact: boolean, fieldMask: number): void => {
      if (entry.stamp !== stamp) {
        entry.stamp = stamp;
        entry.wordBits = 1;
        entry.exactBits = 0;
        entry.fieldMask = 0;
        touched.push(entry);
      }
      if (exact) entry.exactBits = 1;
      entry.fieldMask |= fieldMask;
    };
    const touchMany = (entry: ToolEntry, bit: number, exact: boolean, fieldMask: number): void => {
      if (entry.stamp !== stamp) {
        entry.stamp = stamp;
        entry.wordBits = 0;
        entry.exactBits = 0;
        const fields = entry.fieldWordBits;
        if (fields) for (let i = 0; i < fields.length; i++) fields[i] = 0;
        else entry.fieldWordBits = new Int32Array(SEARCH_FIELDS.length);
        touched.push(entry);
      }
      entry.wordBits |= bit;
      if (exact) entry.exactBits |= bit;
      for (let field = 0; fieldMask !== 0; field++, fieldMask >>>= 1) {
        if (fieldMask & 1) entry.fieldWordBits![field]! |= bit;
      }
    };
    const touch = words.length === 1 ? touchOne : touchMany;
    words.forEach((word, index) => {
      const bit = 1 << index;
      // forEach, not for…of with [entry, mask]: no pair array per posting (a one-letter query visits ~10,000).
      this.toolWords.lookup(word, (postings, exact) => {
        postings.forEach((mask, entry) => touch(entry, bit, exact, mask));
      });
      this.bundleWords.lookup(word, (postings, exact) => {
        postings.forEach((mask, bundle) => {
          for (const entry of bundle.tools) touch(entry, bit, exact, mask);
        });
      });
    });
    return touched;
  }

  /** Creates or updates the bundle entry; re-indexes its words only when its text changed. */
  private syncBundle(bundle: BundleFile): BundleEntry {
    let entry = this.bundles.get(bundle.bundleID);
    if (!entry) {
      entry = {
        bundleID: bundle.bundleID,
        slug: bundle.slug,
        displayName: bundle.displayName,
        isEnabled: bundle.isEnabled,
        softDeleted: bundle.softDeletedAt != null,
        words: [],
        tools: new Set(),
      };
      this.bundles.set(entry.bundleID, entry);
      this.indexBundleWords(entry);
      return entry;
    }
    entry.isEnabled = bundle.isEnabled;
    entry.softDeleted = bundle.softDeletedAt != null;
    if (entry.slug !== bundle.slug || entry.displayName !== bundle.displayName) {
      this.bundleWords.remove(entry, entry.words);
      entry.slug = bundle.slug;
      entry.displayName = bundle.displayName;
      this.indexBundleWords(entry);
    }
    return entry;
  }

  private indexBundleWords(entry: BundleEntry): void {
    const masks = new Map<string, number>();
    addFieldWords(masks, FIELD_BUNDLE_SLUG, tokenize(entry.slug));
    addFieldWords(masks, FIELD_BUNDLE_DISPLAY_NAME, tokenize(entry.displayName));
    entry.words = [...masks.keys()];
    this.bundleWords.add(entry, masks);
  }

  private detachFromBundle(tool: ToolEntry): void {
    const bundle = tool.bundle;
    bundle.tools.delete(tool);
    if (bundle.tools.size > 0) return;
    this.bundleWords.remove(bundle, bundle.words);
    this.bundles.delete(bundle.bundleID);
  }
}

function newToolEntry(tool: ToolFile, bundle: BundleEntry): ToolEntry {
  return {
    toolID: tool.toolID,
    bundle,
    isEnabled: tool.isEnabled,
    modifiedAtMs: timestampMs(tool.modifiedAt),
    slugKey: '',
    nameKey: '',
    textSignature: textSignature(tool),
    words: [],
    count: 0,
    tier: TIER_FUZZY,
    stamp: 0,
    wordBits: 0,
    exactBits: 0,
    fieldWordBits: undefined,
    fieldMask: 0,
  };
}

/**
 * The tool's own words with the fields they occur in. Also sets the entry's phrase keys
 * (prefix tier) and its word list (for removal).
 */
function indexToolText(tool: ToolFile, entry: ToolEntry): Map<string, number> {
  const masks = new Map<string, number>();
  const slugWords = tokenize(tool.slug);
  const nameWords = tokenize(tool.displayName);
  entry.slugKey = slugWords.join(' ');
  entry.nameKey = nameWords.join(' ');
  addFieldWords(masks, FIELD_SLUG, slugWords);
  addFieldWords(masks, FIELD_DISPLAY_NAME, nameWords);
  addFieldWords(masks, FIELD_DESCRIPTION, tokenize(tool.description));
  for (const tag of tool.tags) addFieldWords(masks, FIELD_TAGS, tokenize(tag));
  entry.words = [...masks.keys()];
  return masks;
}

function addFieldWords(masks: Map<string, number>, field: number, words: readonly string[]): void {
  const bit = 1 << field;
  for (const word of words) masks.set(word, (masks.get(word) ?? 0) | bit);
}

function textSignature(tool: ToolFile): string {
  return [tool.slug, tool.displayName, tool.description, ...tool.tags].join('\u0000');
}

function isVisible(entry: ToolEntry): boolean {
  return entry.isEnabled && entry.bundle.isEnabled && !entry.bundle.softDeleted;
}

function toResultItem(entry: ToolEntry, words: readonly string[], oneWordFields: number | undefined): SearchResultItem {
  const matches: Record<string, string[]> = {};
  SEARCH_FIELDS.forEach((field, index) => {
    const bits = oneWordFields !== undefined ? (oneWordFields >>> index) & 1 : (entry.fieldWordBits?.[index] ?? 0);
    if (bits !== 0) matches[field] = words.filter((_, wordIndex) => (bits & (1 << wordIndex)) !== 0);
  });
  return { toolID: entry.toolID, tier: TIER_NAMES[entry.tier]!, matches, score: rankScore(entry) };
}

/** Unparseable timestamps sort as oldest rather than failing the whole search. */
function timestampMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}

function popCount(bits: number): number {
  let v = bits >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function checkPageSize(pageSize: number | undefined): number {
  if (pageSize === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw invalid([{ field: 'pageSize', message: `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}; got ${String(pageSize)}` }]);
  }
  return pageSize;
}

function assertSameBundle(tool: ToolFile, bundle: BundleFile): void {
  if (tool.bundleID !== bundle.bundleID) {
    throw new CoreError(
      'INTERNAL',
      `search index: tool ${tool.toolID} belongs to bundle ${tool.bundleID}, not to the bundle ${bundle.bundleID} passed with it`,
    );
  }
}
