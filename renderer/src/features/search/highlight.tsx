/** Matched words marked in a search result's text, and the window of a description that shows them. */
import { Fragment, type ReactNode } from 'react';

/** Lower-case without accents, per code point, with where each folded char came from. */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let i = 0;
  for (const ch of text) {
    // ASCII needs no decomposition: most text of most tools, on every keystroke's 20 results.
    const code = ch.charCodeAt(0);
    const f = code < 0x80 ? (code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch) : ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < f.length; k++) origin.push(i);
    folded += f;
    i += ch.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

/**
 * Splits `text` into plain and <mark>ed parts for each matched word. The search answers its
 * query words folded (lower-case, accents removed), so matching is done on the folded text and
 * mapped back: "meteo" marks "Météo".
 */
export function highlight(text: string, words: readonly string[] | undefined): ReactNode {
  const ws = (words ?? []).map((w) => fold(w.trim()).folded).filter((w) => w.length > 0);
  if (!ws.length || !text) return text;
  const { folded, origin } = fold(text);
  const ranges: [number, number][] = [];
  for (const w of ws) {
    for (let at = folded.indexOf(w); at >= 0; at = folded.indexOf(w, at + w.length)) ranges.push([origin[at]!, origin[at + w.length]!]);
  }
  if (!ranges.length) return text;
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const parts: ReactNode[] = [];
  let pos = 0;
  for (const [from, to] of ranges) {
    if (to <= pos) continue;
    const start = Math.max(from, pos);
    if (start > pos) parts.push(<Fragment key={`t${pos}`}>{text.slice(pos, start)}</Fragment>);
    parts.push(<mark key={`m${start}`}>{text.slice(start, to)}</mark>);
    pos = to;
  }
  if (pos < text.length) parts.push(<Fragment key={`t${pos}`}>{text.slice(pos)}</Fragment>);
  return parts;
}

/** A window of the description around its first match, so the match is visible. */
export function snippet(text: string, words: readonly string[] | undefined, max = 140): string {
  if (text.length <= max) return text;
  const lower = text.toLowerCase();
  const at = Math.min(...(words ?? []).map((w) => lower.indexOf(w.toLowerCase())).filter((i) => i >= 0), Infinity);
  if (!Number.isFinite(at) || at < max - 30) return text.slice(0, max) + '…';
  const start = Math.max(0, at - 40);
  return '…' + text.slice(start, start + max) + '…';
}
