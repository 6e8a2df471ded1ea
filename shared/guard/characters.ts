/**
 * Characters a person does not see but a model reads: Unicode tag characters (ASCII smuggling),
 * bidirectional controls (Trojan Source), zero-width and filler characters, stray variation
 * selectors, C0/C1 controls and ANSI escape sequences (ansi-regex, the library terminals' tools
 * use), private-use characters; and confusables — letters of one script that look like another's
 * (a Cyrillic "а" in a Latin word), found by script mixing and by a skeleton of each name.
 */
import ansiRegex from 'ansi-regex';

export type CharKind = 'tag' | 'bidi' | 'zero-width' | 'control' | 'ansi' | 'variation-selector' | 'private-use' | 'soft';

export interface CharRun {
  kind: CharKind;
  start: number;
  end: number;
}

const ANSI = ansiRegex();

/** Scripts whose writing needs ZWJ/ZWNJ between letters (Persian, Indic, Sinhala, Khmer…), where the joiners are honest. */
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Mongolian}]/u;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Emoji_Component}]/u;
/** What a variation selector honestly follows: a symbol, a CJK ideograph, or a keycap digit. */
const VS_BASE = /[\p{Extended_Pictographic}\p{S}\p{Script=Han}0-9#*]/u;

function kindOf(cp: number): CharKind | undefined {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'bidi';
  if (
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0xfeff ||
    cp === 0x180e ||
    cp === 0x034f ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    cp === 0xffa0 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x206a && cp <= 0x206f) ||
    (cp >= 0xfff9 && cp <= 0xfffb)
  )
    return 'zero-width';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'variation-selector';
  if (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) return 'control';
  if (cp >= 0x7f && cp <= 0x9f) return 'control';
  if ((cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000) return 'private-use';
  if (cp === 0x00ad) return 'soft';
  return undefined;
}

/** A quick test before the walk: does the text hold anything the walk would look at? */
const SUSPECT =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\ue000-\uf8ff\ud800-\udfff]/;

/** The character (a whole surrogate pair) before offset i, or ''. */
function previousCharacter(text: string, i: number): string {
  if (i === 0) return '';
  const low = text.charCodeAt(i - 1);
  return i > 1 && low >= 0xdc00 && low <= 0xdfff ? text.slice(i - 2, i) : text.slice(i - 1, i);
}

/** Is a joiner at `i` between letters or emoji that need it? */
function honestJoiner(text: string, cp: number, i: number, end: number): boolean {
  if (cp !== 0x200c && cp !== 0x200d) return false;
  const before = text.slice(Math.max(0, i - 2), i);
  const after = text.slice(end, end + 2);
  if (cp === 0x200d && PICTOGRAPH.test(before) && PICTOGRAPH.test(after)) return true;
  return JOINING_SCRIPT.test(before) || JOINING_SCRIPT.test(after);
}

/** Runs of hidden characters (consecutive ones of a kind form one run); ANSI sequences as whole runs. */
export function hiddenCharacterRuns(text: string): CharRun[] {
  if (!SUSPECT.test(text)) return [];
  const runs: CharRun[] = [];
  const ansi: CharRun[] = [];
  if (text.includes('\u001b') || text.includes('\u009b') || text.includes('\u009d')) {
    for (const m of text.matchAll(ANSI)) ansi.push({ kind: 'ansi', start: m.index, end: m.index + m[0].length });
  }
  let a = 0;
  for (let i = 0; i < text.length;) {
    if (a < ansi.length && i === ansi[a]!.start) {
      runs.push(ansi[a]!);
      i = ansi[a++]!.end;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    let kind = kindOf(cp);
    if (kind === 'zero-width' && honestJoiner(text, cp, i, i + width)) kind = undefined;
    if (kind === 'zero-width' && cp === 0xfeff && i === 0) kind = 'soft';
    if (kind === 'variation-selector' && cp <= 0xfe0f && VS_BASE.test(previousCharacter(text, i))) kind = undefined;
    if (kind) {
      const last = runs.at(-1);
      if (last && last.kind === kind && last.end === i) last.end = i + width;
      else runs.push({ kind, start: i, end: i + width });
    }
    i += width;
  }
  return runs;
}

/** The text of a run as a person should see it: `<U+200B><U+200B>`, and tag characters decoded (`<tags: "send keys">`). */
export function showRun(text: string, run: CharRun): string {
  const part = text.slice(run.start, run.end);
  if (run.kind === 'tag') {
    const decoded = [...part].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join('');
    return `<tags: ${JSON.stringify(decoded.replace(/[^\x20-\x7e]/g, '?'))}>`;
  }
  if (run.kind === 'ansi') return JSON.stringify(part).slice(1, -1);
  return [...part].map((c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`).join('');
}

/** Invisible characters written out, everything else kept: how a span is shown. */
export function visible(text: string): string {
  const runs = hiddenCharacterRuns(text);
  if (!runs.length) return text;
  let out = '';
  let at = 0;
  for (const r of runs) {
    out += text.slice(at, r.start) + showRun(text, r);
    at = r.end;
  }
  return out + text.slice(at);
}

/**
 * Letters of Cyrillic, Greek, Armenian and Cherokee (and a few Latin ones) that look like ASCII,
 * mapped to the letter they pass for. Fullwidth and mathematical letters need no table: NFKC folds
 * them. The few dozen kept here are the ones seen in look-alike names; UTS #39's full table has
 * thousands, most of which no one confuses at a glance.
 */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ɡ: 'g',
  ь: 'b',
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  У: 'y',
  Х: 'x',
  Ѕ: 's',
  І: 'i',
  Ј: 'j',
  Ԁ: 'd',
  Ԛ: 'q',
  Ԝ: 'w',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
  ε: 'e',
  η: 'n',
  ω: 'w',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  օ: 'o',
  ս: 'u',
  ց: 'g',
  հ: 'h',
  ո: 'n',
  Ꭺ: 'a',
  Ꭼ: 'e',
  Ꮃ: 'w',
  Ꮇ: 'm',
  Ꮋ: 'h',
  Ꭰ: 'd',
  Ꮪ: 's',
  Ꭲ: 't',
  ı: 'i',
  ȷ: 'j',
  ℓ: 'l',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '−': '-',
  '＿': '_',
};

const HIDDEN_CHARS_G =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** What a name looks like: folded (NFKC), look-alike letters made ASCII, hidden characters dropped, lower case. */
export function skeleton(name: string): string {
  let out = '';
  for (const ch of name.normalize('NFKC').replace(HIDDEN_CHARS_G, '')) out += HOMOGLYPHS[ch] ?? ch;
  return out.toLowerCase();
}

/** Same as skeleton, and separators and case ignored: `Get_Stock-Price` and `getstockprice`. */
export const looseSkeleton = (name: string) => skeleton(name).replace(/[\s_.-]+/g, '');

const LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

/**
 * Words that mix Latin letters with look-alike letters of another script (`pаypal` with a Cyrillic
 * а): no language writes a word that way. Words wholly in one script are left alone (Russian text
 * is honest).
 */
export function mixedScriptWords(text: string): { start: number; end: number; word: string }[] {
  if (!/[^\x00-\x7f]/.test(text)) return [];
  const out: { start: number; end: number; word: string }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)) {
    const w = m[0];
    if (LATIN.test(w) && LOOKALIKE_SCRIPT.test(w) && [...w].some((c) => HOMOGLYPHS[c] !== undefined))
      out.push({ start: m.index, end: m.index + w.length, word: w });
  }
  return out;
}
