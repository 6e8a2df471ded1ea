/**
 * Decides what happens to each validated bundle (create, replace, skip, copy), writes the ones
 * that land into a stage and commits them all at once (stage.ts), then brings memory along.
 */
import { promises as fsp } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import type { ImportReport } from '../../../shared/types.js';
import { CoreError } from '../errors.js';
import type { Store } from '../store/store.js';
import { ImportStage, type PlanEntry } from './stage.js';
import type { BundleDraft, Validated } from './validate.js';
import { relinkImport } from './pipeline-links.js';
import { catalogOf } from '../store/tool-catalog.js';
import { copySlug } from '../../../shared/slug.js';

export type OnConflict = 'skip' | 'replace' | 'copy';

export interface ApplyOptions {
  onConflict: OnConflict;
  dryRun?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Notes gathered before this step (ignored entries, tools left out of a foreign document). */
  warnings?: string[];
}

async function exists(path: string): Promise<boolean> {
  return fsp.lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The same bundle under new IDs: what "import as a copy" writes. Its slug becomes `<slug>-copy`
 * (free among `takenSlugs`) and its display name says "(copy)", so the two can be told apart in
 * lists and in agents' tool names; tools keep their slugs. It is a new insertion, so timestamps
 * are now; its schedules get new IDs.
 */
export function copyOf(draft: BundleDraft, now: string, takenSlugs: ReadonlySet<string>): BundleDraft {
  const bundleID = uuidv7();
  const displayName = `${draft.file.displayName} (copy)`.slice(0, 200);
  const slug = copySlug(draft.file.slug, takenSlugs);
  return {
    origin: draft.origin,
    file: { ...draft.file, bundleID, slug, displayName, createdAt: now, modifiedAt: now },
    tools: draft.tools.map((t) => {
      const file = { ...t.file, bundleID, toolID: uuidv7(), createdAt: now, modifiedAt: now };
      // A copy's schedules are its own: new IDs, so the two never share a fire or an output.
      if (file.schedules) file.schedules = file.schedules.map((s) => ({ ...s, scheduleID: uuidv7() }));
      return { ...t, file };
    }),
  };
}

export async function applyImport(store: Store, validated: Validated, opts: ApplyOptions): Promise<ImportReport> {
  const report: ImportReport = { created: [], replaced: [], skipped: [], toolCount: 0 };
  const plan: PlanEntry[] = [];
  let writes: BundleDraft[] = [];
  const now = store.now();
  /** Each archive bundle ID → the ID it has here after the import, for re-linking pipelines. */
  const finalIDs = new Map<string, string>();
  // Slugs of the bundles here and of the ones this import brings, so a copy's slug is free of both.
  const takenSlugs = new Set<string>([...store.reader.bundles()].map((b) => b.file.slug));
  for (const d of validated.bundles) takenSlugs.add(d.file.slug);

  for (const draft of validated.bundles) {
    const id = draft.file.bundleID;
    const slug = draft.file.slug;
    const builtin = store.isBuiltinBundle(id);
    const folder = await exists(store.paths.bundleDir(id));
    const present = builtin || !!store.reader.bundle(id) || (folder && (await exists(store.paths.bundleFile(id))));
    const clash = draft.tools.map((t) => store.reader.tool(t.file.toolID)).find((r) => r && r.file.bundleID !== id);
    if (!present && !clash) {
      // A folder without bundle.json (left empty by someone) is filled in place rather than replaced.
      plan.push({ bundleID: id, mode: folder ? 'swap' : 'create' });
      writes.push(draft);
      finalIDs.set(id, id);
      report.created.push({ bundleID: id, slug });
      continue;
    }
    const why = present
      ? builtin
        ? `bundle ${id} is a built-in bundle here`
        : `bundle ${id} already exists here`
      : `tool ${clash!.file.slug} ${clash!.file.version} of bundle ${clash!.file.bundleID} already has one of its tool IDs`;
    if (opts.onConflict === 'skip') {
      finalIDs.set(id, id);
      report.skipped.push({ bundleID: id, slug, reason: why });
    } else if (opts.onConflict === 'replace') {
      if (builtin)
        throw new CoreError('BUILTIN_READONLY', `cannot replace bundle '${slug}': ${why}, and built-ins are read-only; import it as a copy instead`, {
          bundleID: id,
        });
      if (clash) throw new CoreError('CONFLICT', `cannot import bundle '${slug}': ${why}; import it as a copy instead`, { bundleID: id });
      plan.push({ bundleID: id, mode: 'swap' });
      writes.push(draft);
      finalIDs.set(id, id);
      report.replaced.push({ bundleID: id, slug });
    } else {
      const copy = copyOf(draft, now, takenSlugs);
      takenSlugs.add(copy.file.slug);
      plan.push({ bundleID: copy.file.bundleID, mode: 'create' });
      writes.push(copy);
      finalIDs.set(id, copy.file.bundleID);
      report.created.push({ bundleID: copy.file.bundleID, slug: copy.file.slug, fromBundleID: id });
    }
  }
  const linked = relinkImport(writes, finalIDs, catalogOf(store.reader));
  writes = linked.drafts;
  Object.assign(report, linked.report);
  report.toolCount = writes.reduce((n, b) => n + b.tools.length, 0);
  if (validated.hostsToAllow.length) report.hostsToAllow = validated.hostsToAllow;
  const warnings = [...(opts.warnings ?? []), ...validated.warnings, ...linked.warnings];
  if (warnings.length) report.warnings = warnings;
  if (opts.dryRun) return { ...report, dryRun: true };
  if (!writes.length) return report;

  const total = report.toolCount;
  let done = 0;
  opts.onProgress?.(0, total);
  const stage = await ImportStage.begin(store.paths);
  try {
    for (const draft of writes) {
      await stage.writeBundle(draft, () => opts.onProgress?.(++done, total));
    }
    await stage.commit(plan);
  } catch (e) {
    await stage.dispose().catch(() => undefined);
    throw e;
  }
  await stage.dispose().catch(() => undefined); // committed: a leftover stage is only litter, removed at the next start
  for (const p of plan) await store.syncBundle(p.bundleID);
  return report;
}
