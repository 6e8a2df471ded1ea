/**
 * The `why` of a match: one short line naming, per field, the query words it matched, e.g.
 * "name: 'refund'; description: 'refund', 'charge'; argument: customer_id". A word matched
 * through a synonym shows what it matched as: "title: 'fetch' as get".
 */
import type { ToolSearchEntry } from './entry.js';
import type { Analyzer } from './analyze.js';
import { FIELDS } from './fields.js';

export interface MatchedWord {
  word: string;
  term: string;
  /** The tool's word when the match came through a synonym. */
  viaSynonym: string | undefined;
  /** Bit i: matched in FIELDS[i]. */
  fields: number;
}

const MAX_WHY = 200;
const ARGUMENT = FIELDS.findIndex((f) => f.label === 'argument');

export function explain(entry: ToolSearchEntry, matched: readonly MatchedWord[], analyzer: Analyzer): string {
  const parts: string[] = [];
  FIELDS.forEach((field, f) => {
    const here = matched.filter((m) => m.fields & (1 << f));
    if (!here.length) return;
    if (f === ARGUMENT) {
      const terms = new Set(here.map((m) => m.term));
      const names = entry.argNames.filter((arg) => analyzer.terms(arg).some((t) => terms.has(t)));
      parts.push(`${field.label}: ${names.join(', ')}`);
      return;
    }
    parts.push(`${field.label}: ${here.map((m) => `'${m.word}'${m.viaSynonym ? ` as ${m.viaSynonym}` : ''}`).join(', ')}`);
  });
  const learned = matched.filter((m) => m.fields & (1 << FIELDS.length));
  if (learned.length) parts.push(`found before by: ${learned.map((m) => `'${m.word}'`).join(', ')}`);
  const line = parts.join('; ');
  return line.length > MAX_WHY ? `${line.slice(0, MAX_WHY - 1)}…` : line;
}
