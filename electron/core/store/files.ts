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
import type { DataPaths } from '../data-paths.js';
import { parseBundle, parseTool } from './loader.js';

export class StoreFiles {
  constructor(private readonly paths: DataPaths) {}

  /**
   * Reads a file a write is about to change, fresh from disk. Missing → undefined; unreadable or
   * invalid → CONFLICT, because a write must never overwrite a file the person has to fix.
   */
  private async readForWrite<T>(path: string, what: string, parse: (value: unknown) => { file?: T; problem?: Problem }): Promise<T | undefined> {
    const read = await readJsonIn(this.paths.bundlesDir, path);
    if (read.kind === 'missing') return undefined;
    if (read.kind === 'bad') throw new CoreError('CONFLICT', `${path} ${read.reason}; fix or delete it before changing this ${what}`);
    const value = read.value;
    const parsed = parse(value);
    if (parsed.problem) throw new CoreError('CONFLICT', `${parsed.problem.reason} (${path}); fix the file before changing this ${what}`);
    return parsed.file;
  }

  readBundle(bundleID: string): Promise<BundleFile | undefined> {
    const path = this.paths.bundleFile(bundleID);
    return this.readForWrite(path, 'bundle', (v) => parseBundle(v, path, bundleID));
  }

  readTool(bundleID: string, toolID: string): Promise<ToolFile | undefined> {
    const path = this.paths.toolFile(bundleID, toolID);
    return this.readForWrite(path, 'tool', (v) => parseTool(v, path, bundleID, toolID));
  }

  /**
   * Changes some top-level fields of a tool.json and nothing else: the fields its author left
   * out stay out, spellings stay as written (the original spec's `"type":"go"`). Returns the
   * file as the store reads it.
   */
  async patchTool(bundleID: string, toolID: string, fields: Partial<ToolFile>): Promise<ToolFile> {
    const path = this.paths.toolFile(bundleID, toolID);
    const read = await readJsonIn(this.paths.bundlesDir, path);
    if (read.kind !== 'ok') throw new CoreError('CONFLICT', `${path} ${read.kind === 'bad' ? read.reason : 'is missing'}; reload and try again`);
    const next = { ...(read.value as Record<string, unknown>), ...fields };
    const parsed = parseTool(next, path, bundleID, toolID);
    if (parsed.problem) throw new CoreError('CONFLICT', `${parsed.problem.reason} (${path}); fix the file before changing this tool`);
    await writeFileAtomic(path, canonicalJson(next, TOOL_KEY_ORDER), { tempDir: this.paths.toolsDir(bundleID) });
    return parsed.file!;
  }

  async writeBundle(file: BundleFile): Promise<void> {
    await writeFileAtomic(this.paths.bundleFile(file.bundleID), canonicalJson(file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER));
  }

  async writeTool(file: ToolFile): Promise<void> {
    await writeFileAtomic(this.paths.toolFile(file.bundleID, file.toolID), canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER), {
      tempDir: this.paths.toolsDir(file.bundleID),
    });
  }
}
