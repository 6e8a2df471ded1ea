/**
 * Reads a bundles tree (the user's data or the shipped built-ins) into records. Bad files never
 * stop the load: each is reported with its path and reason and left untouched on disk.
 * Start-up recovery rides on the same directory reads: stray temp files of dead writers are
 * removed and tool creations interrupted after their claim was published are completed.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import { BundleFile as BundleSchema, ToolFile as ToolSchema } from '../../../shared/schemas.js';
import { isUuid } from '../../../shared/ids.js';
import { checkSlug, checkVersion } from '../../../shared/slug.js';
import type { Problem } from '../../../shared/types.js';
import { problem } from '../problems.js';
import { validatorFor } from '../validation.js';
import { apiIssues } from '../../../shared/json-schema/issues.js';
import { isTempName, tempOwnerPid, pidAlive } from '../fs/atomic.js';
import { leavesRoot, readJsonIn } from '../fs/json-text.js';
import { toolFromSpec } from '../../../shared/tool-types/spec-tool.js';

/** What memory knows of a file's bytes, for ETag and If-Match (store/preconditions.ts). */
export interface FileTags {
  /** Hash of the file's bytes on disk (fs/etag.ts); absent for built-ins, whose switch lives elsewhere. */
  etag?: string;
  /** The etag the file had when the store first saw its current `modifiedAt`. */
  baselineEtag?: string;
}

export interface BundleRecord extends FileTags {
  file: BundleFile;
  builtin: boolean;
  dir: string;
}

export interface ToolRecord extends FileTags {
  file: ToolFile;
  builtin: boolean;
  dir: string;
}

export interface LoadResult {
  bundles: BundleRecord[];
  tools: ToolRecord[];
  problems: Problem[];
}

const STALE_TEMP_MS = 60_000;

/** Runs fn over items with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

async function readJson(root: string, path: string): Promise<{ value?: unknown; etag?: string; error?: string; missing?: boolean }> {
  const r = await readJsonIn(root, path);
  if (r.kind === 'missing') return { missing: true, error: 'file is missing' };
  if (r.kind === 'bad') return { error: `${r.reason}; fix it in an editor or delete it` };
  return { value: r.value, etag: r.etag };
}

function firstIssues(issues: { field: string; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.field ? `${i.field} ${i.message}` : i.message))
    .join('; ');
}

export function parseBundle(value: unknown, path: string, expectedID: string): { file?: BundleFile; problem?: Problem } {
  const v = validatorFor(BundleSchema);
  if (!v(value)) return { problem: problem(path, 'bundle', `does not match the bundle.json schema: ${firstIssues(apiIssues(v.errors))}`) };
  const file = value as BundleFile;
  if (file.bundleID !== expectedID) return { problem: problem(path, 'bundle', `bundleID ${file.bundleID} does not match its folder name ${expectedID}`) };
  const s = checkSlug(file.slug);
  if (!s.ok || s.value !== file.slug) return { problem: problem(path, 'bundle', s.message ?? 'slug is not in NFC form') };
  return { file };
}

export function parseTool(value: unknown, path: string, bundleID: string, toolID: string): { file?: ToolFile; problem?: Problem } {
  // The original spec's spellings and missing fields, read as Toolwright's; the file is untouched.
  value = toolFromSpec(value);
  const v = validatorFor(ToolSchema);
  if (!v(value)) return { problem: problem(path, 'tool', `does not match the tool.json schema: ${firstIssues(apiIssues(v.errors))}`) };
  const file = value as ToolFile;
  if (file.toolID !== toolID) return { problem: problem(path, 'tool', `toolID ${file.toolID} does not match its folder name ${toolID}`) };
  if (file.bundleID !== bundleID) return { problem: problem(path, 'tool', `bundleID ${file.bundleID} does not match the bundle folder ${bundleID}`) };
  const s = checkSlug(file.slug);
  const ver = checkVersion(file.version);
  if (!s.ok || s.value !== file.slug) return { problem: problem(path, 'tool', s.message ?? `slug '${file.slug}' is not in NFC form`) };
  if (!ver.ok || ver.value !== file.version) return { problem: problem(path, 'tool', ver.message ?? `version '${file.version}' is not in NFC form`) };
  return { file };
}

async function removeIfAbandoned(path: string, name: string, removeDirs: boolean): Promise<void> {
  const pid = tempOwnerPid(name);
  let stale = pid === undefined || !pidAlive(pid);
  if (!stale) {
    const st = await fsp.stat(path).catch(() => undefined);
    stale = !!st && Date.now() - st.mtimeMs > STALE_TEMP_MS;
  }
  if (stale) await fsp.rm(path, { force: true, recursive: removeDirs }).catch(() => undefined);
}

export interface LoadOptions {
  builtin: boolean;
  /** Remove abandoned temp files and complete interrupted creations (never on the read-only built-ins). */
  recover: boolean;
  /** Called for a staging folder whose claim is published: returns true when it was completed. */
  completeStaged?: (bundleID: string, stagingName: string) => Promise<boolean>;
}

async function loadTools(root: string, dir: string, bundleID: string, opts: LoadOptions, out: LoadResult): Promise<void> {
  const toolsDir = join(dir, 'tools');
  let names: string[];
  try {
    names = await fsp.readdir(toolsDir);
  } catch {
    return;
  }
  const ids: string[] = [];
  for (const name of names) {
    if (isUuid(name)) ids.push(name);
    else if (opts.recover && name.startsWith('.staging-')) {
      const done = await opts.completeStaged?.(bundleID, name);
      if (done) ids.push(name.slice('.staging-'.length, '.staging-'.length + 36));
      else await removeIfAbandoned(join(toolsDir, name), name, true);
    } else if (opts.recover && isTempName(name)) await removeIfAbandoned(join(toolsDir, name), name, true);
    else if (!name.startsWith('.'))
      out.problems.push(problem(join(toolsDir, name), 'tool', 'folder name is not a UUID tool ID; tools live in tools/<toolID>/tool.json'));
  }
  // Bounded, so a huge bundle cannot run the process out of file descriptors (EMFILE).
  await pool(ids, 128, async (toolID) => {
    const path = join(toolsDir, toolID, 'tool.json');
    const r = await readJson(root, path);
    if (r.error) {
      out.problems.push(problem(path, 'tool', `tool.json ${r.error}`));
      return;
    }
    const parsed = parseTool(r.value, path, bundleID, toolID);
    if (parsed.problem) out.problems.push(parsed.problem);
    else out.tools.push({ file: parsed.file!, builtin: opts.builtin, dir: join(toolsDir, toolID), etag: r.etag, baselineEtag: r.etag });
  });
}

export async function loadBundle(bundlesDir: string, bundleID: string, opts: LoadOptions, out: LoadResult): Promise<void> {
  const dir = join(bundlesDir, bundleID);
  if (await leavesRoot(bundlesDir, dir)) {
    out.problems.push(
      problem(dir, 'bundle', 'the bundle folder is a symbolic link to outside the data folder; it is not read. Move the bundle into the data folder'),
    );
    return;
  }
  if (opts.recover) {
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (isTempName(name)) await removeIfAbandoned(join(dir, name), name, false);
    }
    // Claims are published from temp files too (publishExclusive); a writer killed meanwhile leaves one.
    const claimsDir = join(dir, '.claims');
    for (const name of await fsp.readdir(claimsDir).catch(() => [] as string[])) {
      if (isTempName(name)) await removeIfAbandoned(join(claimsDir, name), name, false);
    }
  }
  const path = join(dir, 'bundle.json');
  const r = await readJson(bundlesDir, path);
  if (r.missing) {
    // A folder being created by another process, or one a reaper is removing: not a problem
    // unless it holds tools that would become invisible.
    const tools = await fsp.readdir(join(dir, 'tools')).catch(() => [] as string[]);
    if (tools.some(isUuid)) out.problems.push(problem(path, 'bundle', 'bundle.json is missing but the folder holds tools; restore bundle.json'));
    return;
  }
  if (r.error) {
    out.problems.push(problem(path, 'bundle', `bundle.json ${r.error}`));
    return;
  }
  const parsed = parseBundle(r.value, path, bundleID);
  if (parsed.problem) {
    out.problems.push(parsed.problem);
    return;
  }
  out.bundles.push({ file: parsed.file!, builtin: opts.builtin, dir, etag: r.etag, baselineEtag: r.etag });
  await loadTools(bundlesDir, dir, bundleID, opts, out);
}

export async function loadTree(bundlesDir: string, opts: LoadOptions): Promise<LoadResult> {
  const out: LoadResult = { bundles: [], tools: [], problems: [] };
  let names: string[];
  try {
    names = await fsp.readdir(bundlesDir);
  } catch {
    return out;
  }
  const ids: string[] = [];
  for (const name of names) {
    if (isUuid(name)) ids.push(name);
    else if (opts.recover && isTempName(name)) await removeIfAbandoned(join(bundlesDir, name), name, true);
    else if (!name.startsWith('.')) out.problems.push(problem(join(bundlesDir, name), 'bundle', 'folder name is not a UUID bundle ID; it is ignored'));
  }
  await pool(ids, 16, (id) => loadBundle(bundlesDir, id, opts, out));
  return out;
}
