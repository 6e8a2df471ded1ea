/**
 * bundle.json and tool.json on disk, for writers: read fresh (another process may have written
 * since memory was filled) and written atomically in the stable key order.
 */
import { readJsonIn } from '../fs/json-text.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type BundleFile, type ToolFile } from '../../../shared/schemas.js';
import { canonicalJson } from '../../../shared/canonical.js';
import type { Problem } from '../../../shared/types.js';
import { CoreError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { etagOf } from '../fs/etag.js';
import type { DataPaths } from '../data-paths.js';
import { parseBundle, parseTool } from './loader.js';
import type { ChangeRecorder } from '../audit/changes.js';

/** A file as read from disk, with the tag of its bytes. */
export interface Tagged<T> {
  file: T;
  etag: string;
}

export class StoreFiles {
  constructor(
    private readonly paths: DataPaths,
    private readonly changes?: ChangeRecorder,
  ) {}

  /** Writes atomically and tells the audit log what changed (digests of before and after). */
  private async write(path: string, text: string, tempDir?: string): Promise<void> {
    const before = await this.changes?.before(path);
    await writeFileAtomic(path, text, tempDir ? { tempDir } : {});
    this.changes?.changed(path, before, text);
  }

  /**
   * Reads a file a write is about to change, fresh from disk. Missing → undefined; unreadable or
   * invalid → CONFLICT, because a write must never overwrite a file the person has to fix.
   */
  private async readForWrite<T>(path: string, what: string, parse: (value: unknown) => { file?: T; problem?: Problem }): Promise<Tagged<T> | undefined> {
    const read = await readJsonIn(this.paths.bundlesDir, path);
    if (read.kind === 'missing') return undefined;
    if (read.kind === 'bad') throw new CoreError('CONFLICT', `${path} ${read.reason}; fix or delete it before changing this ${what}`);
    const parsed = parse(read.value);
    if (parsed.problem) throw new CoreError('CONFLICT', `${parsed.problem.reason} (${path}); fix the file before changing this ${what}`);
    return { file: parsed.file!, etag: read.etag };
  }

  readBundle(bundleID: string): Promise<Tagged<BundleFile> | undefined> {
    const path = this.paths.bundleFile(bundleID);
    return this.readForWrite(path, 'bundle', (v) => parseBundle(v, path, bundleID));
  }

  readTool(bundleID: string, toolID: string): Promise<Tagged<ToolFile> | undefined> {
    const path = this.paths.toolFile(bundleID, toolID);
    return this.readForWrite(path, 'tool', (v) => parseTool(v, path, bundleID, toolID));
  }

  /**
   * Changes some top-level fields of a tool.json and nothing else: the fields its author left
   * out stay out, spellings stay as written (the original spec's `"type":"go"`). Returns the
   * file as the store reads it and the etag of what was written.
   */
  async patchTool(bundleID: string, toolID: string, fields: Partial<ToolFile>): Promise<{ file: ToolFile; etag: string }> {
    const path = this.paths.toolFile(bundleID, toolID);
    const read = await readJsonIn(this.paths.bundlesDir, path);
    if (read.kind !== 'ok') throw new CoreError('CONFLICT', `${path} ${read.kind === 'bad' ? read.reason : 'is missing'}; reload and try again`);
    const next = { ...(read.value as Record<string, unknown>), ...fields };
    const parsed = parseTool(next, path, bundleID, toolID);
    if (parsed.problem) throw new CoreError('CONFLICT', `${parsed.problem.reason} (${path}); fix the file before changing this tool`);
    const text = canonicalJson(next, TOOL_KEY_ORDER);
    await this.write(path, text, this.paths.toolsDir(bundleID));
    return { file: parsed.file!, etag: etagOf(text) };
  }

  /** Returns the etag of what was written. */
  async writeBundle(file: BundleFile): Promise<string> {
    const text = canonicalJson(file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER);
    await this.write(this.paths.bundleFile(file.bundleID), text);
    return etagOf(text);
  }

  /** Returns the etag of what was written. */
  async writeTool(file: ToolFile): Promise<string> {
    const text = canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER);
    await this.write(this.paths.toolFile(file.bundleID, file.toolID), text, this.paths.toolsDir(file.bundleID));
    return etagOf(text);
  }
}
