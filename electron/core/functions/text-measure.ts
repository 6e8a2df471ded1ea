/**
 * Counting graphemes, words and sentences with Intl.Segmenter in linear time.
 *
 * V8's segment iterator (Node 20 at least) copies the whole input string into every segment
 * object it yields, so one pass over n characters costs O(n²): 100 000 characters take seconds.
 * The text is therefore measured in pieces of about a thousand characters, cut only where the
 * cut cannot change a count (UAX #29):
 *  - after a line feed or paragraph/line separator: a boundary for graphemes (GB4), words (WB3a)
 *    and sentences (SB4);
 *  - between "<letter><space>" and a letter: a grapheme and word boundary, never a sentence
 *    boundary (a sentence only ends after a terminator), so the two sentence halves are counted
 *    once. The letter before the space matters: the look-ahead of rule SB8 (does a lower-case
 *    letter follow "etc. "?) runs over digits and spaces but stops at a letter, so it never
 *    reaches across such a cut;
 *  - after ! ? 。！？ before a letter: a boundary for all three (SB11).
 * A stretch of several thousand characters with none of these is cut between two letters: a
 * word of an alphabetic script joined across the cut is counted once, exactly, while scripts that
 * ICU segments with a dictionary (Chinese, Japanese, Thai) may count one word more per cut.
 * Without even two letters in a row (a wall of emoji or punctuation) the cut falls on a
 * grapheme boundary, where words and sentences may be off by one. Such cuts clear `exact`.
 */

export interface Segmenters {
  word: Intl.Segmenter;
  sentence: Intl.Segmenter;
  grapheme: Intl.Segmenter;
}

export interface SegmentCounts {
  graphemes: number;
  words: number;
  sentences: number;
  /** False when a fallback cut may have changed the word or sentence count by one. */
  exact: boolean;
}

function count<T>(items: Iterable<T>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}

/**
 * Grapheme clusters, asking ICU only about the stretches around non-ASCII text: between two
 * ASCII characters there is always a boundary except inside CR LF (GB3). Each non-ASCII run is
 * widened by one character on each side (a base letter before combining marks, the follower of
 * a Prepend mark), never splitting a CR LF pair; the ASCII between regions counts one per
 * character, CR LF as one.
 */
export function countGraphemes(text: string, segmenter: Intl.Segmenter): number {
  let total = 0;
  let asciiFrom = 0;
  const asciiClusters = (from: number, to: number) => {
    let n = to - from;
    for (let i = from; i + 1 < to; i++) if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) n--;
    return n;
  };
  let regionStart = -1;
  let regionEnd = -1;
  const flush = () => {
    if (regionStart < 0) return;
    total += asciiClusters(asciiFrom, regionStart) + count(segmenter.segment(text.slice(regionStart, regionEnd)));
    asciiFrom = regionEnd;
  };
  for (const m of text.matchAll(/[^\x00-\x7f]+/g)) {
    let start = Math.max(m.index - 1, 0);
    if (start > 0 && text[start] === '\n' && text[start - 1] === '\r') start--;
    let end = Math.min(m.index + m[0].length + 1, text.length);
    if (text[end - 1] === '\r' && text[end] === '\n') end++;
    if (regionStart >= 0 && start < regionEnd) {
      regionEnd = Math.max(regionEnd, end);
      continue;
    }
    flush();
    regionStart = start;
    regionEnd = end;
  }
  flush();
  return total + asciiClusters(asciiFrom, text.length);
}

type CutKind = 'boundary' | 'inSentence' | 'betweenLetters' | 'fallback';

interface Cut {
  at: number;
  kind: CutKind;
}

// A letter that may start a piece: not a Thai/Lao vowel that is a spacing mark, not a Hangul jamo.
const STARTER = '(?![\\u0E33\\u0EB3\\u1100-\\u11FF\\uA960-\\uA97F\\uD7B0-\\uD7FF])\\p{L}';
const SAFE_CUT = new RegExp(`[\\n\\u0085\\u2028\\u2029]|\\p{L} (?=${STARTER})|[!?\\u3002\\uFF01\\uFF1F](?=${STARTER})`, 'gu');
// A letter followed by a letter or digit, neither a jamo nor a Prepend letter on the left: a grapheme boundary.
const LETTER_PAIR = new RegExp(
  `(?![\\u0D4E\\u1100-\\u11FF\\uA960-\\uA97F\\uD7B0-\\uD7FF])\\p{L}(?=(?![\\u0E33\\u0EB3\\u1100-\\u11FF\\uA960-\\uA97F\\uD7B0-\\uD7FF])[\\p{L}\\p{N}])`,
  'gu',
);
// Letters and digits that join into one word when adjacent (WB5, WB8–WB10). Left out: scripts
// ICU segments with a dictionary, Katakana (WB13), and Hangul, which ICU keeps apart from
// other scripts (a Hangul pair does join).
const JOINS_WORDS =
  /(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}])[\p{L}\p{N}]/u;
const HANGUL = /\p{Script=Hangul}/u;

function joinIntoOneWord(left: string, right: string): boolean | undefined {
  if (JOINS_WORDS.test(left) && JOINS_WORDS.test(right)) return true;
  if (HANGUL.test(left) && HANGUL.test(right)) return true;
  if ((JOINS_WORDS.test(left) && HANGUL.test(right)) || (HANGUL.test(left) && JOINS_WORDS.test(right))) return false;
  return undefined; // dictionary scripts: only ICU's dictionary knows
}

/** The whole code point that ends at index i (a surrogate pair counts as one). */
function charBefore(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text.slice(i - 1, i);
}

function findCut(text: string, from: number, pieceLength: number, grapheme: Intl.Segmenter): Cut {
  const windowStart = from + (pieceLength >> 1);
  const windowEnd = Math.min(text.length, from + pieceLength * 8);
  // Search a bounded slice, so a text without cut points costs linear time overall.
  const window = text.slice(windowStart, windowEnd);
  SAFE_CUT.lastIndex = 0;
  for (let m = SAFE_CUT.exec(window); m; m = SAFE_CUT.exec(window)) {
    const at = windowStart + m.index + m[0].length;
    if (at <= from) continue;
    if (at >= text.length) break;
    return { at, kind: m[0].endsWith(' ') ? 'inSentence' : 'boundary' };
  }
  LETTER_PAIR.lastIndex = 0;
  const pair = LETTER_PAIR.exec(window);
  if (pair) return { at: windowStart + pair.index + pair[0].length, kind: 'betweenLetters' };
  // No letters at all: take the grapheme boundary nearest the window start. Segmenting from
  // `from`, itself a boundary, keeps regional-indicator pairs and emoji sequences aligned.
  let best = -1;
  for (const s of grapheme.segment(text.slice(from, Math.min(text.length, windowStart + 32)))) {
    if (s.index > 0 && (best < 0 || Math.abs(from + s.index - windowStart) < Math.abs(best - windowStart))) best = from + s.index;
  }
  return { at: best > from ? best : windowEnd, kind: 'fallback' };
}

interface PieceCounts extends Omit<SegmentCounts, 'exact'> {
  firstWordLike: boolean;
  lastWordLike: boolean;
  firstSentenceHasText: boolean;
  lastSentenceHasText: boolean;
}

function measurePiece(piece: string, segs: Segmenters): PieceCounts {
  let words = 0;
  let firstWordLike = false;
  let lastWordLike = false;
  let first = true;
  for (const s of segs.word.segment(piece)) {
    const wordLike = s.isWordLike === true;
    if (wordLike) words++;
    if (first) firstWordLike = wordLike;
    first = false;
    lastWordLike = wordLike;
  }
  let sentences = 0;
  let firstSentenceHasText = false;
  let lastSentenceHasText = false;
  first = true;
  for (const s of segs.sentence.segment(piece)) {
    const hasText = /\S/u.test(s.segment);
    if (hasText) sentences++;
    if (first) firstSentenceHasText = hasText;
    first = false;
    lastSentenceHasText = hasText;
  }
  return { graphemes: countGraphemes(piece, segs.grapheme), words, sentences, firstWordLike, lastWordLike, firstSentenceHasText, lastSentenceHasText };
}

export interface MeasureOptions {
  /** Characters per piece; smaller in tests to exercise the cuts. */
  pieceLength?: number;
  /** Awaited every few pieces, so a large text does not hold the event loop. */
  yieldEvery?: () => Promise<void>;
}

export const DEFAULT_PIECE_LENGTH = 1024;

export async function countSegments(text: string, segs: Segmenters, opts: MeasureOptions = {}): Promise<SegmentCounts> {
  const pieceLength = opts.pieceLength ?? DEFAULT_PIECE_LENGTH;
  const totals: SegmentCounts = { graphemes: 0, words: 0, sentences: 0, exact: true };
  let from = 0;
  let previous: PieceCounts | undefined;
  let joinKind: CutKind = 'boundary';
  let pieces = 0;
  while (from < text.length) {
    const cut: Cut = text.length - from <= pieceLength ? { at: text.length, kind: 'boundary' } : findCut(text, from, pieceLength, segs.grapheme);
    const counts = measurePiece(text.slice(from, cut.at), segs);
    totals.graphemes += counts.graphemes;
    totals.words += counts.words;
    totals.sentences += counts.sentences;
    if (previous && joinKind !== 'boundary') {
      // The piece before ends inside the sentence this one starts with: count that sentence once.
      if (previous.lastSentenceHasText && counts.firstSentenceHasText) totals.sentences -= 1;
      if (joinKind === 'betweenLetters') {
        const joins = joinIntoOneWord(charBefore(text, from), String.fromCodePoint(text.codePointAt(from)!));
        // One word across the cut: whether it is word-like is decided where it ends, in this piece.
        if (joins && previous.lastWordLike) totals.words -= 1;
        if (joins === undefined) totals.exact = false;
      }
      if (joinKind === 'fallback') totals.exact = false;
    }
    previous = counts;
    joinKind = cut.kind;
    from = cut.at;
    if (opts.yieldEvery && ++pieces % 8 === 0) await opts.yieldEvery();
  }
  return totals;
}
