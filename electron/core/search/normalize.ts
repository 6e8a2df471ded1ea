/**
 * Text folding and tokenising shared by the index and the query, so both sides see the same
 * words. Folding makes matching case-, diacritic- and normalisation-insensitive:
 *
 *   NFKD            "météo" typed precomposed or as e + U+0301 decomposes the same way;
 *                   compatibility forms fold too (fullwidth "ｗｅａｔｈｅｒ", ligature "ﬁ").
 *   strip marks     only the diacritic blocks used by Latin, Greek, Cyrillic, Hebrew and
 *                   Arabic. Marks that are letters in their script stay: Japanese dakuten
 *                   ("が" is not "か"), Devanagari and Thai vowel signs.
 *   lower case      locale-independent.
 *   letter folds    letters that do not decompose: ß→ss, æ→ae, ø→o, ł→l, final ς→σ, ...
 *   NFC             recompose what is left (Hangul, kana with dakuten).
 *
 * Words are maximal runs of letters, digits and (kept) combining marks; everything else,
 * including '-', '_', '.', spaces and emoji, separates words. "wetter-なう" → ["wetter", "なう"].
 */

// Ranges of combining marks, written as escapes on purpose: the rule's worry (a mark glued to the
// character before it in the class) does not apply to escapes standing alone.
// eslint-disable-next-line no-misleading-character-class
const DIACRITIC_MARKS = /[\u0300-\u036f\u0591-\u05c7\u064b-\u065f\u0670\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
/** Emoji presentation selectors are marks too; they would glue an emoji's tail onto the next word. */
const VARIATION_SELECTORS = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;
const LEADING_MARKS = /^\p{M}+/u;

const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
  ħ: 'h',
  ŧ: 't',
};
const FOLDABLE_LETTER = /[ßæœøłđðþıςħŧ]/g;

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const WORD_SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;

/** Longer words are cut here: keeps fuzzy look-ups cheap on pasted blobs; prefixes still match. */
export const MAX_WORD_LENGTH = 64;

/** Same text in, same folded text out, whatever case, accents or Unicode normal form it was typed in. */
export function foldText(text: string): string {
  // Most tool text is ASCII, where every step but lower-casing is the identity.
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(DIACRITIC_MARKS, '')
    .replace(VARIATION_SELECTORS, '')
    .toLowerCase()
    .replace(FOLDABLE_LETTER, (ch) => LETTER_FOLDS[ch] ?? ch)
    .normalize('NFC');
}

/** The folded words of a text, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const separated of foldText(text).split(WORD_SEPARATORS)) {
    // A mark with no letter before it (after a separator or emoji) belongs to no word.
    const part = separated.replace(LEADING_MARKS, '');
    if (part.length === 0) continue;
    words.push(part.length > MAX_WORD_LENGTH ? truncateWord(part) : part);
  }
  return words;
}

/** Cuts at MAX_WORD_LENGTH without splitting a surrogate pair. */
function truncateWord(word: string): string {
  let end = MAX_WORD_LENGTH;
  const last = word.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return word.slice(0, end);
}

/**
 * The folded words joined by single spaces: what "begins with" is checked on for the prefix
 * tier, so "Weather Now", "weather-now" and "weather_now" all begin with "weather n".
 */
export function phraseKey(text: string): string {
  return tokenize(text).join(' ');
}

/**
 * How many edits a query word may be away from an indexed word to still match fuzzily.
 * Short words get none: "api" within one edit matches half the dictionary.
 */
export function maxEditDistance(word: string): number {
  const length = [...word].length;
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  return 2;
}
