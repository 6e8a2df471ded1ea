/**
 * Sentences of a text, as offsets: a sentence ends at `.`, `!` or `?` followed by space, at a
 * blank line, or before a bullet. A single line break inside a paragraph does not end one
 * (docstrings wrap their lines), so an order split over two lines stays one sentence.
 */
const BOUNDARY = /(?<=[.!?])["')\]]?\s+(?=\S)|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*•]|\d+[.)])\s)|\n(?=[ \t]*[A-Z][A-Z ]{3,}:)/g;

export function sentenceRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const end = m.index + (m[0].match(/^["')\]]/) ? 1 : 0);
    if (end > start) out.push([start, end]);
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push([start, text.length]);
  // Trim each range of the spaces around it.
  return out
    .map(([s, e]): [number, number] => {
      while (s < e && /\s/.test(text[s]!)) s++;
      while (e > s && /\s/.test(text[e - 1]!)) e--;
      return [s, e];
    })
    .filter(([s, e]) => e > s);
}
