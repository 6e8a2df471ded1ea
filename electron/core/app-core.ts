// Long on purpose: the composition root builds every service in dependency order in one place; split, the order that makes it correct would be spread over files.
/**
 * The composition root: builds every core service once, wires them, and hands the result to a
 * transport (Electron IPC, the REST host, tests). Nothing else constructs services. Whatever it
 * starts (watcher, timers, listeners, runners) is owned by one Disposables list that close()
 * empties; background failures go to the logger, never nowhere.
 */
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import type { AgentAccessStatus, Availability, ToolView } from '../../shared/types.js';
import { ConfigStore } from './config.js';
import { MetricsStore } from './metrics.js';
import { DataPaths } from './data-paths.js';
import { Store } from './store/store.js';
import { ApprovalStore } from './agents/approvals.js';
import { purgeBundle } from './store/purge.js';
import { AgentConnections } from './agents/connections.js';
import { BundleService } from './store/bundles.js';
import { ToolService } from './store/tools.js';
import { watchStore } from './store/watcher.js';
import { SearchService } from './search/search-service.js';
import { openToolSearchLearning } from './search/tool-search-learning.js';
import { SecretsStore } from './secrets/secrets-store.js';
import type { SecretCipher } from './secrets/cipher.js';
import { createFunctionRegistry } from './functions/core-functions.js';
import type { FunctionRegistry } from './functions/registry.js';
import { SharedRateLimiter } from './invoke/shared-rate-limit.js';
import { InvocationEngine } from './invoke/engine.js';
import { InvocationService } from './invoke/invocation-service.js';
import { HistoryStore } from './invoke/history.js';
import { RunningInvocations } from './invoke/running.js';
import type { Runner } from './invoke/types.js';
import { EngineSteps } from './tool-types/pipeline/engine-steps.js';
import { secretNamesOf, toolTypeModule } from './tool-types/registry.js';
import { TypeServices } from './tool-types/type-services.js';
import type { RunnerServices } from './tool-types/tool-type.js';
import { prepareTool } from './tool-types/prepare.js';
import { createGuardedWeb } from './tool-types/function/guarded-web.js';
import { TransferService } from './transfer/transfer-service.js';
import { BuildFilesService } from './tool-files/build-files.js';
import { BuildService, type ImageBuilder } from './tool-files/builds.js';
import type { ToolType } from '../../shared/tool-types/catalog.js';
import { createDispatcher, type Dispatch } from './operations/dispatch.js';
import { createHandlers } from './operations/handlers.js';
import { withTypeHandlers } from './operations/type-handlers.js';
import type { TransportCore } from './operations/transport.js';
import { ProblemsService } from './problems.js';
import { SystemService } from './system.js';
import { Disposables } from './lifecycle.js';
import { loggerFrom, stderrLogger, type Logger } from './log.js';
export { defaultDataDir } from './data-dir.js';
import { ScheduleFiles } from './schedules/schedule-files.js';
import { ScheduleRunner } from './schedules/schedule-runner.js';
import { ScheduleService } from './schedules/schedule-service.js';
import { ScheduleManager } from './schedules/schedule-manager.js';
import { scheduleToolScope } from './schedules/tool-scope.js';
import { REAL_CLOCK, Scheduler, type SchedulerOptions } from './schedules/scheduler.js';
import type { ProfileStore } from './profiles/profile-store.js';
import type { ProfileService } from './profiles/profile-service.js';
import { openProfiles } from './profiles/open.js';
import { ContextCostService } from './agents/context-cost.js';
import { AgentSurface } from './agent-surface/agent-surface.js';
import { backgroundStart } from './background-start.js';
import { ToolLintService } from './agents/tool-lint-service.js';
import { DefinitionPolicy } from './guard/definition-policy.js';
import type { AuditLog } from './audit/writer.js';
import { AuditChanges } from './audit/changes.js';
import { listAudit } from './audit/query.js';
import { verifyAudit } from './audit/verify.js';
import { openAuditLog } from './audit/durability.js';
import type { AuditActor } from '../../shared/audit.js';
import type { OpInput, StoreEvent } from '../../shared/operations.js';
import { DEFAULT_APPROVAL_TTL_SECONDS } from '../../shared/schemas.js';

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
  /** Who this process is in the audit log's change records (default: app for ipc, rest otherwise). */
  actor?: AuditActor;
  appVersion?: string;
  /** Docker probes and sweeps at start; off in tests that do not need Docker. */
  docker?: boolean;
  /** Where background failures and unexpected errors go; stderr by default. */
  logger?: Logger;
  /** @deprecated a bare callback; use `logger`. */
  log?: (e: unknown) => void;
  /** The host's Agent access listener, reported by system.info. */
  agentAccess?: { current(): AgentAccessStatus };
  /** Options for the runners (tests point the http runner at loopback, the container runner at a test engine). */
  runners?: Pick<RunnerServices, 'http' | 'container'>;
  /**
   * Run schedules: long-lived processes (the app, the headless host, MCP servers) do; one-shot
   * CLI commands and most tests do not. Whoever runs it, one process per data folder schedules.
   */
  scheduler?: boolean | SchedulerOptions;
  /** Count every tool's context cost in the background (default); one-shot CLI commands count only a profile's, when shown. */
  backgroundContextCount?: boolean;
  /** Runner starts and the background count wait for core.startBackground() (the host calls it once it listens). */
  deferBackground?: boolean;
}

export const DEFAULT_BUILTIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../data/builtin');

export interface Core extends TransportCore {
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
  invocations: InvocationService;
  search: SearchService;
  transfer: TransferService;
  events: EventEmitter<{ event: [StoreEvent] }>;
  dispatch: Dispatch;
  logger: Logger;
  approvals: ApprovalStore;
  agents: AgentConnections;
  paths: DataPaths;
  audit: AuditLog;
  schedules: ScheduleService;
  /** profile.json files (MCP addresses of their own) and their tokens. */
  profileStore: ProfileStore;
  profiles: ProfileService;
  /** Tokens each tool's definition costs an agent, counted in the background. */
  contextCost: ContextCostService;
  /** Present when this process runs schedules (it fires them only while it holds the lease). */
  scheduler?: Scheduler;
  /** Whether a URL is a link a tool type's service handed out for a person to open (an upstream sign-in): the desktop opens only those in the browser. */
  isPendingSignInUrl(url: string): boolean;
  /** What agents are offered and what their calls come to (the agent door's operations); its tasks settle before a stdio server exits. */
  agentSurface: AgentSurface;
  /** Starts what runs once the core is up (background-start.ts); createCore did unless deferBackground. */
  startBackground(): Promise<void>;
  close(): Promise<void>;
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  const logger = opts.logger ?? (opts.log ? loggerFrom(opts.log) : stderrLogger());
  const owned = new Disposables((what, e) => logger.error(what, e));
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  const paths = new DataPaths(dataDir);
  const builtinDir = opts.builtinDir ?? DEFAULT_BUILTIN_DIR;

  const events = new EventEmitter<{ event: [StoreEvent] }>();
  const emit = (e: StoreEvent) => events.emit('event', e);
  // First: every writer below reports its changes to it (config's settings once it is open).
  const opened: { config?: ConfigStore } = {};
  const audit = openAuditLog(paths.auditDir, () => opened.config?.get(), {
    ...(opts.clock ? { clock: opts.clock } : {}),
    onError: (what, e) => logger.error(what, e),
  });
  owned.add(() => audit.close());
  const changes = new AuditChanges(audit, dataDir, opts.actor ?? (opts.transport === 'ipc' ? 'app' : 'rest'));
  const config = await ConfigStore.open(paths, changes);
  opened.config = config;
  owned.listen(config, 'changed', () => emit({ type: 'config.changed' }));
  const store = await Store.open({ paths, builtinDir, config, log: logger, changes, ...(opts.clock ? { clock: opts.clock } : {}) });
  owned.listen(store, 'event', emit);

  const metrics = new MetricsStore(paths.metricsDir);
  metrics.loadAll().catch((e: unknown) => logger.error('loading usage metrics', e));
  owned.listen(metrics, 'changed', (toolID: string) => emit({ type: 'metrics.changed', toolID }));
  owned.add(() => metrics.close());
  const history = new HistoryStore(paths.historyDir);
  owned.add(() => history.flush());
  const secrets = await SecretsStore.open({
    file: paths.secretsFile,
    keyFile: paths.secretsKeyFile,
    changes,
    onChanged: () => emit({ type: 'secrets.changed' }),
    ...(opts.secretsCipher ? { cipher: opts.secretsCipher } : {}),
  });
  const functions = createFunctionRegistry();

  // Pipelines run their steps through the engine, which is built from the runners: their runner
  // gets a thunk, called only when a pipeline runs or is asked about, by which time `steps` exists.
  const approvals = new ApprovalStore(paths.approvalsDir, {
    ...(opts.clock ? { clock: opts.clock } : {}),
    audit,
    ttlSeconds: () => config.get().approvalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS,
  });
  // The tool types' services (tool-types/type-services.ts: the upstream servers', and any type's
  // that brings one), opened by looping over the registry before the runners: each type's runner
  // gets its own. The tool and bundle services they may call are built below, from the engine.
  const typeServices = await TypeServices.open({
    paths,
    store,
    config,
    secrets,
    approvals,
    log: logger,
    emit,
    appVersion: opts.appVersion ?? '0.1.0',
    tools: () => tools,
    bundles: () => bundles,
    owned,
  });
  const runnerServices: RunnerServices = {
    secrets,
    functions,
    log: logger,
    config: () => config.get(),
    steps: () => steps,
    runners: () => runners,
    // Late-bound like the agent surface's: the core exists by the first call of a schedule tool.
    operations: () => (name, input, caller) => core.dispatch(name, input, { caller }),
    availabilityChanged: () => emit({ type: 'availability.changed' }),
    ...opts.runners,
  };
  const runners: Runner[] = typeServices.runners(runnerServices);
  for (const r of runners) if (r.close) owned.add(() => r.close!());
  const running = new RunningInvocations(paths.invocationsDir, (what, e) => logger.error(what, e));
  await running.sweep();
  owned.add(() => running.close());
  // One definition guard: its reports, cached per tool file, serve the withhold policy and lint alike.
  const instructionsOf = (bundleID: string): string | undefined => typeServices.instructionsOf(bundleID);
  const guard: DefinitionPolicy = new DefinitionPolicy({
    store,
    tools: { get: (ref): Promise<ToolView> => tools.get(ref) },
    config: () => config.get(),
    instructionsOf,
  });
  const engine = new InvocationEngine({
    running,
    runners,
    config: () => config.get(),
    guardWithheld: (file): string | undefined => guard.withheld(file),
    secrets,
    metrics,
    history,
    requiredSecrets: secretNamesOf,
    sharedLimits: new SharedRateLimiter(paths.rateLimitsDir),
    audit,
    ...(opts.clock ? { clock: opts.clock } : {}),
    onBackgroundError: (what, e) => logger.error(what, e),
  });
  const steps = new EngineSteps(store.reader, engine);

  // Context costs are asked for only when a view is built, by which time `contextCost` exists.
  const bundles = new BundleService(store, {
    agentCost: (bundleID): { agentTools: number; tokens?: number } => contextCost.forBundle(bundleID),
    saved: (before, after) => typeServices.bundleSaved(before, after),
  });
  const tools = new ToolService(store, {
    contextTokens: (toolID): number | undefined => contextCost.forTool(toolID),
    prepare: prepareTool,
    availability: (rec) => engine.availability(rec),
    safety: (rec) => engine.safetyOf(rec).safety,
    withheld: (rec) => engine.withheld(rec),
    metrics: (id) => metrics.get(id),
    onDeleted: async (id) => void (await Promise.all([metrics.remove(id), history.remove(id)])),
    refuseTool: (bundle, type) => typeServices.refuseTool(bundle, type),
    typeView: (file) => typeServices.toolView(file),
    keptOnSave: (file) => typeServices.keptOnSave(file),
  });
  const contextCost: ContextCostService = new ContextCostService({
    store,
    tools,
    onCounted: () => emit({ type: 'context.counted' }),
    background: opts.backgroundContextCount !== false,
    held: opts.deferBackground === true,
  });
  owned.add(contextCost.dispose);
  const lint = new ToolLintService({ reader: store.reader, tools, guard: guard.guard, instructionsOf });
  const search = new SearchService(store, tools, await openToolSearchLearning({ dataDir, config, logger, owned }));
  owned.add(search.dispose);
  const invocations = new InvocationService(store, engine, history, running, () => config.get());
  // A3S binary backends given by url are downloaded at import under http tools' guard (the tests' loopback rules included).
  const transfer = new TransferService(
    { store, bundles, tools, config, paths },
    { web: (maxBytes) => createGuardedWeb({ ...opts.runners?.http, maxResponseBytes: maxBytes }) },
  );
  await transfer.recover();

  const schedulerOptions = opts.scheduler === true ? {} : opts.scheduler || undefined;
  const scheduleClock = schedulerOptions?.clock ?? REAL_CLOCK;
  const scheduleFiles = new ScheduleFiles(paths.schedulerDir);
  await scheduleFiles.ensure();
  const scheduleRunner = new ScheduleRunner({
    store,
    engine,
    history,
    files: scheduleFiles,
    now: () => scheduleClock.now(),
    changed: (scheduleID) => emit({ type: 'schedule.changed', scheduleID }),
    log: logger,
  });
  const schedules = new ScheduleService({ store, tools, files: scheduleFiles, runner: scheduleRunner, clock: scheduleClock });

  const { profileStore, profiles } = await openProfiles({ paths, store, tools, config, contextCost, owned, emit });
  const scheduleManager = new ScheduleManager({
    store,
    tools,
    files: scheduleFiles,
    views: schedules,
    toolScope: scheduleToolScope(tools, profileStore),
  });
  const agents = new AgentConnections(paths.agentsDir, opts.clock);
  owned.listen(agents, 'changed', () => emit({ type: 'agents.changed' }));
  owned.listen(approvals, 'changed', () => emit({ type: 'approvals.changed' }));

  if (opts.watch) {
    const watcher = watchStore(
      store,
      {
        config: async () => void (await config.reload()),
        secrets: async () => {
          await secrets.reload();
          emit({ type: 'secrets.changed' });
        },
        metrics: (id) => metrics.reload(id),
        approvals: async () => void approvals.emit('changed'),
        agents: async () => void agents.emit('changed'),
        schedules: {
          dirs: [scheduleFiles.runsDir, scheduleFiles.outputsDir],
          changed: async (scheduleID) => void emit({ type: 'schedule.changed', scheduleID }),
        },
        toolFiles: async (bundleID, toolID) => void emit({ type: 'tool.files.changed', bundleID, toolID }),
        bundleFiles: typeServices.bundleFiles(),
        profiles: { dir: paths.profilesDir, changed: (profileID) => profileStore.sync(profileID) },
      },
      { onError: (what, e) => logger.error(what, e) },
    );
    owned.add(() => watcher.close());
    await watcher.ready;
  }

  await store.reap();
  const reapEvery = opts.reapIntervalMs ?? 60 * 60 * 1000;
  if (reapEvery > 0) owned.interval(() => void store.reap().catch((e: unknown) => logger.error('reaping deleted bundles', e)), reapEvery);
  const startBackground = backgroundStart({ runners, contextCost, search, logger, docker: opts.docker !== false });
  if (!opts.deferBackground) await startBackground();

  let scheduler: Scheduler | undefined;
  if (schedulerOptions) {
    scheduler = new Scheduler({ store, files: scheduleFiles, runner: scheduleRunner, log: logger }, schedulerOptions);
    owned.add(() => scheduler!.close());
    if (schedulerOptions.autoStart !== false) scheduler.start();
  }
  // A type with build files (ToolTypeModule.buildFiles) has a runner that builds its image.
  const imageBuilder = (type: ToolType) => (toolTypeModule(type).buildFiles ? (runners.find((r) => r.type === type) as Runner & ImageBuilder) : undefined);
  const buildFiles = new BuildFilesService(store, (bundleID, toolID) => emit({ type: 'tool.files.changed', bundleID, toolID }));
  const builds = new BuildService(store, imageBuilder, emit);

  const health = () => new Map<string, Availability>(runners.flatMap((r) => (r.health ? [[r.health().name, r.health().status]] : [])));
  // An agent's call runs through the dispatcher as the core answers it (a rule a host adds around
  // core.dispatch holds for agents too): late-bound, the core exists by the first call.
  const agentSurface: AgentSurface = new AgentSurface({
    reader: store.reader,
    tools,
    config,
    profiles: profileStore,
    profileTokens: profiles.tokens,
    metrics,
    events,
    learning: search.learning,
    approvals,
    agents,
    schedules,
    tasksDir: paths.tasksDir,
    logger,
    run: () => core.dispatch,
  });
  owned.add(() => agentSurface.close());
  const services = {
    agentSurface,
    profiles,
    buildFiles,
    builds,
    trash: { purge: (bundleID: string) => purgeBundle(store, tools, bundleID) },
    // This process's pending records go first, so what it just did is in the answer.
    audit: {
      list: async (filter: OpInput<'audit.list'>) => (await audit.flush(), listAudit(paths.auditDir, filter)),
      verify: async () => (await audit.flush(), verifyAudit(paths.auditDir)),
    },
    approvals,
    agents,
    bundles,
    tools,
    lint,
    guard,
    schedules,
    scheduleManager,
    search,
    invocations,
    config,
    secrets,
    problems: new ProblemsService([() => store.problems(), () => secrets.problems()]),
    functions,
    system: new SystemService({
      dataDir,
      builtinDir,
      appVersion: opts.appVersion ?? '0.1.0',
      transport: opts.transport ?? 'rest',
      config,
      secrets,
      health,
      ...(opts.agentAccess ? { agentAccess: () => opts.agentAccess!.current() } : {}),
    }),
    transfer,
  };
  const dispatch = createDispatcher(withTypeHandlers(createHandlers(services), typeServices.handlers()), (e) => logger.error('an operation', e));

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
    invocations,
    search,
    transfer,
    events,
    dispatch,
    logger,
    approvals,
    agents,
    paths,
    audit,
    schedules,
    profileStore,
    profiles,
    contextCost,
    ...(scheduler ? { scheduler } : {}),
    openExport: (bundleIDs) => transfer.openExport(bundleIDs),
    isPendingSignInUrl: (url) => typeServices.ownsLink(url),
    agentSurface,
    startBackground,
    close: () => owned.dispose(),
  };
  return core;
}
