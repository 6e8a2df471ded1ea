/**
 * The fields of a tool the ranker reads, with how much a match in each counts (BM25F weights)
 * and how much a long field is discounted (b). A word in the tool's name says more than one
 * in an argument's description; a bundle's words are shared by all its tools, and its length
 * says nothing, so it is barely normalised. Two fields are made from the others through the
 * written lexicon (lexicon.ts): what the tool does in other words (from its name, title and
 * tags) and what its parameters' names say.
 */
import type { ToolSearchEntry } from './entry.js';

export type FieldSource = { text(entry: ToolSearchEntry): string } | { expands: 'doing' | 'parameters' };

export type Field = FieldSource & { label: string; weight: number; b: number };

export const FIELDS: readonly Field[] = [
  { label: 'name', weight: 3, b: 0.5, text: (e) => e.name },
  { label: 'title', weight: 2.5, b: 0.5, text: (e) => e.title },
  { label: 'description', weight: 1, b: 0.75, text: (e) => e.description },
  { label: 'argument', weight: 1.2, b: 0.5, text: (e) => e.argNames.join(' ') },
  { label: 'argument description', weight: 0.5, b: 0.75, text: (e) => e.argDescriptions.join(' ') },
  { label: 'tag', weight: 1.5, b: 0.3, text: (e) => e.tags.join(' ') },
  // "WorkMail" is also the word "workmail", as people write a product's name.
  { label: 'bundle', weight: 2, b: 0.2, text: (e) => `${e.bundle} ${e.bundle.toLowerCase()}` },
  { label: 'in other words', weight: 1, b: 0.5, expands: 'doing' },
  { label: 'parameters mean', weight: 0.5, b: 0.5, expands: 'parameters' },
];

export const fieldIndex = (label: string): number => FIELDS.findIndex((f) => f.label === label);

/** BM25's saturation: the tenth mention of a word adds little. */
export const K1 = 1.2;
