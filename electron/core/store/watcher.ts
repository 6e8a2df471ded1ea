/**
 * Brings changes made outside this process (another Toolwright, git pull, an editor) into the
 * running store, debounced per file, through chokidar (inotify/FSEvents/ReadDirectoryChangesW
 * under one API; the same choice Bruno makes for its flat-file collections). Our own writes
 * come back here too; syncing them is a no-op because the content already matches memory.
 */
import { watch, type FSWatcher } from 'chokidar';
import { basename, join, relative, sep } from 'node:path';
import type { Store } from './store.js';

export interface WatchHooks {
  config?: () => Promise<void>;
  secrets?: () => Promise<void>;
  metrics?: (toolID: string) => Promise<void>;
  /** A request file under approvals/ appeared, was answered or went away (another process asked). */
  approvals?: () => Promise<void>;
  /** A connection file under agents/ appeared or went away (an agent connected elsewhere). */
  agents?: () => Promise<void>;
  /** A schedule's last run or latest output changed (scheduler/runs/, scheduler/outputs/): its ID. */
  schedules?: { dirs: string[]; changed: (scheduleID: string) => Promise<void> };
  /** A build file beside a tool.json changed (an editor, git): the app's file tree and availability follow. */
  toolFiles?: (bundleID: string, toolID: string) => Promise<void>;
  /**
   * Files a tool type keeps in a bundle's folder beside bundle.json, by name (the upstream type's
   * snapshot of what its server last said): written or removed, by any process.
   */
  bundleFiles?: ReadonlyMap<string, (bundleID: string) => Promise<void>>;
  /** A profile's folder or profile.json changed (profiles/<profileID>/): its ID. */
  profiles?: { dir: string; changed: (profileID: string) => Promise<void> };
}

export interface StoreWatcher {
  ready: Promise<void>;
  /** The folders being watched now (what chokidar holds an inotify watch on, or polls). */
  watchedFolders(): string[];
  close(): Promise<void>;
}

export interface WatchOptions {
  debounceMs?: number;
  /** Failures of a sync or of the file watcher itself (ELOOP, EACCES, the inotify limit): logged, never thrown. */
  onError?: (what: string, e: unknown) => void;
}

export function watchStore(store: Store, hooks: WatchHooks = {}, options: WatchOptions = {}): StoreWatcher {
  const debounceMs = options.debounceMs ?? 60;
  const onError = options.onError ?? (() => undefined);
  const { paths } = store;
  const timers = new Map<string, NodeJS.Timeout>();
  const schedule = (key: string, fn: () => Promise<void>) => {
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        fn().catch((e: unknown) => onError(`syncing ${key} from disk`, e));
      }, debounceMs),
    );
  };

  const onPath = (path: string) => {
    if (path === paths.configFile) return hooks.config && schedule('config', hooks.config);
    if (path === paths.secretsFile) return hooks.secrets && schedule('secrets', hooks.secrets);
    if (path === paths.builtinStateFile) return schedule('builtin', () => store.syncBuiltinState());
    const inAgents = relative(paths.agentsDir, path);
    if (!inAgents.startsWith('..') && !inAgents.includes(sep)) return hooks.agents && schedule('agents', hooks.agents);
    const inApprovals = relative(paths.approvalsDir, path);
    if (!inApprovals.startsWith('..') && !inApprovals.includes(sep)) return hooks.approvals && schedule('approvals', hooks.approvals);
    const inMetrics = relative(paths.metricsDir, path);
    if (!inMetrics.startsWith('..') && !inMetrics.includes(sep) && inMetrics.endsWith('.json')) {
      const id = inMetrics.slice(0, -5);
      return hooks.metrics && schedule(`m:${id}`, () => hooks.metrics!(id));
    }
    const rel = relative(paths.bundlesDir, path);
    if (rel.startsWith('..') || rel === '') return undefined;
    const parts = rel.split(sep);
    const bundleID = parts[0]!;
    const typeFile = parts.length === 2 ? hooks.bundleFiles?.get(parts[1]!) : undefined;
    if (typeFile) return schedule(`bf:${bundleID}/${parts[1]}`, () => typeFile(bundleID));
    if (parts.length === 1 || parts[1] === 'bundle.json' || (parts[1] === 'tools' && parts.length === 2)) {
      return schedule(`b:${bundleID}`, () => store.syncBundle(bundleID));
    }
    if (parts[1] === 'tools' && parts.length >= 3) {
      const toolID = parts[2]!;
      // Keyed by bundle too: a tool folder moved between bundles must sync both places.
      if (parts.length === 3 || parts[3] === 'tool.json') return schedule(`t:${bundleID}/${toolID}`, () => store.syncTool(bundleID, toolID));
      return hooks.toolFiles && schedule(`f:${bundleID}/${toolID}`, () => hooks.toolFiles!(bundleID, toolID));
    }
    return undefined;
  };

  // Two watchers: the bundles tree (always there, depth 3), and the data folder itself one level
  // deep for config, secrets, built-in state and metrics. Files that do not exist yet (a fresh
  // data folder has no config.json) are seen as they appear in their folder, which watching
  // their own paths does not do reliably under load.
  const skipHidden = (p: string) => basename(p).startsWith('.');
  const bundles: FSWatcher = watch(paths.bundlesDir, { ignoreInitial: true, ignored: skipHidden, depth: 3 });
  // Only what onPath reads, by name: the three files and the three folders below. The other
  // entries change on every call (audit/, history/, invocations/, rate-limits/, search/'s learned
  // words), and each change of a watched folder costs chokidar a stat and a re-read of it
  // (readdirp): some 28 % of a serving host's main thread per gateway call before they were left
  // out. bundles/, scheduler/ and profiles/ have watchers of their own.
  const readSubdirs = new Set([paths.metricsDir, paths.agentsDir, paths.approvalsDir]);
  const readFiles = new Set([paths.configFile, paths.secretsFile, paths.builtinStateFile]);
  const top: FSWatcher = watch(paths.dataDir, {
    ignoreInitial: true,
    ignored: (p: string) => {
      // A lock (proper-lockfile's folder, e.g. metrics/<toolID>.lock around each counters' flush) is no change to read.
      if (skipHidden(p) || p.endsWith('.lock')) return true;
      const rel = relative(paths.dataDir, p);
      if (rel === '' || rel.startsWith('..')) return false;
      const slash = rel.indexOf(sep);
      if (slash >= 0) return !readSubdirs.has(join(paths.dataDir, rel.slice(0, slash)));
      return !readSubdirs.has(p) && !readFiles.has(p);
    },
    depth: 1,
  });
  // The scheduler's records, written by whichever process runs a schedule (the folders exist: the core makes them).
  const scheduleHook = hooks.schedules;
  const schedules: FSWatcher | undefined = scheduleHook && watch(scheduleHook.dirs, { ignoreInitial: true, ignored: skipHidden, depth: 0 });
  schedules?.on('all', (_event, path) => {
    const name = basename(path);
    if (name.endsWith('.json')) schedule(`s:${name}`, () => scheduleHook!.changed(name.slice(0, -5)));
  });
  const profileHook = hooks.profiles;
  const profiles: FSWatcher | undefined = profileHook && watch(profileHook.dir, { ignoreInitial: true, ignored: skipHidden, depth: 1 });
  profiles?.on('all', (_event, path) => {
    const parts = relative(profileHook!.dir, path).split(sep);
    // tokens.json is re-read by every check (profile-tokens.ts): only the folder and profile.json matter here.
    if (parts[0] && (parts.length === 1 || parts[1] === 'profile.json')) schedule(`p:${parts[0]}`, () => profileHook!.changed(parts[0]!));
  });
  const watchers = [bundles, top, ...(schedules ? [schedules] : []), ...(profiles ? [profiles] : [])];
  for (const w of watchers) {
    w.on('all', (_event, path) => onPath(path));
    // chokidar emits 'error' for ELOOP (a symlink loop), EACCES, ENOSPC (inotify limit) and the
    // like; with no listener that would be thrown and take the whole process down.
    w.on('error', (e: unknown) => onError('watching the data folder', e));
  }
  const ready = Promise.all(watchers.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve())))).then(() => undefined);
  return {
    ready,
    watchedFolders: () => [...new Set(watchers.flatMap((w) => Object.keys(w.getWatched())))],
    async close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
