/**
 * How deep card html nests, measured by one linear scan of its tags before any parser or
 * sanitiser walks it: DOMPurify on jsdom recurses per level, and a card a few thousand levels
 * deep overflows the stack. Chromium's parser stops nesting at 512 levels anyway (deeper
 * elements become siblings), so no card that renders as written needs more.
 */

/** Deepest element nesting a card's html may have (docs/limits.md). */
export const MAX_CARD_HTML_DEPTH = 512;

/** Elements that never hold content, and those whose end tag may be left out (the parser closes them, so they do not nest by themselves). */
const NON_NESTING = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'li',
  'p',
  'dt',
  'dd',
  'option',
  'optgroup',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'rt',
  'rp',
  'colgroup',
  'caption',
]);

const TAG_SOURCE = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(\/?)>/;

/** True when the html opens more than `limit` elements inside one another (an upper bound of what a parser builds). */
export function cardHtmlTooDeep(html: string, limit = MAX_CARD_HTML_DEPTH): boolean {
  const tags = new RegExp(TAG_SOURCE.source, 'g');
  let depth = 0;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    const name = m[2]?.toLowerCase();
    if (!name || NON_NESTING.has(name) || m[3]) continue;
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (++depth > limit) return true;
  }
  return false;
}
