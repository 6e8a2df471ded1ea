/**
 * core.textStats: counts that differ in surprising ways for non-ASCII text, so each is
 * named precisely. Words, sentences and graphemes use Intl.Segmenter (ICU), which handles
 * scripts without spaces (Japanese, Thai) and emoji sequences; text-measure.ts keeps that
 * linear and yields to the event loop, so the app stays responsive at the 1 M-character cap.
 */
import { Buffer } from 'node:buffer';
import { CoreError, cancelledError } from '../errors.js';
import { defineFunction } from './types.js';
import { keyValueTable } from './html.js';
import { countSegments, type MeasureOptions, type Segmenters } from './text-measure.js';

export const MAX_TEXT_LENGTH = 1_000_000;

export interface TextStats {
  chars: number;
  codePoints: number;
  graphemes: number;
  words: number;
  lines: number;
  blankLines: number;
  sentences: number;
  bytesUtf8: number;
  exact: boolean;
}

const segmenters = new Map<string, Segmenters>();

function segmentersFor(locale: string | undefined): Segmenters {
  const key = locale ?? '';
  let s = segmenters.get(key);
  if (!s) {
    try {
      new Intl.Segmenter(locale);
    } catch {
      throw new CoreError('INVALID_ARGS', `locale '${locale}' is not a valid BCP 47 language tag; use e.g. 'en', 'de-CH' or 'ja'`, {
        issues: [{ field: 'args.locale', message: 'is not a valid BCP 47 language tag' }],
      });
    }
    s = {
      word: new Intl.Segmenter(locale, { granularity: 'word' }),
      sentence: new Intl.Segmenter(locale, { granularity: 'sentence' }),
      grapheme: new Intl.Segmenter(locale, { granularity: 'grapheme' }),
    };
    if (segmenters.size >= 32) segmenters.clear(); // locales come from callers: keep the cache bounded
    segmenters.set(key, s);
  }
  return s;
}

function count<T>(items: Iterable<T>, keep: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (keep(item)) n++;
  return n;
}

/** Surrogate pairs are the only way one code point spans two UTF-16 units. */
function countCodePoints(text: string): number {
  let pairs = 0;
  for (const _ of text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) pairs++;
  return text.length - pairs;
}

/** Measures text without holding the event loop for long: large input is counted piece by piece. */
export async function textStats(text: string, locale?: string, signal?: AbortSignal, opts: MeasureOptions = {}): Promise<TextStats> {
  const segments = await countSegments(text, segmentersFor(locale), {
    ...opts,
    yieldEvery: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw cancelledError();
    },
  });
  // A line is text ended by \n, \r\n or \r, or the unterminated rest; "a\n" is one line, "" none.
  const lineList = text === '' ? [] : text.split(/\r\n|\n|\r/);
  if (lineList.length > 1 && lineList[lineList.length - 1] === '') lineList.pop();
  return {
    chars: text.length,
    codePoints: countCodePoints(text),
    graphemes: segments.graphemes,
    words: segments.words,
    lines: lineList.length,
    blankLines: count(lineList, (l) => l.trim() === ''),
    sentences: segments.sentences,
    bytesUtf8: Buffer.byteLength(text, 'utf8'),
    exact: segments.exact,
  };
}

const countField = (description: string) => ({ type: 'integer', minimum: 0, description });

export const textStatsFunction = defineFunction<{ text: string; locale?: string }, TextStats>({
  name: 'core.textStats',
  description: 'Count characters (UTF-16 units), code points, graphemes, words, lines, blank lines, sentences and UTF-8 bytes of a text.',
  argSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: MAX_TEXT_LENGTH, description: `The text to measure (at most ${MAX_TEXT_LENGTH} characters).` },
      locale: {
        type: 'string',
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        maxLength: 35,
        description: "BCP 47 language tag that guides word and sentence breaking, e.g. 'en', 'de', 'ja'. Default: the runtime's.",
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      chars: countField('UTF-16 code units (JavaScript string length); an emoji can count 2 or more.'),
      codePoints: countField('Unicode code points.'),
      graphemes: countField('User-perceived characters (extended grapheme clusters).'),
      words: countField('Word-like segments (Intl.Segmenter), so CJK text counts words without spaces.'),
      lines: countField('Lines, split on \\n, \\r\\n or \\r; a final line break does not start a new line; empty text has 0.'),
      blankLines: countField('Lines that are empty or whitespace only.'),
      sentences: countField('Sentences (Intl.Segmenter).'),
      bytesUtf8: countField('Size in bytes when encoded as UTF-8.'),
      exact: {
        type: 'boolean',
        description:
          'False only when a stretch of thousands of characters had no space, line break or punctuation (e.g. unpunctuated Chinese); words and sentences may then be off by about one per thousand characters.',
      },
    },
    required: ['chars', 'codePoints', 'graphemes', 'words', 'lines', 'blankLines', 'sentences', 'bytesUtf8', 'exact'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run({ text, locale }, ctx) {
    const value = await textStats(text, locale, ctx.signal);
    const html = keyValueTable([
      ['Words', value.words],
      ['Sentences', value.sentences],
      ['Lines', value.lines],
      ['Characters (graphemes)', value.graphemes],
      ['Code points', value.codePoints],
      ['UTF-16 units', value.chars],
      ['UTF-8 bytes', value.bytesUtf8],
    ]);
    return { value, card: { title: 'Text statistics', html, text: `${value.words} words, ${value.lines} lines, ${value.bytesUtf8} bytes` } };
  },
});
