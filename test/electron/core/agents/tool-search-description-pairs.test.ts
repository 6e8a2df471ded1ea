/**
 * The table beside word-pairs.json (test/bench/toolsearch/word-tables.ts): a task's words paired
 * with the words of the meant tool's description that neither the task nor the tool's name says
 * (word-pairs.ts, word-description-pairs.json).
 */
import { describe, expect, it } from 'vitest';
import { FEATURE, FEATURE_COUNT } from '../../../../electron/core/agents/tool-search/features.js';
import { shippedDescriptionPairs, WordPairs } from '../../../../electron/core/agents/tool-search/word-pairs.js';
import type { CorpusEntry } from '../../../bench/toolsearch/evaluate.js';
import { countDescriptionPairs } from '../../../bench/toolsearch/word-tables.js';

function tool(name: string, bundle: string, title: string, description: string): CorpusEntry {
  return { name, title, description, argNames: [], argDescriptions: [], tags: [], bundle, calls: 0, ref: `${bundle}/${name}` };
}

const corpus = [
  tool('put-object', 's3', 'PutObject', 'Adds an object to a bucket. Returns the ETag.'),
  tool('get-object', 's3', 'GetObject', 'Retrieves an object from a bucket. Returns the ETag.'),
  tool('list-buckets', 's3', 'ListBuckets', 'Returns the buckets of the account.'),
  tool('connect-pod-proxy', 'k8s', 'Connect pod proxy', 'Connects to the proxy of a pod.'),
  tool('read-pod', 'k8s', 'Read pod', 'Reads the specified pod.'),
];

describe('tool search: description words learned from phrasings', () => {
  it('pairs a task’s word with description words neither it nor the name says, seen 3 times and well above chance', () => {
    const phrasings = [
      { query: 'upload backup to storage', expected: ['put-object'] },
      { query: 'upload the report', expected: ['put-object'] },
      { query: 'upload a photo', expected: ['put-object'] },
      { query: 'download the file', expected: ['get-object'] },
      { query: 'which buckets exist', expected: ['list-buckets'] },
      { query: 'what storage do I have', expected: ['list-buckets'] },
      ...['show pod web-1', 'details of pod api', 'describe the pod', 'pod logs'].map((query) => ({ query, expected: ['read-pod'] })),
      { query: 'open a tunnel to the pod', expected: ['connect-pod-proxy'] },
    ];
    const table = countDescriptionPairs(phrasings, corpus);
    const [total, pairs] = table.terms['upload']!;
    expect(total).toBe(3);
    // "adds" of put-object's description, three times, where 3 of 11 meant tools say it; "object" is its name's.
    expect(Object.keys(pairs)).toContain('add');
    expect(Object.keys(pairs)).not.toContain('object');
    // "returns": six of the eleven meant tools' descriptions say it, so three of three is not three times chance.
    expect(Object.keys(pairs)).not.toContain('return');
    expect(table.terms['download']).toBeUndefined();
  });

  it('gives each candidate the best P(description word | task word) among its description’s words, per task word', () => {
    const pairs = new WordPairs({ terms: { upload: [3, { add: 3, bucket: 2 }] } }, (t) => ({ add: 4, bucket: 5 })[t]);
    // Two tools, fields laid out as the index does: [name, description) per tool, three bounds a tool.
    const toolTerms = Int32Array.from([1, 4, 5, 2, 5]);
    const bounds = Int32Array.from([0, 1, 3, 3, 4, 5]);
    const out = new Float32Array(2 * FEATURE_COUNT);
    pairs.fill(['upload', 'other'], [0, 1], toolTerms, bounds, out, FEATURE.descriptionPairs, FEATURE_COUNT, { step: 3, first: 1 });
    expect(out[FEATURE.descriptionPairs]).toBeCloseTo(3 / 4);
    expect(out[FEATURE_COUNT + FEATURE.descriptionPairs]).toBeCloseTo(2 / 4);
  });

  it('ships the table, counted from the training phrasings', () => {
    const words = Object.entries(shippedDescriptionPairs().terms);
    expect(words.length).toBeGreaterThan(100);
    for (const [, [total, counts]] of words)
      for (const n of Object.values(counts)) {
        expect(n).toBeGreaterThanOrEqual(3);
        expect(n).toBeLessThanOrEqual(total);
      }
  });
});
