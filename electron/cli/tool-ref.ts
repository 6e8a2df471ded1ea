/**
 * How the CLI names a tool: `<bundleSlug>/<toolSlug>[@<version>]`, or a bare `<toolSlug>[@v]`
 * when only one bundle has it. Without a version: the most recently created enabled version,
 * else the most recently created. Version labels are opaque (the spec never orders them): only
 * createdAt does, and the toolID (UUIDv7, time-ordered) settles equal ones.
 */
import type { StoreReader, ToolRecord } from '../core/store/reader.js';
import { CoreError } from '../core/errors.js';

const byCreation = (a: ToolRecord, b: ToolRecord) =>
  Date.parse(a.file.createdAt) - Date.parse(b.file.createdAt) || (a.file.toolID < b.file.toolID ? -1 : a.file.toolID > b.file.toolID ? 1 : 0);

export function resolveToolRef(store: StoreReader, text: string): ToolRecord {
  const at = text.lastIndexOf('@');
  const name = at > 0 ? text.slice(0, at) : text;
  const version = at > 0 ? text.slice(at + 1) : undefined;
  const slash = name.indexOf('/');
  const bundleSlug = slash >= 0 ? name.slice(0, slash) : undefined;
  const toolSlug = (slash >= 0 ? name.slice(slash + 1) : name).normalize('NFC');
  const bundleIDs = new Set<string>();
  for (const b of store.bundles())
    if (!b.file.softDeletedAt && (bundleSlug === undefined || b.file.slug === bundleSlug.normalize('NFC'))) bundleIDs.add(b.file.bundleID);
  if (bundleSlug !== undefined && bundleIDs.size === 0) throw new CoreError('NOT_FOUND', `no bundle '${bundleSlug}'; list them with: toolwright ls --bundles`);
  const matches = [...store.tools()].filter(
    (r) => bundleIDs.has(r.file.bundleID) && r.file.slug === toolSlug && (version === undefined || r.file.version === version),
  );
  if (matches.length === 0) throw new CoreError('NOT_FOUND', `no tool '${text}'; list them with: toolwright ls`);
  const bundlesHit = new Set(matches.map((m) => m.file.bundleID));
  if (bundlesHit.size > 1) {
    const names = [...bundlesHit].map((id) => `${store.bundle(id)!.file.slug}/${toolSlug}`).sort();
    throw new CoreError('INVALID_INPUT', `'${text}' is in several bundles: write one of ${names.join(', ')}`);
  }
  const enabled = matches.filter((m) => m.file.isEnabled).sort(byCreation);
  return (enabled.length ? enabled : matches.sort(byCreation)).at(-1)!;
}

export function bundleByRef(store: StoreReader, slug: string) {
  const b = store.bundlesWithSlug(slug)[0];
  if (!b) throw new CoreError('NOT_FOUND', `no bundle '${slug}'; list them with: toolwright ls --bundles`);
  return b;
}
