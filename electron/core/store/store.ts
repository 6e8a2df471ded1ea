/**
 * The flat-file store of bundles and tools (docs/contracts.md, "Data on disk"). Reads are served from
 * memory (StoreState); every write takes the bundle's cross-process lock, re-reads what it
 * changes from disk (StoreFiles), writes atomically and only then updates memory. Changes made
 * by other processes or by hand arrive through sync*() (called by the watcher). What changed
 * leaves through one StoreNotifier; unreadable files are kept in a ProblemRegistry.
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { Problem } from '../../../shared/types.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { CoreError, notFound } from '../errors.js';
import { withLock } from '../fs/lock.js';
import { readJsonIn } from '../fs/json-text.js';
import type { ConfigStore } from '../config.js';
import { problem, ProblemRegistry, sortProblems } from '../problems.js';
import type { Logger } from '../log.js';
import type { DataPaths } from '../data-paths.js';
import { Claims } from './claims.js';
import { StoreState } from './state.js';
import { readerOf, type StoreReader } from './reader.js';
import { BuiltinState } from './builtin-state.js';
import { BuiltinSwitches } from './builtin-switches.js';
import { StoreFiles } from './files.js';
import type { ChangeRecorder } from '../audit/changes.js';
import { StoreNotifier, type StoreObserver } from './notifier.js';
import { checkPair } from './pair.js';
import { canonicalBundleEtag, canonicalToolEtag, nextTags } from './preconditions.js';
import { reapDeletedBundles } from './reaper.js';
import { loadBundle, loadTree, parseTool, type BundleRecord, type LoadResult, type ToolRecord } from './loader.js';

export type { StoreObserver };

export interface StoreOptions {
  paths: DataPaths;
  /** Read-only built-in bundles (data/builtin in the repo, extra resources when packaged). */
  builtinDir?: string;
  config: ConfigStore;
  clock?: () => Date;
  log?: Logger;
  /** Where writes of bundle.json, tool.json and builtin-state.json are reported (the audit log). */
  changes?: ChangeRecorder;
}

export class Store extends EventEmitter<{ event: [StoreEvent] }> {
  readonly paths: DataPaths;
  /** The memory itself: for store/ only (and tests); everything else asks `reader`. */
  readonly state = new StoreState();
  /** The read-only queries code outside store/ asks (reader.ts). */
  readonly reader: StoreReader = readerOf(this.state);
  readonly claims: Claims;
  readonly config: ConfigStore;
  readonly files: StoreFiles;
  private readonly builtinState: BuiltinState;
  private readonly builtins: BuiltinSwitches;
  private readonly notifier: StoreNotifier;
  private readonly problemRegistry: ProblemRegistry;
  private readonly builtinDir: string | undefined;
  private readonly clock: () => Date;
  readonly log: Logger | undefined;
  /** Writers outside files.ts (a create's rename, a delete) report here. */
  readonly changes: ChangeRecorder | undefined;

  private constructor(opts: StoreOptions) {
    super();
    this.paths = opts.paths;
    this.claims = new Claims(this.paths);
    this.files = new StoreFiles(this.paths, opts.changes);
    this.builtinState = new BuiltinState(this.paths, opts.changes);
    this.changes = opts.changes;
    this.notifier = new StoreNotifier(this.reader, (e) => this.emit('event', e));
    this.builtins = new BuiltinSwitches(this.state, this.builtinState, this.notifier);
    this.problemRegistry = new ProblemRegistry(() => this.notifier.problemsChanged());
    this.config = opts.config;
    this.builtinDir = opts.builtinDir;
    this.clock = opts.clock ?? (() => new Date());
    this.log = opts.log;
  }

  static async open(opts: StoreOptions): Promise<Store> {
    const store = new Store(opts);
    await fsp.mkdir(store.paths.bundlesDir, { recursive: true });
    await store.builtinState.reload();
    const [builtin, user] = await Promise.all([
      store.builtinDir ? loadTree(store.builtinDir, { builtin: true, recover: false }) : Promise.resolve<LoadResult>({ bundles: [], tools: [], problems: [] }),
      loadTree(store.paths.bundlesDir, {
        builtin: false,
        recover: true,
        completeStaged: (bundleID, name) => store.claims.recoverStaged(bundleID, name),
      }),
    ]);
    store.absorb(builtin);
    store.absorb(user);
    store.notifier.loaded();
    return store;
  }

  now(): string {
    return this.clock().toISOString();
  }

  /** Observes every change; the observer first gets what is loaded. Returns the undo. */
  observe(o: StoreObserver): () => void {
    return this.notifier.observe(o);
  }

  problems(): Problem[] {
    const extra = [this.config.problem(), this.builtinState.problem()].filter((p): p is Problem => !!p);
    return sortProblems([...this.problemRegistry.list(), ...extra]);
  }

  // ---- in-memory bookkeeping -------------------------------------------------------------

  private absorb(r: LoadResult): void {
    this.problemRegistry.absorb(r.problems);
    for (const b of r.bundles) {
      if (this.state.bundles.get(b.file.bundleID)?.builtin && !b.builtin) {
        this.problemRegistry.add(
          problem(join(b.dir, 'bundle.json'), 'bundle', `bundle ID ${b.file.bundleID} is taken by a built-in bundle; this copy is ignored`),
        );
        continue;
      }
      this.state.setBundle(this.builtins.effectiveBundle(b));
    }
    // Oldest first, so that of two files claiming one <slug,version> the first created keeps it.
    const tools = [...r.tools].sort((a, b) => a.file.createdAt.localeCompare(b.file.createdAt) || a.file.toolID.localeCompare(b.file.toolID));
    for (const t of tools) this.placeTool(this.builtins.effectiveTool(t));
  }

  /** Puts a tool into memory, or reports it as a duplicate of the pair's current holder. */
  private placeTool(t: ToolRecord): boolean {
    if (!this.state.bundles.has(t.file.bundleID)) return false;
    const path = join(t.dir, 'tool.json');
    if (!this.state.setTool(t)) {
      const owner = this.state.pairOwner(t.file.bundleID, t.file.slug, t.file.version);
      // The file now says another pair: what memory held for this tool is no longer on disk.
      if (this.state.tools.has(t.file.toolID)) this.forgetTool(t.file.toolID);
      this.problemRegistry.add(
        problem(
          path,
          'tool',
          `duplicate <slug,version> <${t.file.slug},${t.file.version}>: tool ${owner} already has it in this bundle; rename or delete one of them`,
        ),
      );
      return false;
    }
    this.problemRegistry.clear(path);
    return true;
  }

  // ---- reads ------------------------------------------------------------------------------

  bundle(bundleID: string): BundleRecord {
    const b = this.state.bundles.get(bundleID);
    if (!b) throw notFound(`bundle ${bundleID}`);
    return b;
  }

  /** Like bundle(), but first looks on disk for a bundle another process created moments ago. */
  async freshBundle(bundleID: string): Promise<BundleRecord> {
    if (!this.state.bundles.has(bundleID)) await this.syncBundle(bundleID);
    return this.bundle(bundleID);
  }

  isBuiltinBundle(bundleID: string): boolean {
    return this.state.bundles.get(bundleID)?.builtin === true;
  }

  /** Finds a tool by pair: memory first, then the claim on disk (a create by another process the watcher has not brought yet). */
  async findTool(bundleID: string, slug: string, version: string): Promise<ToolRecord | undefined> {
    const id = this.state.pairOwner(bundleID, slug, version);
    if (id) return this.state.tools.get(id);
    if (!this.state.bundles.has(bundleID) || this.isBuiltinBundle(bundleID)) return undefined;
    const claimed = await this.claims.owner(bundleID, slug, version);
    if (!claimed) return undefined;
    await this.syncTool(bundleID, claimed);
    const rec = this.state.tools.get(claimed);
    return rec && rec.file.slug === slug && rec.file.version === version ? rec : undefined;
  }

  async tool(bundleID: string, slug: string, version: string): Promise<ToolRecord> {
    await this.freshBundle(bundleID);
    const { slug: s, version: v } = checkPair(slug, version); // a slug that can never exist is a 400, not a 404
    const rec = await this.findTool(bundleID, s, v);
    if (!rec) throw notFound(`tool <${s},${v}> in bundle ${bundleID}`);
    return rec;
  }

  // ---- writes -------------------------------------------------------------------------------

  async readBundleFile(bundleID: string): Promise<BundleFile | undefined> {
    return (await this.files.readBundle(bundleID))?.file;
  }

  async readToolFile(bundleID: string, toolID: string): Promise<ToolFile | undefined> {
    return (await this.files.readTool(bundleID, toolID))?.file;
  }

  patchToolFile(bundleID: string, toolID: string, fields: Partial<ToolFile>): Promise<{ file: ToolFile; etag: string }> {
    return this.files.patchTool(bundleID, toolID, fields);
  }

  /** Writes bundle.json; returns the etag of what was written. */
  writeBundleFile(file: BundleFile): Promise<string> {
    return this.files.writeBundle(file);
  }

  /** Writes tool.json; returns the etag of what was written. */
  writeToolFile(file: ToolFile): Promise<string> {
    return this.files.writeTool(file);
  }

  async withBundleLock<T>(bundleID: string, fn: () => Promise<T>): Promise<T> {
    const lockPath = this.paths.bundleLock(bundleID);
    try {
      return await withLock(lockPath, fn);
    } catch (e) {
      // The lock lives in the bundle's folder: it is gone when another process (or a person)
      // removed the bundle after memory last saw it.
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'ENOENT' || err.path !== lockPath) throw e;
      await this.syncBundle(bundleID);
      throw notFound(`bundle ${bundleID}`);
    }
  }

  /** Reads the bundle under its lock and checks tools may be written in it. */
  async writableBundle(bundleID: string, action: string): Promise<BundleFile> {
    const b = await this.readBundleFile(bundleID);
    if (!b) throw notFound(`bundle ${bundleID}`);
    if (b.softDeletedAt) throw new CoreError('BUNDLE_DELETED', `bundle '${b.slug}' is in the Trash; restore it before you ${action}`);
    if (!b.isEnabled) throw new CoreError('BUNDLE_DISABLED', `bundle '${b.slug}' is switched off; switch it on before you ${action}`);
    return b;
  }

  refuseBuiltin(bundleID: string, what: string): void {
    if (this.isBuiltinBundle(bundleID)) {
      throw new CoreError('BUILTIN_READONLY', `${what}: built-in bundles and tools are read-only; only switching them on or off is allowed`);
    }
  }

  // ---- applying changes to memory ----------------------------------------------------------

  // A change is told when the content or the bytes moved (a reformatting changes the ETag
  // clients hold), whatever modifiedAt says. `etag`: of the bytes on disk; what the store writes by default.

  applyBundle(file: BundleFile, etag = canonicalBundleEtag(file)): BundleRecord {
    const prev = this.state.bundles.get(file.bundleID);
    const rec: BundleRecord = { file, builtin: false, dir: this.paths.bundleDir(file.bundleID), ...nextTags(prev, file.modifiedAt, etag) };
    this.state.setBundle(rec);
    this.problemRegistry.clear(this.paths.bundleFile(file.bundleID));
    if (prev?.etag !== etag || JSON.stringify(prev.file) !== JSON.stringify(file)) this.notifier.bundleChanged(rec);
    return rec;
  }

  applyTool(file: ToolFile, etag = canonicalToolEtag(file)): ToolRecord {
    const prev = this.state.tools.get(file.toolID);
    const rec: ToolRecord = { file, builtin: false, dir: this.paths.toolDir(file.bundleID, file.toolID), ...nextTags(prev, file.modifiedAt, etag) };
    if (this.placeTool(rec) && (prev?.etag !== etag || JSON.stringify(prev.file) !== JSON.stringify(file))) this.notifier.toolChanged(rec);
    return this.state.tools.get(file.toolID) ?? rec;
  }

  forgetTool(toolID: string): void {
    const rec = this.state.removeTool(toolID);
    if (rec) this.notifier.toolRemoved(rec.file.bundleID, toolID);
  }

  /** Drops a bundle whose folder is gone from memory and tells listeners. */
  forgetBundle(bundleID: string): void {
    const had = this.state.bundles.get(bundleID);
    for (const id of this.state.toolIDsOf(bundleID)) this.forgetTool(id);
    this.state.removeBundle(bundleID);
    this.notifier.bundleRemoved(bundleID, had?.file);
  }

  // ---- built-in switches -------------------------------------------------------------------

  setBuiltinBundleEnabled(bundleID: string, enabled: boolean): Promise<BundleRecord> {
    return this.builtins.setBundleEnabled(this.bundle(bundleID), enabled);
  }

  setBuiltinToolEnabled(rec: ToolRecord, enabled: boolean): Promise<ToolRecord> {
    return this.builtins.setToolEnabled(rec, enabled);
  }

  syncBuiltinState(): Promise<void> {
    return this.builtins.sync();
  }

  // ---- sync from disk (watcher) ------------------------------------------------------------

  /** Re-reads one tool.json after a change on disk. */
  async syncTool(bundleID: string, toolID: string): Promise<void> {
    if (this.isBuiltinBundle(bundleID)) return;
    const path = this.paths.toolFile(bundleID, toolID);
    // A tool folder moved to another bundle leaves this path empty: forget the tool only if
    // memory still places it in this bundle.
    const forgetHere = () => {
      if (this.state.tools.get(toolID)?.file.bundleID === bundleID) this.forgetTool(toolID);
    };
    const read = await readJsonIn(this.paths.bundlesDir, path);
    if (read.kind !== 'ok') {
      forgetHere();
      if (read.kind === 'missing') this.problemRegistry.clear(path);
      else this.problemRegistry.add(problem(path, 'tool', `tool.json ${read.reason}; fix it in an editor or delete it`));
      return;
    }
    const parsed = parseTool(read.value, path, bundleID, toolID);
    if (parsed.problem) {
      forgetHere();
      this.problemRegistry.add(parsed.problem);
      return;
    }
    this.applyTool(parsed.file!, read.etag);
  }

  /** Re-reads a whole bundle folder (bundle.json and its tools) after a change on disk. */
  async syncBundle(bundleID: string): Promise<void> {
    if (this.isBuiltinBundle(bundleID)) return;
    const out: LoadResult = { bundles: [], tools: [], problems: [] };
    await loadBundle(this.paths.bundlesDir, bundleID, { builtin: false, recover: false }, out);
    this.problemRegistry.forgetUnder(this.paths.bundleDir(bundleID));
    for (const p of out.problems) this.problemRegistry.add(p);
    const b = out.bundles[0];
    if (!b) {
      if (this.state.bundles.has(bundleID)) this.forgetBundle(bundleID);
      return;
    }
    this.applyBundle(b.file, b.etag);
    const seen = new Set<string>();
    const tools = [...out.tools].sort((x, y) => x.file.createdAt.localeCompare(y.file.createdAt));
    for (const t of tools) {
      seen.add(t.file.toolID);
      this.applyTool(t.file, t.etag);
    }
    for (const id of this.state.toolIDsOf(bundleID)) if (!seen.has(id)) this.forgetTool(id);
  }

  // ---- reaper ------------------------------------------------------------------------------

  /** Removes soft-deleted bundles older than 2 days that hold no tools. Returns their IDs. */
  reap(now: Date = this.clock()): Promise<string[]> {
    return reapDeletedBundles(this, now);
  }
}
