/**
 * Names a changed file for the people who read the audit log: which bundle or tool (display name,
 * slug, version, IDs, from the content itself, so a deleted one keeps its name), and for an update
 * the names of what changed inside it. Names only: a secrets.json change says which secrets, never
 * a value, and a config change which settings.
 */
import type { AuditChangeFields, AuditChangeSubject } from '../../../shared/audit.js';
import { isPlainObject } from '../../../shared/plain-object.js';

/** Fields that move with every write and say nothing about what the person changed. */
const BOOKKEEPING = new Set(['modifiedAt', 'etag']);
const MAX_CHANGED = 32;

type Json = Record<string, unknown>;

function parse(content: string | Uint8Array | undefined): Json | undefined {
  if (content === undefined) return undefined;
  try {
    const text = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, 200) : undefined);

/** The names of the entries of `a` and `b` whose values differ (either side may lack the entry). */
function differing(a: Json, b: Json, prefix = ''): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((k) => !BOOKKEEPING.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => prefix + k);
}

function entity(type: 'bundle' | 'tool', file: Json): AuditChangeSubject {
  const subject: AuditChangeSubject = { type };
  const set = <K extends keyof AuditChangeSubject>(k: K, v: AuditChangeSubject[K] | undefined) => {
    if (v !== undefined) subject[k] = v;
  };
  set('bundleID', text(file['bundleID']));
  if (type === 'tool') set('toolID', text(file['toolID']));
  set('slug', text(file['slug']));
  if (type === 'tool') set('version', text(file['version']));
  set('displayName', text(file['displayName']));
  if (typeof file['isEnabled'] === 'boolean') subject.isEnabled = file['isEnabled'];
  if (type === 'bundle') subject.inTrash = typeof file['softDeletedAt'] === 'string';
  return subject;
}

/** `path` relative to the data folder, with '/' separators. */
export function describeChange(
  path: string,
  before: string | Uint8Array | undefined,
  after: string | Uint8Array | undefined,
): Pick<AuditChangeFields, 'subject' | 'changed'> {
  const old = parse(before);
  const now = parse(after);
  const file = now ?? old;
  let subject: AuditChangeSubject;
  let changed: string[] | undefined;
  if (/^bundles\/[^/]+\/bundle\.json$/.test(path)) subject = file ? entity('bundle', file) : { type: 'bundle' };
  else if (/^bundles\/[^/]+\/tools\/[^/]+\/tool\.json$/.test(path)) subject = file ? entity('tool', file) : { type: 'tool' };
  else if (path === 'config.json') subject = { type: 'config' };
  else if (path === 'secrets.json') {
    subject = { type: 'secrets' };
    // The secrets' names: each entry's value is encrypted, so a changed entry is a set or replaced secret.
    changed = differing((old?.['secrets'] as Json | undefined) ?? {}, (now?.['secrets'] as Json | undefined) ?? {});
  } else if (path === 'builtin-state.json') {
    subject = { type: 'builtin-state' };
    changed = [
      ...differing((old?.['bundles'] as Json | undefined) ?? {}, (now?.['bundles'] as Json | undefined) ?? {}, 'bundle:'),
      ...differing((old?.['tools'] as Json | undefined) ?? {}, (now?.['tools'] as Json | undefined) ?? {}, 'tool:'),
    ];
  } else subject = { type: 'file' };
  if (changed === undefined && old && now && subject.type !== 'file') changed = differing(old, now);
  return { subject, ...(changed?.length ? { changed: changed.slice(0, MAX_CHANGED) } : {}) };
}
