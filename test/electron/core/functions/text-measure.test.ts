import { describe, it, expect } from 'vitest';
import { countGraphemes, countSegments, type Segmenters } from '../../../../electron/core/functions/text-measure.js';

const segs: Segmenters = {
  word: new Intl.Segmenter('en', { granularity: 'word' }),
  sentence: new Intl.Segmenter('en', { granularity: 'sentence' }),
  grapheme: new Intl.Segmenter('en', { granularity: 'grapheme' }),
};

/** ICU over the whole text in one go, no shortcuts: the oracle. */
function reference(text: string) {
  let graphemes = 0;
  for (const _ of segs.grapheme.segment(text)) graphemes++;
  let words = 0;
  for (const s of segs.word.segment(text)) if (s.isWordLike) words++;
  let sentences = 0;
  for (const s of segs.sentence.segment(text)) if (/\S/u.test(s.segment)) sentences++;
  return { graphemes, words, sentences };
}

// mulberry32: a small seeded generator, so a failure reproduces.
let seed = 7;
const rand = (n: number) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
};
const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;

// ASCII next to everything that joins across a boundary: combining marks, a Prepend mark
// (U+0600), ZWJ emoji, regional-indicator flags, Hangul jamo and syllables, Devanagari
// conjuncts, CR LF, terminators, quotes, digits with separators, a lone surrogate.
const MIXED = [
  'a',
  'b',
  'Z',
  'x',
  ' ',
  ' ',
  ' ',
  '  ',
  '.',
  ',',
  '!',
  '?',
  '"',
  ')',
  "'",
  '3',
  '4',
  '.5',
  '\r',
  '\n',
  '\r\n',
  '\u2029',
  '\u0085',
  'é',
  'e',
  '\u0301',
  '\u0600',
  '😀',
  '\u200d',
  '👩',
  '🏽',
  '🇩',
  '🇪',
  '\u1100',
  '\u1161',
  '\u11a8',
  '한',
  'ह',
  '\u094d',
  'क',
  'ß',
  'Ω',
  'ж',
  '\ud800',
  'Mr.',
  'U.S.',
  'Hello',
  'world',
];
const randomText = (alphabet: readonly string[], length: number) => Array.from({ length }, () => pick(alphabet)).join('');

describe('countGraphemes', () => {
  it('agrees with ICU on random mixed text', () => {
    for (let i = 0; i < 3000; i++) {
      const text = randomText(MIXED, rand(40));
      expect(countGraphemes(text, segs.grapheme), JSON.stringify(text)).toBe(reference(text).graphemes);
    }
  });
});

describe('countSegments in pieces', () => {
  it.each([4, 8, 32, 128])('agrees with ICU on random mixed text cut every ~%i characters', async (pieceLength) => {
    let exact = 0;
    const runs = 400;
    for (let i = 0; i < runs; i++) {
      const text = randomText(MIXED, 10 + rand(300));
      const { exact: isExact, ...counts } = await countSegments(text, segs, { pieceLength });
      const want = reference(text);
      // Graphemes are exact whatever the cut; words and sentences whenever no fallback cut was needed.
      expect(counts.graphemes, JSON.stringify(text)).toBe(want.graphemes);
      if (isExact) {
        expect(counts, JSON.stringify(text)).toEqual(want);
        exact++;
      } else {
        expect(Math.abs(counts.words - want.words) + Math.abs(counts.sentences - want.sentences)).toBeLessThanOrEqual(text.length);
      }
    }
    expect(exact).toBeGreaterThan(runs / 2);
  });

  it('agrees on prose with long lines at the default piece size', async () => {
    const sentence = () =>
      `${pick(['The', 'A', 'Every', 'No'])} ${randomText(['cat', 'dog', 'über', 'naïve', 'co-op', "isn't", '3.14', 'e.g.'], 1 + rand(12)).replace(/(?<=\S)(?=[a-zü3ie])/g, ' ')}${pick(['.', '!', '?', '…', '."', ' 。'])} `;
    // Long enough for many default-size pieces; the ICU reference is quadratic on Node 20, so
    // not longer than it needs to be.
    const paragraphs = Array.from({ length: 8 }, () => Array.from({ length: 20 + rand(80) }, sentence).join(''));
    const text = paragraphs.join('\n\n');
    expect(text.length).toBeGreaterThan(8_000);
    expect(await countSegments(text, segs)).toEqual({ ...reference(text), exact: true });
  });

  it('stays exact in a long line without spaces in an alphabetic script', async () => {
    const text = 'Lorem' + 'ipsumdolorsitamet'.repeat(200) + '. Next one!';
    expect(await countSegments(text, segs, { pieceLength: 64 })).toEqual({ ...reference(text), exact: true });
    const mixedScripts = 'Straße' + 'ΩмегаhelloЖук한국어'.repeat(100);
    expect(await countSegments(mixedScripts, segs, { pieceLength: 16 })).toEqual({ ...reference(mixedScripts), exact: true });
  });

  it('keeps graphemes and sentences exact in long runs of CJK text or emoji, words close', async () => {
    const cjk = '我喜欢吃苹果和香蕉因为它们很好吃'.repeat(100) + '。' + '日本語のテキストです'.repeat(100);
    const got = await countSegments(cjk, segs, { pieceLength: 64 });
    const want = reference(cjk);
    expect(got.graphemes).toBe(want.graphemes);
    expect(got.sentences).toBe(want.sentences);
    expect(Math.abs(got.words - want.words)).toBeLessThanOrEqual(Math.ceil(cjk.length / 32));
    expect(got.exact).toBe(false);
    const emoji = '👩‍👩‍👧🇩🇪😀🏽🇩'.repeat(300);
    const e = await countSegments(emoji, segs, { pieceLength: 64 });
    expect(e.graphemes).toBe(reference(emoji).graphemes);
  });

  it('yields while it works', async () => {
    let yields = 0;
    const text = 'word. '.repeat(20_000);
    await countSegments(text, segs, { yieldEvery: async () => void yields++ });
    expect(yields).toBeGreaterThan(2);
  });
});
