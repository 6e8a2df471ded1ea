/**
 * The poisoning development set (../shared/testdata/poisoning/dev.json, kept outside the repository:
 * other people's texts, some without a licence, so test data only) and its fixed split into a
 * tuning part and a held-out part that the guard's rules are never tuned on.
 *
 * The split: items are grouped into strata by (source, kind, label, attack), where source is the
 * collection an item comes from (a GitHub repository, or a web page's host); strata are taken in
 * name order, items inside a stratum in the order of the SHA-256 of their id, and a counter that
 * runs across all strata sends every third item (counter % 3 === 1) to the held-out part. So each
 * stratum gives about a third, singletons are spread over both parts, and the split changes only
 * if the data does. Items sharing a `same_description_group` go where the group's first goes, so
 * one text is never in both parts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DevItem {
  id: string;
  source: string;
  kind: 'definition' | 'output';
  label: 'poisoned' | 'benign';
  attack: string | null;
  tool?: { name: string; description?: string; inputSchema?: unknown };
  text?: unknown;
  same_description_group?: number;
}

export type Part = 'tuning' | 'held-out';

/** Where the set is: GUARD_DEV_SET, else ../shared/testdata/poisoning/dev.json beside the checkout. */
export function devSetPath(): string {
  return process.env['GUARD_DEV_SET'] ?? fileURLToPath(new URL('../../../../shared/testdata/poisoning/dev.json', import.meta.url));
}

export function loadDevSet(path = devSetPath()): DevItem[] {
  if (!existsSync(path)) throw new Error(`the development set is not at ${path} (set GUARD_DEV_SET)`);
  return JSON.parse(readFileSync(path, 'utf8')) as DevItem[];
}

/** The collection an item comes from: `github.com/owner/repo`, or a page's host. */
export function collectionOf(source: string): string {
  const gh = /^(github\.com\/[^/@\s]+\/[^/@\s]+)/.exec(source);
  if (gh) return gh[1]!;
  try {
    return new URL(source.split(' ')[0]!).host;
  } catch {
    return source.split(' ')[0]!;
  }
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** Every item's part, by id (see the header for the rule). */
export function splitDevSet(items: readonly DevItem[]): Map<string, Part> {
  const strata = new Map<string, DevItem[]>();
  for (const it of items) {
    const key = [collectionOf(it.source), it.kind, it.label, it.attack ?? 'benign'].join('\u0000');
    (strata.get(key) ?? strata.set(key, []).get(key)!).push(it);
  }
  const parts = new Map<string, Part>();
  const groups = new Map<number, Part>();
  let counter = 0;
  for (const key of [...strata.keys()].sort()) {
    const members = strata.get(key)!.sort((a, b) => (hash(a.id) < hash(b.id) ? -1 : 1));
    for (const it of members) {
      let part: Part = counter++ % 3 === 1 ? 'held-out' : 'tuning';
      const group = it.same_description_group;
      if (group !== undefined) part = groups.get(group) ?? (groups.set(group, part), part);
      parts.set(it.id, part);
    }
  }
  return parts;
}
