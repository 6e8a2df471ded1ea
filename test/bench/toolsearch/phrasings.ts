/**
 * The team's written task phrasings for the corpus's tools (test/fixtures/toolsearch/phrasings/):
 * how people ask an agent for what a tool does, written without copying the tools' text, several
 * per tool, for thousands of tools. They train the re-ranker (train-reranker.ts) and the lexicon
 * work reads their misses; one in five, chosen by a hash of its text, is held out from both.
 *
 * A file: "# …" comments, "@bundle" to start a bundle, then "slug: phrasing | phrasing" lines.
 * A file named train-*.txt is training data only (none held out): phrasings written after the
 * held-out sets were measured, so that adding them leaves those sets, and their figures, as they were.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { CorpusEntry, LabelledQuery } from './evaluate.js';

const folder = new URL('../../fixtures/toolsearch/phrasings/', import.meta.url);

/** One phrasing in five is held out: never trained on, its misses never read. */
export function isHeldOutPhrasing(text: string): boolean {
  return createHash('sha256').update(text).digest()[0]! % 5 === 0;
}

export interface Phrasing extends LabelledQuery {
  /** bundle/slug of the tool meant. */
  ref: string;
  file: string;
}

export function loadPhrasings(corpus: readonly CorpusEntry[]): Phrasing[] {
  const nameOf = new Map(corpus.map((e) => [e.ref, e.name]));
  const out: Phrasing[] = [];
  const problems: string[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.txt'))
    .sort()) {
    let bundle: string | undefined;
    readFileSync(new URL(file, folder), 'utf8')
      .split('\n')
      .forEach((raw, i) => {
        const line = raw.trim();
        if (!line || line.startsWith('#')) return;
        if (line.startsWith('@')) {
          bundle = line.slice(1).trim();
          return;
        }
        const colon = line.indexOf(':');
        const slug = line.slice(0, colon).trim();
        const ref = `${bundle}/${slug}`;
        const name = nameOf.get(ref);
        if (colon < 0 || !bundle || !name) {
          problems.push(`${file}:${i + 1}: no tool ${ref}`);
          return;
        }
        for (const text of line.slice(colon + 1).split('|')) {
          const query = text.trim();
          if (query) out.push({ query, expected: [name], ref, file, heldOut: !file.startsWith('train-') && isHeldOutPhrasing(query) });
        }
      });
  }
  if (problems.length) throw new Error(`phrasings name tools the corpus lacks:\n${problems.join('\n')}`);
  return out;
}
