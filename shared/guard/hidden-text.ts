/**
 * Text a person does not see where tools are shown but a model reads whole: comments, markup
 * that hides or shouts (`<IMPORTANT>…</IMPORTANT>`, `display:none`), long whitespace runs that
 * push words out of view, encoded blobs and overlong values.
 */
import type { GuardSeverity } from './types.js';
import type { TextKind } from './texts.js';

export interface HiddenTextHit {
  severity: GuardSeverity;
  start: number;
  end: number;
  message: string;
}

export const HIDDEN_LIMITS = {
  /** A run of this many spaces or tabs inside a line hides what follows from a person reading the tool. */
  whitespaceRun: 40,
  /** A run this long followed by more text is hiding it, not indenting. */
  whitespaceRunError: 100,
  /** Blank lines in a row. */
  blankLines: 8,
  /** Characters of prose (a description, the instructions) past which a person no longer reads it all. */
  proseChars: 6000,
  /** Characters of one value (a default, an enum member, an example). */
  valueChars: 1000,
  /** Base64 or hex this long is data a person cannot read, in a text meant for reading. */
  encodedChars: 200,
} as const;

/** Tags of HTML that format visible text; other tags are someone's markup for the model. */
const FORMATTING = new Set([
  'a',
  'b',
  'i',
  'u',
  's',
  'em',
  'strong',
  'code',
  'pre',
  'kbd',
  'samp',
  'var',
  'br',
  'p',
  'div',
  'span',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'sup',
  'sub',
  'small',
  'mark',
  'blockquote',
  'q',
  'cite',
  'abbr',
  'img',
]);

const COMMENT = /<!--[\s\S]*?(?:-->|$)|^\s*\[(?:\/\/|comment)\]:\s*[#<][^\n]*/gm;
const TAG_BLOCK = /<([A-Za-z][\w-]{0,30})(?:\s[^<>]{0,200})?>([\s\S]{0,20000}?)<\/\1\s*>/g;
const HIDING_STYLE =
  /\b(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\b|opacity\s*:\s*0(?![.\d])|color\s*:\s*(?:white|transparent|#fff(?:fff)?)\b)/i;
const WHITESPACE_RUN = new RegExp(String.raw`[ \t\u00a0\u2000-\u200a\u3000]{${HIDDEN_LIMITS.whitespaceRun},}(?=(\S?))`, 'g');
const BLANK_LINES = new RegExp(String.raw`\n(?:[ \t]*\n){${HIDDEN_LIMITS.blankLines},}(?=\s*\S)`, 'g');
const ENCODED = new RegExp(String.raw`(?:[A-Za-z0-9+/]{${HIDDEN_LIMITS.encodedChars},}={0,2}|(?:[0-9a-fA-F]{2}){${HIDDEN_LIMITS.encodedChars / 2},})`, 'g');
/** Words of an order to the model: what makes hidden text an attack rather than a leftover. */
const TO_THE_MODEL = /\b(?:you|your|assistant|ai|model|llm|agent|must|always|never|ignore|do not|don't|instead|before using|when using)\b/i;

/** Tag blocks in the text (for the sentence rules' context) and the hits. */
export function hiddenText(text: string, kind: TextKind): { hits: HiddenTextHit[]; blocks: [number, number][] } {
  const hits: HiddenTextHit[] = [];
  const blocks: [number, number][] = [];
  if (kind === 'name' || kind === 'property-name') return { hits, blocks };
  if (text.includes('<') || text.includes('[')) {
    for (const m of text.matchAll(COMMENT)) {
      const inner = m[0];
      hits.push({
        severity: TO_THE_MODEL.test(inner) ? 'error' : 'warning',
        start: m.index,
        end: m.index + inner.length,
        message: TO_THE_MODEL.test(inner)
          ? 'a comment that speaks to the model: clients do not show comments, the model reads them'
          : 'a comment: clients do not show it, the model reads it',
      });
    }
    for (const m of text.matchAll(TAG_BLOCK)) {
      const name = m[1]!.toLowerCase();
      if (FORMATTING.has(name)) {
        if (HIDING_STYLE.test(m[0].slice(0, m[0].indexOf('>') + 1)))
          hits.push({
            severity: 'error',
            start: m.index,
            end: m.index + m[0].length,
            message: `markup styled to be invisible (<${m[1]} …>) around text the model still reads`,
          });
        continue;
      }
      blocks.push([m.index, m.index + m[0].length]);
      hits.push({
        severity: 'warning',
        start: m.index,
        end: m.index + m[0].length,
        message: `text wrapped in <${m[1]}> markup: not formatting a person sees, but a block the model reads as special`,
      });
    }
  }
  for (const m of text.matchAll(WHITESPACE_RUN)) {
    const followed = m[1] !== '';
    const error = followed && m[0].length >= HIDDEN_LIMITS.whitespaceRunError;
    if (!followed && m.index + m[0].length >= text.length) continue;
    hits.push({
      severity: error ? 'error' : 'warning',
      start: m.index,
      end: m.index + m[0].length,
      message: `${m[0].length} blank characters in a row${followed ? ', pushing the text after them out of view' : ''}`,
    });
  }
  for (const m of text.matchAll(BLANK_LINES)) {
    hits.push({
      severity: 'warning',
      start: m.index,
      end: m.index + m[0].length,
      message: `${m[0].split('\n').length - 1} line breaks in a row before more text, out of view`,
    });
  }
  if (text.length >= HIDDEN_LIMITS.encodedChars) {
    for (const m of text.matchAll(ENCODED)) {
      hits.push({
        severity: 'warning',
        start: m.index,
        end: m.index + m[0].length,
        message: `${m[0].length} characters of encoded data (base64 or hex) that a person cannot read`,
      });
    }
  }
  const limit = kind === 'value' ? HIDDEN_LIMITS.valueChars : HIDDEN_LIMITS.proseChars;
  if (text.length > limit) {
    hits.push({
      severity: 'warning',
      start: limit,
      end: text.length,
      message: `${text.length.toLocaleString('en-US')} characters (more than ${limit.toLocaleString('en-US')}): a person reviewing the tool does not read this far, the model does`,
    });
  }
  return { hits, blocks };
}
