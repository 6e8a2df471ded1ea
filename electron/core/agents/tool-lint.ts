/**
 * What about a set of tools an agent would misread or confuse (issue 21): the rules, over plain
 * facts about each tool, so any set can be checked against any other (the tools agents see, a
 * bundle's, later a profile's). Each finding says what is wrong and what to do.
 *
 * Thresholds (LINT_LIMITS, docs/contracts.md "Tool lint"):
 * - names: the same name, one edit apart (insert, delete, replace or swap two neighbours; names of
 *   4 characters or more), or the same words in another order or number (`get_user` /
 *   `users-get`);
 * - descriptions: word-set Jaccard similarity of 0.8 or more, when both have 4 or more words;
 * - vague: no description (an error: the agent sees only the title), one or two words, or just
 *   the tool's name or title again;
 * - too long: a description of more than 500 tokens (o200k_base).
 */
import type { ToolLintFinding, ToolLintRule } from '../../../shared/types.js';
import { isPlainObject } from '../../../shared/plain-object.js';

export const LINT_LIMITS = {
  /** Names at most this many edits apart (optimal string alignment) are near-duplicates. */
  nameEdits: 1,
  /** Shorter names than this are compared for equality only ("ls" and "cd" are one edit from many). */
  nameMinLength: 4,
  /** Descriptions whose word sets overlap this much (Jaccard) are near-duplicates. */
  descriptionJaccard: 0.8,
  /** Descriptions with fewer distinct words are left to the vague rule. */
  descriptionMinWords: 4,
  /** A description of fewer words is vague. */
  vagueBelowWords: 3,
  /** A description costing more tokens than this is too long. */
  descriptionMaxTokens: 500,
} as const;

/** The facts about one tool the rules look at. */
export interface LintSubject {
  toolID: string;
  bundleID: string;
  /** The name agents see (agent-tools.ts asciiName of the slug). */
  name: string;
  /** How a person finds it: `<bundle>/<slug>@<version>`. */
  ref: string;
  displayName: string;
  description: string;
  argSchema: unknown;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The words of a name: `getUserById`, `get-user_by_id` → get, user, by, id. */
function nameWords(name: string): string[] {
  return words(name.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/[_-]+/g, ' '));
}

/** A name's words without order or plural: `users_get` and `get_user` share it. */
function wordKey(name: string): string {
  return nameWords(name)
    .map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w))
    .sort()
    .join(' ');
}

/** Optimal string alignment distance, at most `max` (anything more answers max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** 'a' (x), 'b' (y) and 3 more: the others a pair rule matched, the first few named. */
function othersText(others: LintSubject[]): string {
  const named = others.slice(0, 3).map((o) => `'${o.name}' (${o.ref})`);
  const rest = others.length - named.length;
  if (rest > 0) return `${named.join(', ')} and ${rest} more`;
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0]!;
}

function finding(s: LintSubject, rule: ToolLintRule, severity: 'error' | 'warning', message: string, fix: string): ToolLintFinding {
  return { toolID: s.toolID, bundleID: s.bundleID, name: s.name, rule, severity, message, fix };
}

/** Keys two names within one edit share (the name and each one-character deletion), and the word key. */
function nameKeys(name: string): string[] {
  const n = name.toLowerCase();
  const keys = [`w:${wordKey(name)}`, `e:${n}`];
  if (n.length >= LINT_LIMITS.nameMinLength) for (let i = 0; i < n.length; i++) keys.push(`e:${n.slice(0, i)}${n.slice(i + 1)}`);
  return keys;
}

function nameDuplicates(checked: LintSubject[], pool: LintSubject[]): ToolLintFinding[] {
  const index = new Map<string, LintSubject[]>();
  for (const p of pool) for (const k of nameKeys(p.name)) (index.get(k) ?? index.set(k, []).get(k)!).push(p);
  const out: ToolLintFinding[] = [];
  for (const c of checked) {
    const seen = new Set<string>([c.toolID]);
    const close: LintSubject[] = [];
    const cName = c.name.toLowerCase();
    for (const k of nameKeys(c.name)) {
      for (const other of index.get(k) ?? []) {
        if (seen.has(other.toolID)) continue;
        seen.add(other.toolID);
        const oName = other.name.toLowerCase();
        const near =
          cName === oName ||
          (Math.min(cName.length, oName.length) >= LINT_LIMITS.nameMinLength && editDistance(cName, oName, LINT_LIMITS.nameEdits) <= LINT_LIMITS.nameEdits) ||
          (k.startsWith('w:') && wordKey(c.name).includes(' '));
        if (near) close.push(other);
      }
    }
    if (!close.length) continue;
    out.push(
      finding(
        c,
        'name-near-duplicate',
        'warning',
        `its name '${c.name}' is close to ${othersText(close)}, which agents see too; an agent may call one for another`,
        `rename so the name says what sets each apart (what it acts on, or how), or switch off the ones that do the same`,
      ),
    );
  }
  return out;
}

interface WordSet {
  subject: LintSubject;
  words: string[];
}

/** Near-duplicate descriptions by prefix filtering: sets that overlap by t share a token among their rarest few. */
function descriptionDuplicates(checked: LintSubject[], pool: LintSubject[]): ToolLintFinding[] {
  const t = LINT_LIMITS.descriptionJaccard;
  const setOf = (s: LintSubject): WordSet | undefined => {
    const ws = [...new Set(words(s.description))];
    return ws.length >= LINT_LIMITS.descriptionMinWords ? { subject: s, words: ws } : undefined;
  };
  const poolSets = pool.map(setOf).filter((w): w is WordSet => !!w);
  const checkedSets = checked.map(setOf).filter((w): w is WordSet => !!w);
  const df = new Map<string, number>();
  for (const s of [...poolSets, ...checkedSets]) for (const w of s.words) df.set(w, (df.get(w) ?? 0) + 1);
  const order = (a: string, b: string) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const prefix = (s: WordSet) => [...s.words].sort(order).slice(0, s.words.length - Math.ceil(t * s.words.length) + 1);
  const index = new Map<string, WordSet[]>();
  for (const s of poolSets) for (const w of prefix(s)) (index.get(w) ?? index.set(w, []).get(w)!).push(s);
  const out: ToolLintFinding[] = [];
  for (const c of checkedSets) {
    const seen = new Set<string>([c.subject.toolID]);
    const alike: LintSubject[] = [];
    const mine = new Set(c.words);
    for (const w of prefix(c)) {
      for (const other of index.get(w) ?? []) {
        if (seen.has(other.subject.toolID)) continue;
        seen.add(other.subject.toolID);
        const shared = other.words.filter((x) => mine.has(x)).length;
        const jaccard = shared / (mine.size + other.words.length - shared);
        if (jaccard >= t) alike.push(other.subject);
      }
    }
    if (!alike.length) continue;
    out.push(
      finding(
        c.subject,
        'description-near-duplicate',
        'warning',
        `its description says nearly the same (${Math.round(t * 100)}% or more of the words) as that of ${othersText(alike)}`,
        `say in its description when to use this tool rather than '${alike[0]!.name}'${alike.length > 1 ? ' and the others' : ''} (what it takes, what it returns, what it is for)`,
      ),
    );
  }
  return out;
}

function vague(s: LintSubject): ToolLintFinding | undefined {
  const text = s.description.trim();
  if (!text) {
    return finding(
      s,
      'description-vague',
      'error',
      `it has no description, so agents see only its title ('${s.displayName || s.name}')`,
      'write a description: what the tool does, when to use it, and what it returns',
    );
  }
  const ws = words(text);
  const sameAs = [nameWords(s.name).join(' '), words(s.displayName).join(' ')].includes(ws.join(' '));
  if (ws.length < LINT_LIMITS.vagueBelowWords || sameAs) {
    return finding(
      s,
      'description-vague',
      'warning',
      sameAs ? `its description only repeats its name ('${text}')` : `its description is ${ws.length === 1 ? 'one word' : 'two words'} ('${text}')`,
      'say what the tool does, when to use it, and what it returns, in a sentence or two',
    );
  }
  return undefined;
}

function tooLong(s: LintSubject, count: (text: string) => number): ToolLintFinding | undefined {
  const max = LINT_LIMITS.descriptionMaxTokens;
  // A token is at least one character: a description this short cannot be too long.
  if (s.description.length <= max) return undefined;
  const tokens = count(s.description);
  if (tokens <= max) return undefined;
  return finding(
    s,
    'description-too-long',
    'warning',
    `its description costs ${tokens.toLocaleString('en-US')} tokens in every request of every agent offered it (more than ${max})`,
    `shorten it to under ${max} tokens: keep what it does, when to use it and what it returns; move details into the argument descriptions`,
  );
}

const TYPED = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not'];

/** Each argument (nested objects and array items too) without a description or a type. */
function argumentFindings(s: LintSubject): ToolLintFinding[] {
  const out: ToolLintFinding[] = [];
  const walk = (schema: unknown, path: string): void => {
    if (!isPlainObject(schema)) return;
    if (isPlainObject(schema['properties'])) {
      for (const [key, prop] of Object.entries(schema['properties'])) {
        const at = path ? `${path}.${key}` : key;
        if (!isPlainObject(prop)) continue;
        if (!TYPED.some((k) => k in prop)) {
          out.push(
            finding(
              s,
              'schema-untyped',
              'error',
              `argument '${at}' has no type, so an agent has to guess what to send`,
              `give argument '${at}' a type ("string", "number", "boolean", "object", "array") or an enum of its values`,
            ),
          );
        }
        const described = typeof prop['description'] === 'string' && prop['description'].trim() !== '';
        if (!described && !('$ref' in prop)) {
          out.push(
            finding(
              s,
              'argument-undescribed',
              'warning',
              `argument '${at}' has no description`,
              `add a description to argument '${at}': what it is and its format`,
            ),
          );
        }
        walk(prop, at);
      }
    }
    if (isPlainObject(schema['items'])) walk(schema['items'], `${path}[]`);
  };
  walk(s.argSchema, '');
  return out;
}

/**
 * The findings of `checked`, comparing names and descriptions with `pool` (the tools an agent
 * sees beside them; `checked` may be part of it). Sorted by name, then rule.
 */
export function lintTools(checked: LintSubject[], pool: LintSubject[], count: (text: string) => number): ToolLintFinding[] {
  const byID = new Map(pool.map((p) => [p.toolID, p]));
  for (const c of checked) byID.set(c.toolID, c);
  const everyone = [...byID.values()];
  const out: ToolLintFinding[] = [...nameDuplicates(checked, everyone), ...descriptionDuplicates(checked, everyone)];
  for (const s of checked) {
    const v = vague(s);
    if (v) out.push(v);
    const long = tooLong(s, count);
    if (long) out.push(long);
    out.push(...argumentFindings(s));
  }
  return out.sort(
    (a, b) =>
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.toolID < b.toolID ? -1 : a.toolID > b.toolID ? 1 : 0) ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
}
