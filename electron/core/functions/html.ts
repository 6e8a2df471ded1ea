/**
 * Tiny builders for the cards of the core functions. Every piece of data goes through
 * escapeHtml (shared/html.ts); the markup itself is fixed, so a card never carries script, style or URLs.
 */
import { escapeHtml } from '../../../shared/html.js';

// The functions' cards import it from here with the builders below; it is shared/html.ts's.
export { escapeHtml };

/** A two-column table of label → value. */
export function keyValueTable(rows: [string, string | number][]): string {
  const body = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(String(v))}</td></tr>`).join('');
  return `<table>${body}</table>`;
}

export function preBlock(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** Shortens text for a card (by code points, so no surrogate is split). */
export function clip(text: string, maxRunes: number): string {
  const runes = [...text.slice(0, maxRunes * 2)];
  return runes.length > maxRunes ? runes.slice(0, maxRunes).join('') + '…' : runes.join('');
}
