/**
 * The flat-file store of bundles and tools (DESIGN.md, "Data on disk"). Reads are served from
 * memory; every write takes the bundle's cross-process lock, re-reads what it changes from
 * disk, writes atomically and only then updates memory. Changes made by other processes or by
 * hand arrive through sync*() (called by the watcher).
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type BundleFile, type ToolFile } from '../../../shared/schemas.js';
import { canonicalJson } from '../../../shared/canonical.js';
import type { Problem } from '../../../shared/types.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { CoreError, notFound } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import type { ConfigStore } from '../config.js';
import { DataPaths } from './paths.js';
import { Claims } from './claims.js';
import { StoreState } from './state.js';
import { BuiltinState } from './builtin-state.js';
import { checkPair } from './tool-rules.js';
import { reapDeletedBundles } from './reaper.js';
import { loadBundle, loadTree, parseBundle, parseTool, problem, type BundleRecord, type LoadResult, type ToolRecord } from './loader.js';

export interface StoreObserver {
  loaded?(state: StoreState): void;
  toolChanged?(tool: ToolFile, bundle: BundleFile): void;
  toolRemoved?(toolID: string): void;
  bundleChanged?(bundle: BundleFile): void;
}

export interface StoreOptions {
  dataDir: string;
  /** Read-only built-in bundles (data/builtin in the repo, extra resources when packaged). */
  builtinDir?: string;
  config: ConfigStore;
  clock?: () => Date;
}

export class Store extends EventEmitter<{ event: [StoreEvent] }> {
  readonly paths: DataPaths;
  readonly state = new StoreState();
  readonly claims: Claims;
  readonly builtinState: BuiltinState;
  readonly config: ConfigStore;
  private readonly builtinDir: string | undefined;
  private readonly clock: () => Date;
  private readonly problemsByPath = new Map<string, Problem>();
  private readonly observers: StoreObserver[] = [];

  private constructor(opts: StoreOptions) {
    super();
    this.paths = new DataPaths(opts.dataDir);
    this.claims = new Claims(this.paths);
    this.builtinState = new BuiltinState(this.paths);
    this.config = opts.config;
    this.builtinDir = opts.builtinDir;
    this.clock = opts.clock ?? (() => new Date());
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
    for (const o of store.observers) o.loaded?.(store.state);
    return store;
  }

  now(): string {
    return this.clock().toISOString();
  }

  observe(o: StoreObserver): void {
    this.observers.push(o);
    o.loaded?.(this.state);
  }

  // ---- in-memory bookkeeping -------------------------------------------------------------

  private absorb(r: LoadResult): void {
    for (const p of r.problems) this.problemsByPath.set(p.path, p);
    for (const b of r.bundles) {
      if (this.state.bundles.get(b.file.bundleID)?.builtin && !b.builtin) {
        this.addProblem(problem(join(b.dir, 'bundle.json'), 'bundle', `bundle ID ${b.file.bundleID} is taken by a built-in bundle; this copy is ignored`));
        continue;
      }
      this.state.setBundle(this.effectiveBundle(b));
    }
    // Oldest first, so that of two files claiming one <slug,version> the first created keeps it.
    const tools = [...r.tools].sort((a, b) => a.file.createdAt.localeCompare(b.file.createdAt) || a.file.toolID.localeCompare(b.file.toolID));
    for (const t of tools) this.placeTool(this.effectiveTool(t));
  }

  private effectiveBundle(b: BundleRecord): BundleRecord {
    if (!b.builtin) return b.file.isBuiltIn ? { ...b, file: { ...b.file, isBuiltIn: false } } : b;
    return { ...b, file: { ...b.file, isBuiltIn: true, isEnabled: this.builtinState.bundleEnabled(b.file.bundleID, b.file.isEnabled) } };
  }

  private effectiveTool(t: ToolRecord): ToolRecord {
    if (!t.builtin) return t.file.isBuiltIn ? { ...t, file: { ...t.file, isBuiltIn: false } } : t;
    return { ...t, file: { ...t.file, isBuiltIn: true, isEnabled: this.builtinState.toolEnabled(t.file.toolID, t.file.isEnabled) } };
  }

  /** Puts a tool into memory, or reports it as a duplicate of the pair's current holder. */
  private placeTool(t: ToolRecord): boolean {
    if (!this.state.bundles.has(t.file.bundleID)) return false;
    const path = join(t.dir, 'tool.json');
    if (!this.state.setTool(t)) {
      const owner = this.state.pairOwner(t.file.bundleID, t.file.slug, t.file.version);
      // The file now says another pair: what memory held for this tool is no longer on disk.
      if (this.state.tools.has(t.file.toolID)) this.forgetTool(t.file.toolID);
      this.addProblem(problem(path, 'tool', `duplicate <slug,version> <${t.file.slug},${t.file.version}>: tool ${owner} already has it in this bundle; rename or delete one of them`));
      return false;
    }
    this.problemsByPath.delete(path);
    return true;
  }

  private addProblem(p: Problem): void {
    const had = this.problemsByPath.get(p.path)?.reason === p.reason;
    this.problemsByPath.set(p.path, p);
    if (!had) this.emit('event', { type: 'problems.changed' });
  }

  private clearProblem(path: string): void {
    if (this.problemsByPath.delete(path)) this.emit('event', { type: 'problems.changed' });
  }

  problems(): Problem[] {
    const extra = [this.config.problem(), this.builtinState.problem()].filter((p): p is Problem => !!p);
    return [...this.problemsByPath.values(), ...extra].sort((a, b) => a.path.localeCompare(b.path));
  }

  private notifyTool(rec: ToolRecord): void {
    const bundle = this.state.bundles.get(rec.file.bundleID);
    if (bundle) for (const o of this.observers) o.toolChanged?.(rec.file, bundle.file);
    this.emit('event', { type: 'tool.changed', bundleID: rec.file.bundleID, toolID: rec.file.toolID });
  }

  private notifyToolRemoved(bundleID: string, toolID: string): void {
    for (const o of this.observers) o.toolRemoved?.(toolID);
    this.emit('event', { type: 'tool.removed', bundleID, toolID });
  }

  private notifyBundle(rec: BundleRecord): void {
    for (const o of this.observers) o.bundleChanged?.(rec.file);
    this.emit('event', { type: 'bundle.changed', bundleID: rec.file.bundleID });
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

  // ---- disk helpers -----------------------------------------------------------------------

  /**
   * Reads a file a write is about to change, fresh from disk. Missing → undefined; unreadable or
   * invalid → CONFLICT, because a write must never overwrite a file the person has to fix.
   */
  private async readForWrite<T>(path: string, what: string, parse: (value: unknown) => { file?: T; problem?: Problem }): Promise<T | undefined> {
    let text: string;
    try {
      text = await fsp.readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CoreError('CONFLICT', `${path} is not valid JSON; fix or delete it before changing this ${what}`);
    }
    const parsed = parse(value);
    if (parsed.problem) throw new CoreError('CONFLICT', `${parsed.problem.reason} (${path}); fix the file before changing this ${what}`);
    return parsed.file;
  }

  readBundleFile(bundleID: string): Promise<BundleFile | undefined> {
    const path = this.paths.bundleFile(bundleID);
    return this.readForWrite(path, 'bundle', (v) => parseBundle(v, path, bundleID));
  }

  readToolFile(bundleID: string, toolID: string): Promise<ToolFile | undefined> {
    const path = this.paths.toolFile(bundleID, toolID);
    return this.readForWrite(path, 'tool', (v) => parseTool(v, path, bundleID, toolID));
  }

  async writeBundleFile(file: BundleFile): Promise<void> {
    await writeFileAtomic(this.paths.bundleFile(file.bundleID), canonicalJson(file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER));
  }

  async writeToolFile(file: ToolFile): Promise<void> {
    await writeFileAtomic(this.paths.toolFile(file.bundleID, file.toolID), canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER), {
      tempDir: this.paths.toolsDir(file.bundleID),
    });
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

  applyBundle(file: BundleFile): BundleRecord {
    const rec: BundleRecord = { file, builtin: false, dir: this.paths.bundleDir(file.bundleID) };
    const prev = this.state.bundles.get(file.bundleID);
    this.state.setBundle(rec);
    this.clearProblem(this.paths.bundleFile(file.bundleID));
    if (JSON.stringify(prev?.file) !== JSON.stringify(file)) this.notifyBundle(rec);
    return rec;
  }

  applyTool(file: ToolFile): ToolRecord {
    const rec: ToolRecord = { file, builtin: false, dir: this.paths.toolDir(file.bundleID, file.toolID) };
    const prev = this.state.tools.get(file.toolID);
    if (this.placeTool(rec) && JSON.stringify(prev?.file) !== JSON.stringify(file)) this.notifyTool(rec);
    return this.state.tools.get(file.toolID) ?? rec;
  }

  forgetTool(toolID: string): void {
    const rec = this.state.removeTool(toolID);
    if (rec) this.notifyToolRemoved(rec.file.bundleID, toolID);
  }

  // ---- built-in switches -------------------------------------------------------------------

  async setBuiltinBundleEnabled(bundleID: string, enabled: boolean): Promise<BundleRecord> {
    await this.builtinState.set('bundles', bundleID, enabled);
    const rec = this.bundle(bundleID);
    const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
    this.state.setBundle(next);
    this.notifyBundle(next);
    return next;
  }

  async setBuiltinToolEnabled(rec: ToolRecord, enabled: boolean): Promise<ToolRecord> {
    await this.builtinState.set('tools', rec.file.toolID, enabled);
    const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
    this.state.setTool(next);
    this.notifyTool(next);
    return next;
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
    let value: unknown;
    try {
      value = JSON.parse(await fsp.readFile(path, 'utf8'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        this.clearProblem(path);
        forgetHere();
      } else {
        forgetHere();
        this.addProblem(problem(path, 'tool', `tool.json is not valid JSON (${(e as Error).message}); fix it in an editor or delete it`));
      }
      return;
    }
    const parsed = parseTool(value, path, bundleID, toolID);
    if (parsed.problem) {
      forgetHere();
      this.addProblem(parsed.problem);
      return;
    }
    this.applyTool(parsed.file!);
  }

  /** Re-reads a whole bundle folder (bundle.json and its tools) after a change on disk. */
  async syncBundle(bundleID: string): Promise<void> {
    if (this.isBuiltinBundle(bundleID)) return;
    const out: LoadResult = { bundles: [], tools: [], problems: [] };
    await loadBundle(this.paths.bundlesDir, bundleID, { builtin: false, recover: false }, out);
    const bundlePath = this.paths.bundleFile(bundleID);
    const had = this.state.bundles.get(bundleID);
    for (const p of [...this.problemsByPath.keys()]) if (p.startsWith(this.paths.bundleDir(bundleID))) this.problemsByPath.delete(p);
    for (const p of out.problems) this.addProblem(p);
    const b = out.bundles[0];
    if (!b) {
      if (had) {
        for (const id of this.state.toolIDsOf(bundleID)) this.forgetTool(id);
        this.state.removeBundle(bundleID);
        for (const o of this.observers) o.bundleChanged?.({ ...had.file, softDeletedAt: had.file.softDeletedAt ?? this.now(), isEnabled: false });
        this.emit('event', { type: 'bundle.removed', bundleID });
      }
      return;
    }
    this.clearProblem(bundlePath);
    this.applyBundle(b.file);
    const seen = new Set<string>();
    const tools = [...out.tools].sort((x, y) => x.file.createdAt.localeCompare(y.file.createdAt));
    for (const t of tools) {
      seen.add(t.file.toolID);
      this.applyTool(t.file);
    }
    for (const id of this.state.toolIDsOf(bundleID)) if (!seen.has(id)) this.forgetTool(id);
  }

  async syncBuiltinState(): Promise<void> {
    await this.builtinState.reload();
    for (const rec of [...this.state.bundles.values()]) {
      if (!rec.builtin) continue;
      const enabled = this.builtinState.bundleEnabled(rec.file.bundleID, true);
      if (enabled !== rec.file.isEnabled) {
        const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
        this.state.setBundle(next);
        this.notifyBundle(next);
      }
    }
    for (const rec of [...this.state.tools.values()]) {
      if (!rec.builtin) continue;
      const enabled = this.builtinState.toolEnabled(rec.file.toolID, true);
      if (enabled !== rec.file.isEnabled) {
        const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
        this.state.setTool(next);
        this.notifyTool(next);
      }
    }
  }

  // ---- reaper ------------------------------------------------------------------------------

  /** Removes soft-deleted bundles older than 2 days that hold no tools. Returns their IDs. */
  reap(now: Date = this.clock()): Promise<string[]> {
    return reapDeletedBundles(this, now);
  }

  /** Drops a bundle whose folder is gone from memory and tells listeners. */
  forgetBundle(bundleID: string): void {
    this.state.removeBundle(bundleID);
    this.emit('event', { type: 'bundle.removed', bundleID });
  }
}

