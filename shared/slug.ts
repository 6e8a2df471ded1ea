/**
 * Slug and version rules of the spec.
 *
 * Input is normalised to Unicode NFC before it is checked and before it is stored, so an
 * "é" typed as e + U+0301 (NFD) and one typed precomposed are the same slug. After that,
 * comparison is exact: slugs are case-sensitive.
 *
 * Allowed: Unicode letters (\p{L}), decimal digits (\p{Nd}), ASCII '-', and in versions '.'.
 * Combining marks (\p{Mn}, \p{Mc}) are allowed right after a letter or digit, because scripts
 * such as Devanagari or Thai cannot be written without them even in NFC; variation
 * selectors and enclosing marks are not, which keeps emoji keycaps ("1️⃣") out.
 * Length: at most 64 runes (code points), not UTF-16 units.
 */
export const MAX_SLUG_RUNES = 64;

export type SlugKind = 'slug' | 'version';

export interface SlugCheck {
  ok: boolean;
  /** The NFC form, which is what gets stored. */
  value: string;
  /** Human-readable reason with the fix, when !ok. */
  message?: string;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;
const COMBINING_MARK = /^[\p{Mn}\p{Mc}]$/u;
const VARIATION_SELECTOR = /^[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]$/u;

function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  if (/\s/u.test(ch)) return `whitespace (${hex})`;
  if (/\p{Cc}|\p{Cf}/u.test(ch)) return `control character ${hex}`;
  if (/\p{Extended_Pictographic}/u.test(ch)) return `emoji '${ch}' (${hex})`;
  return `'${ch}' (${hex})`;
}

export function checkSlug(input: unknown, kind: SlugKind = 'slug'): SlugCheck {
  if (typeof input !== 'string') {
    return { ok: false, value: '', message: `${kind} must be a string` };
  }
  const value = input.normalize('NFC');
  if (value.length === 0) {
    return { ok: false, value, message: `${kind} must not be empty` };
  }
  const runes = [...value];
  if (runes.length > MAX_SLUG_RUNES) {
    return {
      ok: false,
      value,
      message: `${kind} is ${runes.length} characters long; at most ${MAX_SLUG_RUNES} are allowed`,
    };
  }
  const allowed = kind === 'version' ? "Unicode letters, digits, '-' and '.'" : "Unicode letters, digits and '-'";
  for (let i = 0; i < runes.length; i++) {
    const ch = runes[i]!;
    if (ch === '-' || LETTER_OR_DIGIT.test(ch)) continue;
    if (ch === '.' && kind === 'version') continue;
    if (COMBINING_MARK.test(ch) && !VARIATION_SELECTOR.test(ch) && i > 0 && LETTER_OR_DIGIT.test(runes[i - 1]!)) continue;
    if (COMBINING_MARK.test(ch) && !VARIATION_SELECTOR.test(ch) && i > 0 && COMBINING_MARK.test(runes[i - 1]!)) continue;
    return {
      ok: false,
      value,
      message: `${kind} '${value}' contains ${describeChar(ch)} at position ${i + 1}; only ${allowed} are allowed`,
    };
  }
  return { ok: true, value };
}

export function checkVersion(input: unknown): SlugCheck {
  return checkSlug(input, 'version');
}

/** The identity of a tool inside its bundle. NUL cannot occur in a valid slug or version. */
export function toolKey(slug: string, version: string): string {
  return `${slug}\u0000${version}`;
}

/**
 * The slug of an imported copy: `<slug>-copy`, then `-copy-2`, `-copy-3`… until it is free among
 * `taken`, cut so it stays within MAX_SLUG_RUNES (whole code points). The copy of a bundle thus
 * reads differently from its original everywhere slugs show (lists, agents' tool names).
 */
export function copySlug(slug: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    const base = [...slug].slice(0, MAX_SLUG_RUNES - suffix.length).join('');
    const candidate = `${base}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
