/**
 * Differential test: after random sequences of upsert / remove / upsertBundle / load, every
 * search must equal what a brute-force scan computes from the rules of the issue. The
 * reference shares only the word folding (tested on its own in search-normalize.test.ts);
 * matching, edit distance, tiers and ordering are written out again here, naively.
 */
import { describe, expect, it } from 'vitest';
import type { BundleFile, ToolFile } from '../../../../shared/schemas.js';
import { ToolSearchIndex, type SearchResultItem } from '../../../../electron/core/search/search-index.js';
import { tokenize } from '../../../../electron/core/search/normalize.js';
import { fixtureID as id, prng, searchBundle, searchTool } from '../../../helpers/search-fixtures.js';

// Close neighbours on purpose: prefixes, one and two edits apart, folded variants.
const VOCABULARY = [
  'alpha',
  'alps',
  'alpine',
  'alp',
  'beta',
  'bet',
  'better',
  'bitter',
  'gamma',
  'gam',
  'delta',
  'dealt',
  'weather',
  'wether',
  'wetter',
  'weatherly',
  'météo',
  'meteor',
  'Straße',
  'strasse',
  'なう',
  'なつ',
  'invoice',
  'invoke',
  'in',
  'a',
  'ab',
  'abc',
  'ÉCOLE',
  'ecole',
  'Погода',
  'погоды',
];
const FIELDS = ['slug', 'displayName', 'description', 'tags', 'bundleSlug', 'bundleDisplayName'] as const;

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function allowedEdits(word: string): number {
  const length = [...word].length;
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

interface State {
  tools: Map<string, ToolFile>;
  bundles: Map<string, BundleFile>;
}

interface Expected {
  toolID: string;
  tier: 'prefix' | 'word' | 'fuzzy';
  matches: Record<string, string[]>;
  count: number;
  modified: number;
}

function referenceSearch(state: State, q: string, includeDisabled: boolean): Expected[] {
  const sequence = tokenize(q);
  const words = [...new Set(sequence)];
  if (words.length === 0) return [];
  const phrase = sequence.join(' ');
  const results: Expected[] = [];
  for (const tool of state.tools.values()) {
    const bundle = state.bundles.get(tool.bundleID)!;
    const visible = tool.isEnabled && bundle.isEnabled && !bundle.softDeletedAt;
    if (!visible && !includeDisabled) continue;
    const fieldWords: Record<(typeof FIELDS)[number], string[]> = {
      slug: tokenize(tool.slug),
      displayName: tokenize(tool.displayName),
      description: tokenize(tool.description),
      tags: tool.tags.flatMap(tokenize),
      bundleSlug: tokenize(bundle.slug),
      bundleDisplayName: tokenize(bundle.displayName),
    };
    const matches: Record<string, string[]> = {};
    let count = 0;
    let allWhole = true;
    for (const word of words) {
      let matched = false;
      let whole = false;
      for (const field of FIELDS) {
        const hit = fieldWords[field].some((w) => w === word || w.startsWith(word) || levenshtein(w, word) <= allowedEdits(word));
        if (!hit) continue;
        matched = true;
        if (fieldWords[field].includes(word)) whole = true;
        (matches[field] ??= []).push(word);
      }
      if (matched) {
        count++;
        if (!whole) allWhole = false;
      }
    }
    if (count === 0) continue;
    const prefix = count === words.length && [tool.slug, tool.displayName].some((text) => tokenize(text).join(' ').startsWith(phrase));
    const ordered: Record<string, string[]> = {};
    for (const field of FIELDS) if (matches[field]) ordered[field] = matches[field]!;
    results.push({
      toolID: tool.toolID,
      tier: prefix ? 'prefix' : allWhole ? 'word' : 'fuzzy',
      matches: ordered,
      count,
      modified: Date.parse(tool.modifiedAt),
    });
  }
  const tierOrder = { prefix: 0, word: 1, fuzzy: 2 };
  return results.sort((a, b) => tierOrder[a.tier] - tierOrder[b.tier] || b.count - a.count || b.modified - a.modified || (a.toolID < b.toolID ? -1 : 1));
}

function randomText(random: () => number, words: number): string {
  const separators = [' ', '-', ', ', '_', ' / '];
  let text = '';
  for (let i = 0; i < words; i++) {
    if (i > 0) text += separators[Math.floor(random() * separators.length)];
    text += VOCABULARY[Math.floor(random() * VOCABULARY.length)];
  }
  return text;
}

function randomQuery(random: () => number): string {
  const words = 1 + Math.floor(random() * 3);
  return Array.from({ length: words }, () => {
    const word = VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
    const roll = random();
    if (roll < 0.3) return word.slice(0, 1 + Math.floor(random() * word.length)); // typing
    if (roll < 0.45) return word.slice(0, -1) + 'x'; // typo
    if (roll < 0.55) return word.toUpperCase();
    if (roll < 0.6) return word.normalize('NFD');
    return word;
  }).join(random() < 0.5 ? ' ' : '-');
}

function walk(index: ToolSearchIndex, q: string, includeDisabled: boolean, pageSize: number): SearchResultItem[] {
  const all: SearchResultItem[] = [];
  let pageToken: string | undefined;
  do {
    const page = index.search(q, { includeDisabled, pageSize, pageToken });
    all.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}

describe('ToolSearchIndex against a brute-force reference', () => {
  it.each(Array.from({ length: 12 }, (_, i) => i + 1))('random edits and queries agree (seed %i)', (seed) => {
    const random = prng(seed * 7919);
    const state: State = { tools: new Map(), bundles: new Map() };
    const index = new ToolSearchIndex();
    const bundleIDs = Array.from({ length: 4 }, (_, i) => id(500_000 + i));
    const randomBundle = (bundleID: string): BundleFile =>
      searchBundle({
        bundleID,
        slug: randomText(random, 1 + Math.floor(random() * 2)).replace(/[^\p{L}\p{N}]+/gu, '-'),
        displayName: randomText(random, 1 + Math.floor(random() * 2)),
        isEnabled: random() > 0.25,
        softDeletedAt: random() < 0.15 ? '2025-06-01T00:00:00.000Z' : null,
      });
    for (const bundleID of bundleIDs) state.bundles.set(bundleID, randomBundle(bundleID));
    let nextTool = 1;
    const randomTool = (toolID: string): ToolFile =>
      searchTool({
        toolID,
        bundleID: bundleIDs[Math.floor(random() * bundleIDs.length)]!,
        slug: randomText(random, 1 + Math.floor(random() * 3)).replace(/[^\p{L}\p{N}]+/gu, '-'),
        displayName: randomText(random, 1 + Math.floor(random() * 3)),
        description: randomText(random, Math.floor(random() * 8)),
        isEnabled: random() > 0.2,
        tags: Array.from({ length: Math.floor(random() * 3) }, () => randomText(random, 1)),
        // Few distinct times, so ties on recency are common and toolID must decide.
        modifiedAt: new Date(Date.UTC(2025, 0, 1 + Math.floor(random() * 4))).toISOString(),
      });

    const initial = Array.from({ length: 30 }, () => randomTool(id(nextTool++)));
    for (const t of initial) state.tools.set(t.toolID, t);
    index.load(initial.map((t) => ({ tool: t, bundle: state.bundles.get(t.bundleID)! })));

    let compared = 0;
    let nonEmpty = 0;
    for (let step = 0; step < 60; step++) {
      const roll = random();
      const ids = [...state.tools.keys()];
      if (roll < 0.3 || ids.length === 0) {
        const t = randomTool(id(nextTool++));
        state.tools.set(t.toolID, t);
        index.upsert(t, state.bundles.get(t.bundleID)!);
      } else if (roll < 0.55) {
        const t = randomTool(ids[Math.floor(random() * ids.length)]!); // edit, possibly moving bundles
        state.tools.set(t.toolID, t);
        index.upsert(t, state.bundles.get(t.bundleID)!);
      } else if (roll < 0.65) {
        const existing = state.tools.get(ids[Math.floor(random() * ids.length)]!)!;
        const flipped = { ...existing, isEnabled: !existing.isEnabled };
        state.tools.set(flipped.toolID, flipped);
        index.upsert(flipped, state.bundles.get(flipped.bundleID)!);
      } else if (roll < 0.8) {
        const toolID = ids[Math.floor(random() * ids.length)]!;
        state.tools.delete(toolID);
        index.remove(toolID);
      } else {
        const b = randomBundle(bundleIDs[Math.floor(random() * bundleIDs.length)]!);
        state.bundles.set(b.bundleID, b);
        index.upsertBundle(b);
      }
      expect(index.size).toBe(state.tools.size);

      for (let k = 0; k < 4; k++) {
        const q = randomQuery(random);
        const includeDisabled = random() < 0.3;
        const expected = referenceSearch(state, q, includeDisabled);
        const actual = walk(index, q, includeDisabled, 1 + Math.floor(random() * 6));
        expect(
          actual.map(({ toolID, tier, matches }) => ({ toolID, tier, matches })),
          `q=${JSON.stringify(q)} includeDisabled=${includeDisabled}`,
        ).toEqual(expected.map(({ toolID, tier, matches }) => ({ toolID, tier, matches })));
        compared++;
        if (expected.length > 0) nonEmpty++;
      }
    }
    expect(compared).toBe(240);
    expect(nonEmpty).toBeGreaterThan(100); // the queries really hit things
  });
});
