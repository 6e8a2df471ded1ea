/**
 * ETag and If-Match for bundle.json and tool.json (docs/contracts.md, "tool.json": nothing a person
 * wrote is lost behind their back). A file's tag hashes its bytes on disk, so a hand edit or a
 * `git pull` that leaves `modifiedAt` alone still changes it. If-Match takes that tag, `*`, or the
 * older form, the file's `modifiedAt`; the latter cannot see such an edit by itself, so each
 * record keeps the tag the file had when the store first saw its current `modifiedAt` (its own
 * writes, the watcher's reads): content that moved away from it makes the modifiedAt form stale.
 */
import { canonicalJson } from '../../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type BundleFile, type ToolFile } from '../../../shared/schemas.js';
import { CoreError } from '../errors.js';
import { etagOf } from '../fs/etag.js';
import type { BundleRecord, FileTags, ToolRecord } from './loader.js';

/** The tag of what the store writes for a tool (canonical JSON), also what a built-in is served as. */
export function canonicalToolEtag(file: ToolFile): string {
  return etagOf(canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER));
}

export function canonicalBundleEtag(file: BundleFile): string {
  return etagOf(canonicalJson(file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER));
}

export function toolEtag(rec: ToolRecord): string {
  return rec.etag ?? canonicalToolEtag(rec.file);
}

export function bundleEtag(rec: BundleRecord): string {
  return rec.etag ?? canonicalBundleEtag(rec.file);
}

/** The tags of a file seen again: the baseline carries over while `modifiedAt` stays. */
export function nextTags(prev: (FileTags & { file: { modifiedAt: string } }) | undefined, modifiedAt: string, etag: string): Required<FileTags> {
  const keep = prev && prev.file.modifiedAt === modifiedAt && prev.baselineEtag !== undefined;
  return { etag, baselineEtag: keep ? prev.baselineEtag! : etag };
}

export interface DiskState {
  modifiedAt: string;
  /** Tag of the bytes on disk now, read under the bundle lock. */
  etag: string;
  /** What memory holds for the file (it may trail the disk). */
  memory: (FileTags & { file: { modifiedAt: string } }) | undefined;
}

/**
 * Throws MODIFIED_ELSEWHERE (412) unless `ifMatch` names the file as it is on disk: its tag, `*`,
 * or its `modifiedAt` while its content is still what was first seen with that `modifiedAt`.
 */
export function checkIfMatch(ifMatch: string | undefined, what: string, disk: DiskState): void {
  if (ifMatch === undefined || ifMatch === '*' || ifMatch === disk.etag) return;
  const advice = `GET it again (its ETag is "${disk.etag}"), apply your change to what it holds now, and send that ETag in If-Match`;
  if (ifMatch === disk.modifiedAt) {
    const baseline = nextTags(disk.memory, disk.modifiedAt, disk.etag).baselineEtag;
    if (baseline === disk.etag) return;
    throw new CoreError(
      'MODIFIED_ELSEWHERE',
      `this ${what} was changed on disk since it was read (by hand or by git: its content moved while modifiedAt ${disk.modifiedAt} stayed); ${advice}`,
      { modifiedAt: disk.modifiedAt, etag: disk.etag },
    );
  }
  throw new CoreError('MODIFIED_ELSEWHERE', `this ${what} was changed since it was read (now modified at ${disk.modifiedAt}); ${advice}`, {
    modifiedAt: disk.modifiedAt,
    etag: disk.etag,
  });
}
