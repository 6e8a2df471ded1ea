/**
 * Text to index terms, the same for tools and for queries: identifiers are split
 * (listRepos, list_repos, list-repos, HTTPServer → list repos / http server), words folded as the
 * app's search folds them (case, accents, Unicode forms), filler words dropped, then stemmed.
 */
import { MAX_WORD_LENGTH, tokenize } from '../../search/normalize.js';
import { stem } from './stem.js';
import { STOPWORDS } from '../../search/stopwords.js';

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/** camelCase and ALLCaps boundaries become spaces; the app's tokenizer does the rest. */
export function splitIdentifiers(text: string): string {
  return text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
}

function kind(code: number): number {
  return code >= 97 && code <= 122 ? LOWER : code >= 65 && code <= 90 ? UPPER : code >= 48 && code <= 57 ? DIGIT : OTHER;
}
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

/**
 * The words of a text whose letters are all ASCII, in one pass — what splitIdentifiers +
 * tokenize give, without their Unicode regular expressions, which made indexing 10,000 real
 * tools take seconds. Undefined when a word holds a non-ASCII letter (then those run).
 */
function asciiWords(text: string): string[] | undefined {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const current = kind(code);
    let boundary = current === OTHER;
    if (boundary && code > 0x7f && WORD_CHARACTER.test(text[i]!)) return undefined;
    if (!boundary && start >= 0 && current === UPPER) {
      const previous = kind(text.charCodeAt(i - 1));
      boundary = previous === LOWER || (previous === UPPER && kind(text.charCodeAt(i + 1)) === LOWER);
    }
    if (boundary && start >= 0) {
      words.push(text.slice(start, Math.min(i, start + MAX_WORD_LENGTH)).toLowerCase());
      start = -1;
    }
    if (current !== OTHER && start < 0) start = i;
  }
  return words;
}

/** Every word of a text, identifiers split, folded. */
export function splitWords(text: string): string[] {
  return asciiWords(text) ?? tokenize(splitIdentifiers(text));
}

export interface Analyzer {
  /** Index terms of a text, in order, duplicates kept. */
  terms(text: string): string[];
  /** Each kept word with its term: what `why` quotes. */
  words(text: string): { word: string; term: string }[];
  /** A word that gave this term (the first seen), to show a term to people. */
  surface(term: string): string;
}

/** Stemming is the costly step and tool text repeats words a lot, so stems are remembered. */
export function createAnalyzer(): Analyzer {
  const stems = new Map<string, string>();
  const surfaces = new Map<string, string>();
  const termOf = (word: string): string => {
    let term = stems.get(word);
    if (term === undefined) {
      term = stem(word);
      stems.set(word, term);
      if (!surfaces.has(term)) surfaces.set(term, word);
    }
    return term;
  };
  return {
    terms: (text) => {
      const out: string[] = [];
      for (const word of splitWords(text)) if (!STOPWORDS.has(word)) out.push(termOf(word));
      return out;
    },
    words: (text) =>
      splitWords(text)
        .filter((word) => !STOPWORDS.has(word))
        .map((word) => ({ word, term: termOf(word) })),
    surface: (term) => surfaces.get(term) ?? term,
  };
}
