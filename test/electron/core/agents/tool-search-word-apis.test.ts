/**
 * Which API a task's words point to (word-apis.ts): the table counted from written phrasings
 * (test/bench/toolsearch/word-tables.ts), the two re-ranker features it gives, and the
 * cross-fitting that keeps a training phrasing's features from holding its own label.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE, FEATURE_COUNT, FEATURE_NAMES } from '../../../../electron/core/agents/tool-search/features.js';
import { Bm25fRanker } from '../../../../electron/core/agents/tool-search/ranker.js';
import { shippedReranker } from '../../../../electron/core/agents/tool-search/reranker.js';
import { shippedWordApis, WordApis } from '../../../../electron/core/agents/tool-search/word-apis.js';
import { shippedWordPairs, WordPairs } from '../../../../electron/core/agents/tool-search/word-pairs.js';
import type { CorpusEntry } from '../../../bench/toolsearch/evaluate.js';
import { countWordApis, countWordPairs, crossFitting, foldOf, FOLDS } from '../../../bench/toolsearch/word-tables.js';

function tool(name: string, bundle: string, title: string): CorpusEntry {
  return { name, title, description: '', argNames: [], argDescriptions: [], tags: [], bundle, calls: 0, ref: `${bundle}/${name}` };
}

const corpus = [
  tool('currently-playing', 'spotify', 'Get the currently playing track'),
  tool('pause', 'spotify', 'Pause playback'),
  tool('track-collection', 'shutterstock', 'Get track collection'),
  tool('create-message', 'twilio', 'Create a message'),
];

describe('tool search: the API a task’s words point to', () => {
  it('counts, per word, the phrasings holding it and the APIs they meant; a word with a digit names no API', () => {
    const table = countWordApis(
      [
        { query: 'what song is playing', expected: ['currently-playing'] },
        { query: 'pause the song', expected: ['pause'] },
        { query: 'text mom the song title', expected: ['create-message'] },
        { query: 'sms 555', expected: ['create-message'] },
      ],
      corpus,
    );
    expect(table.terms['song']).toEqual([3, { spotify: 2, twilio: 1 }]);
    expect(table.terms['sm']?.[1] ?? table.terms['sms']?.[1]).toEqual({ twilio: 1 });
    expect(table.terms['555']).toBeUndefined();
  });

  it('gives each candidate the sum of P(its API | word) and that sum against the best API’s', () => {
    const ids = new Map([
      ['spotify', 0],
      ['shutterstock', 1],
      ['twilio', 2],
    ]);
    const apis = new WordApis({ terms: { song: [3, { spotify: 2, twilio: 1 }], track: [1, { spotify: 1 }] } }, ids);
    const bundleOf = Int32Array.from([0, 0, 1, 2]);
    const out = new Float32Array(3 * FEATURE_COUNT);
    const slots = { sum: FEATURE.wordApiSum, relative: FEATURE.wordApiRelative, stride: FEATURE_COUNT };
    apis.fill(['song', 'track', 'unknown'], [0, 2, 3], bundleOf, out, slots);
    const row = (r: number, f: number) => out[r * FEATURE_COUNT + f]!;
    expect(row(0, FEATURE.wordApiSum)).toBeCloseTo(2 / 4 + 1 / 2);
    expect(row(0, FEATURE.wordApiRelative)).toBeCloseTo(1);
    expect(row(1, FEATURE.wordApiSum)).toBe(0);
    expect(row(2, FEATURE.wordApiSum)).toBeCloseTo(1 / 4);
    expect(row(2, FEATURE.wordApiRelative)).toBeCloseTo(0.25);
    // Nothing stays behind for the next query.
    apis.fill(['unknown'], [0], bundleOf, out, slots);
    expect(row(0, FEATURE.wordApiSum)).toBe(0);
  });

  it('pairs a task’s word with the words of the meant tool’s name it did not say, when seen at least twice', () => {
    const table = countWordPairs(
      [
        { query: 'what song is on', expected: ['currently-playing'] },
        { query: 'name this song', expected: ['currently-playing'] },
        { query: 'pause the song', expected: ['pause'] },
      ],
      corpus,
    );
    const [total, pairs] = table.terms['song']!;
    expect(total).toBe(3);
    // "currently-playing" / "Get the currently playing track": its words, twice; "pause" once (chance).
    expect(Object.values(pairs).every((n) => n === 2)).toBe(true);
    expect(Object.keys(pairs).length).toBeGreaterThan(0);
    expect(Object.keys(pairs).some((t) => t.startsWith('paus'))).toBe(false);
    // The phrasing's own words are not paired with themselves.
    const paused = countWordPairs(
      [
        { query: 'pause now', expected: ['pause'] },
        { query: 'pause it', expected: ['pause'] },
      ],
      corpus,
    );
    expect(Object.keys(paused.terms['paus']?.[1] ?? paused.terms['pause']?.[1] ?? {})).not.toContain('paus');
  });

  it('gives each candidate the sum over the task’s words of the best P(name word | task word) among its name’s words', () => {
    const ids = new Map([
      ['track', 7],
      ['play', 8],
    ]);
    const pairs = new WordPairs({ terms: { song: [4, { track: 3, play: 1 }], tune: [1, { play: 2 }] } }, (t) => ids.get(t));
    const headTerms = Int32Array.from([7, 8, 9, 8]);
    const headStarts = Int32Array.from([0, 2, 3, 4]);
    const out = new Float32Array(3 * FEATURE_COUNT);
    pairs.fill(['song', 'tune'], [0, 1, 2], headTerms, headStarts, out, FEATURE.wordPairs, FEATURE_COUNT);
    expect(out[FEATURE.wordPairs]).toBeCloseTo(3 / 5 + 2 / 2);
    expect(out[FEATURE_COUNT + FEATURE.wordPairs]).toBe(0);
    expect(out[2 * FEATURE_COUNT + FEATURE.wordPairs]).toBeCloseTo(1 / 5 + 2 / 2);
  });

  it('cross-fits: a training phrasing’s features come from a table counted without its fold', () => {
    const ranker = new Bm25fRanker(corpus, { reranker: null, wordApis: null });
    const phrasings = Array.from({ length: 40 }, (_, i) => ({ query: `playing track zq${'x'.repeat(i)}`, expected: ['currently-playing'] }));
    const before = crossFitting(ranker, phrasings, corpus);
    const query = phrasings[0]!.query;
    before(query);
    const { names, features } = ranker.candidatesWithFeatures(query);
    const own = foldOf(query);
    const others = phrasings.filter((p) => foldOf(p.query) !== own).length;
    const spotifyRow = names.indexOf('currently-playing');
    // Only the other folds' phrasings counted: "playing" and "track" each held by `others` of them,
    // all Spotify's; the phrasing's own word (zq…) by none of them.
    expect(others).toBeLessThan(phrasings.length);
    expect(features[spotifyRow * FEATURE_COUNT + FEATURE.wordApiSum]).toBeCloseTo((2 * others) / (others + 1));
    expect(FOLDS).toBe(5);
  });

  it('ships a table the shipped model was trained beside: every word counted, the model over these features', () => {
    for (const table of [shippedWordApis(), shippedWordPairs()]) {
      const words = Object.entries(table.terms);
      expect(words.length).toBeGreaterThan(300);
      for (const [, [total, counts]] of words) for (const n of Object.values(counts)) expect(n).toBeLessThanOrEqual(total);
    }
    expect(shippedReranker()).toBeDefined();
    expect(FEATURE_NAMES).toContain('words say this API (learned)');
  });
});
