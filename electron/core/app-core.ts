/**
 * The composition root: builds every core service once and hands the result to a transport
 * (Electron IPC, the REST host, tests). Nothing else constructs services.
 */
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import type { OpInput, StoreEvent } from '../../shared/operations.js';
import type { Page, SearchHit, SystemInfo } from '../../shared/types.js';
import { ConfigStore } from './config.js';
import { MetricsStore } from './metrics.js';
import { DataPaths } from './store/paths.js';
import { Store } from './store/store.js';
import { BundleService } from './store/bundles.js';
import { ToolService } from './store/tools.js';
import { watchStore, type StoreWatcher } from './store/watcher.js';
import { ToolSearchIndex } from './search/index.js';
import { SecretsStore, type SecretCipher } from './secrets.js';
import { createFunctionRegistry, createFunctionRunner, type FunctionRegistry } from './functions/index.js';
import { createHttpRunner } from './invoke/http/index.js';
import { createContainerRunner, type ContainerRunner } from './invoke/container/index.js';
import { InvocationEngine } from './invoke/engine.js';
import type { Runner, SecretsReader } from './invoke/types.js';
import type { ToolFile } from '../../shared/schemas.js';
import { HistoryStore } from './invoke/history.js';
import { TransferService } from './transfer/index.js';
import { createDispatcher, type Dispatch } from './operations/dispatch.js';
import { createHandlers } from './operations/handlers.js';

export interface CoreOptions {
  dataDir: string;
  /** Built-in bundles; defaults to data/builtin of this checkout. */
  builtinDir?: string;
  clock?: () => Date;
  /** Watch the data folder for changes made elsewhere (the app and the host do; most tests do not). */
  watch?: boolean;
  /** How often the reaper looks for soft-deleted bundles to remove; 0 turns the timer off. */
  reapIntervalMs?: number;
  /** Electron's safeStorage in the desktop app; AES-256-GCM with a key file otherwise. */
  secretsCipher?: SecretCipher;
  transport?: 'ipc' | 'rest';
  appVersion?: string;
  /** Docker sweeps and probes; off in tests that do not need Docker. */
  docker?: boolean;
  log?: (e: unknown) => void;
}

export const DEFAULT_BUILTIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../data/builtin');

export interface Core {
  dataDir: string;
  store: Store;
  bundles: BundleService;
  tools: ToolService;
  config: ConfigStore;
  metrics: MetricsStore;
  history: HistoryStore;
  secrets: SecretsStore;
  functions: FunctionRegistry;
  engine: InvocationEngine;
  search: ToolSearchIndex;
  transfer: TransferService;
  events: EventEmitter<{ event: [StoreEvent] }>;
  dispatch: Dispatch;
  searchTools(input: OpInput<'tools.search'>): Page<SearchHit>;
  systemInfo(): SystemInfo;
  close(): Promise<void>;
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  const paths = new DataPaths(dataDir);
  const builtinDir = opts.builtinDir ?? DEFAULT_BUILTIN_DIR;
  const config = await ConfigStore.open(paths);
  const store = await Store.open({ dataDir, builtinDir, config, ...(opts.clock ? { clock: opts.clock } : {}) });
  const events = new EventEmitter<{ event: [StoreEvent] }>();
  store.on('event', (e) => events.emit('event', e));
  config.on('changed', () => events.emit('event', { type: 'config.changed' }));

  const metrics = new MetricsStore(paths.metricsDir);
  void metrics.loadAll();
  metrics.on('changed', (toolID) => events.emit('event', { type: 'metrics.changed', toolID }));
  const history = new HistoryStore(paths.historyDir);
  const secrets = await SecretsStore.open({ file: paths.secretsFile, keyFile: paths.secretsKeyFile, ...(opts.secretsCipher ? { cipher: opts.secretsCipher } : {}) });

  const functions = createFunctionRegistry();
  const container: ContainerRunner = createContainerRunner({
    // Secrets a container tool names (impl.secrets) reach it in `settings`, never in its image or args.
    settings: (tool) => {
      const names = (tool.impl as { secrets?: string[] }).secrets ?? [];
      return Object.fromEntries(names.flatMap((n) => (secrets.has(n) ? [[n, secrets.get(n)!]] : [])));
    },
  });
  const http = createHttpRunner();
  // A container tool that names a secret nobody has set yet is "available but not connected".
  const containerRunner: Runner = Object.assign(Object.create(container) as ContainerRunner, {
    availability: (tool: ToolFile, dir: string, reader: SecretsReader) => {
      const missing = ((tool.impl as { secrets?: string[] }).secrets ?? []).find((n) => !reader.has(n));
      return missing ? { ok: false, reason: `secret ${missing} is not set` } : container.availability(tool, dir, reader);
    },
  });
  const engine = new InvocationEngine({
    runners: [createFunctionRunner(functions), http, containerRunner],
    config: () => config.get(),
    secrets,
    metrics,
    history,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.log ? { onBackgroundError: opts.log } : {}),
  });

  const bundles = new BundleService(store);
  const tools = new ToolService(store);
  tools.sources = {
    availability: (rec) => engine.availability(rec),
    metrics: (id) => metrics.get(id),
  };

  const search = new ToolSearchIndex();
  store.observe({
    loaded: (state) => {
      const entries = [];
      for (const t of state.tools.values()) {
        const b = state.bundles.get(t.file.bundleID);
        if (b) entries.push({ tool: t.file, bundle: b.file });
      }
      search.load(entries);
    },
    toolChanged: (tool, bundle) => search.upsert(tool, bundle),
    toolRemoved: (id) => search.remove(id),
    bundleChanged: (bundle) => search.upsertBundle(bundle),
  });

  const transfer = new TransferService({ store, bundles, tools, config, paths });
  await transfer.recover();

  let watcher: StoreWatcher | undefined;
  if (opts.watch) {
    watcher = watchStore(store, {
      config: async () => void (await config.reload()),
      secrets: async () => {
        await secrets.reload();
        events.emit('event', { type: 'secrets.changed' });
      },
      metrics: (id) => metrics.reload(id),
    });
    await watcher.ready;
  }

  await store.reap();
  const reapEvery = opts.reapIntervalMs ?? 60 * 60 * 1000;
  const reapTimer = reapEvery > 0 ? setInterval(() => void store.reap().catch(() => undefined), reapEvery) : undefined;
  reapTimer?.unref();
  if (opts.docker !== false) {
    // Probe once before the first list, so container tools do not flash "unavailable".
    await container.refreshDockerStatus();
    void container.sweepOrphans().catch(() => undefined);
  }

  const core: Core = {
    dataDir,
    store,
    bundles,
    tools,
    config,
    metrics,
    history,
    secrets,
    functions,
    engine,
    search,
    transfer,
    events,
    dispatch: undefined as unknown as Dispatch,
    searchTools(input) {
      const page = search.search(input.q, {
        ...(input.includeDisabled !== undefined ? { includeDisabled: input.includeDisabled } : {}),
        ...(input.pageSize !== undefined ? { pageSize: input.pageSize } : {}),
        ...(input.pageToken !== undefined ? { pageToken: input.pageToken } : {}),
      });
      const items: SearchHit[] = [];
      for (const hit of page.items) {
        const rec = store.state.tools.get(hit.toolID);
        if (rec) items.push({ ...tools.view(rec), search: { tier: hit.tier, matches: hit.matches, score: hit.score } });
      }
      return page.nextPageToken ? { items, nextPageToken: page.nextPageToken } : { items };
    },
    systemInfo() {
      return {
        dataDir,
        builtinDir,
        appVersion: opts.appVersion ?? '0.1.0',
        transport: opts.transport ?? 'rest',
        docker: (({ ok, reason }) => (reason ? { ok, reason } : { ok }))(container.dockerStatus()),
        secretsEncryption: secrets.encryption,
        config: config.get(),
      };
    },
    async close() {
      if (reapTimer) clearInterval(reapTimer);
      await watcher?.close();
      await Promise.all([metrics.close(), history.flush(), container.close(), http.close()]);
    },
  };
  core.dispatch = createDispatcher(createHandlers(core), opts.log);
  return core;
}

export function defaultDataDir(userData?: string): string {
  if (process.env['TOOLWRIGHT_DATA_DIR']) return resolve(process.env['TOOLWRIGHT_DATA_DIR']);
  if (userData) return join(userData, 'data');
  // Electron's userData for an app named "Toolwright", computed without Electron so the headless
  // host and the desktop app share one store.
  const home = process.env['HOME'] ?? process.env['USERPROFILE'] ?? '.';
  if (process.platform === 'win32') return join(process.env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Toolwright', 'data');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Toolwright', 'data');
  return join(process.env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'Toolwright', 'data');
}
