/**
 * Index-time expansion: what a tool does, in the words people use for it. The data are written
 * and reviewed by hand (lexicon/*.json): the verbs of tool names (actions.json) and the things
 * they act on (things.json) with the phrasings people use, other names of services
 * (services.json), and what a parameter's name says about the task (arguments.json). Each maps
 * a key — a word, or two words that must both be present — to words; keys and words are
 * analysed (split, folded, stemmed) as the ranker analyses everything, once, when loaded.
 *
 * The ranker indexes the expansion of a tool's name, title and tags as a field of its own, its
 * parameters' expansion as another, and a bundle's other names in its bundle field: a query in a
 * user's words then meets a tool in its API's words, weighed by BM25F like any other field.
 */
import actions from './lexicon/actions.json' with { type: 'json' };
import things from './lexicon/things.json' with { type: 'json' };
import services from './lexicon/services.json' with { type: 'json' };
import argumentWords from './lexicon/arguments.json' with { type: 'json' };
import type { Analyzer } from './analyze.js';

interface LexiconFile {
  about: string;
  terms: Record<string, string>;
}

interface Entry {
  /** The key's terms; all must be among the tool's. */
  key: readonly string[];
  words: readonly string[];
}

/** Keys and their words, looked up by the key's first term. */
export class ExpansionTable {
  private readonly byFirst = new Map<string, Entry[]>();

  constructor(files: readonly LexiconFile[], analyzer: Analyzer) {
    for (const file of files)
      for (const [key, words] of Object.entries(file.terms)) {
        const keyTerms = analyzer.terms(key);
        if (!keyTerms.length) continue;
        const entry = { key: keyTerms, words: analyzer.terms(words) };
        const list = this.byFirst.get(keyTerms[0]!) ?? [];
        list.push(entry);
        this.byFirst.set(keyTerms[0]!, list);
      }
  }

  /** The words the lexicon gives these terms, each once, none the terms already hold. */
  expand(terms: readonly string[]): string[] {
    const have = new Set(terms);
    const out = new Set<string>();
    for (const term of have)
      for (const entry of this.byFirst.get(term) ?? [])
        if (entry.key.every((t) => have.has(t))) for (const word of entry.words) if (!have.has(word)) out.add(word);
    return [...out];
  }

  get size(): number {
    let n = 0;
    for (const list of this.byFirst.values()) n += list.length;
    return n;
  }
}

export interface Lexicon {
  /** A tool's name, title and tags → what it does in other words. */
  doing: ExpansionTable;
  /** A bundle's name → the other names of its service. */
  services: ExpansionTable;
  /** Its parameters' names → what filling them says. */
  parameters: ExpansionTable;
}

export function loadLexicon(analyzer: Analyzer): Lexicon {
  return {
    doing: new ExpansionTable([actions, things], analyzer),
    services: new ExpansionTable([services], analyzer),
    parameters: new ExpansionTable([argumentWords], analyzer),
  };
}
