/**
 * The container runner: one sandboxed, short-lived container per invocation. The tool's image
 * gets the payload as its single CMD argument and answers with a JSON object on the last line
 * of stdout; every stdout line goes to ctx.emit as it comes (streaming).
 * Whatever happens (success, error, timeout, cancellation, output flood, a failed engine call),
 * the container is force-removed before run() settles; if the engine refuses for the moment,
 * removal goes on in the background, and its labels let sweepOrphans find it after a crash.
 * By concern: create.ts (the container), execute.ts (its output, its exit, the result),
 * oom.ts, removal.ts; this module holds the engine connection and the Runner around them.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type Dockerode from 'dockerode';
import type { Availability, ImageInfo, ToolImage } from '../../../../shared/types.js';
import type { ToolFile } from '../../../../shared/schemas.js';
import { CoreError, invalid, isCoreError } from '../../errors.js';
import type { RunContext, RunOutput, Runner } from '../../invoke/types.js';
import type { SecretsReader } from '../../secrets/types.js';
import { DockerStatus, isConnectionError, type DockerStatusSnapshot } from './docker-status.js';
import type { ImageProvider, ResolvedImage } from './images.js';
import { sweepOrphans, type SweepResult } from './orphans.js';
import { OUTPUT_CAP_BYTES } from './output.js';
import { hostConfig, timeoutMs } from './sandbox.js';
import { raceAbort, throwIfAborted } from '../../util/abort.js';
import { encodePayload } from './payload.js';
import { containerImpl, createContainer, type ContainerSpec } from './create.js';
import { executeContainer } from './execute.js';
import { ContainerRemoval } from './removal.js';
import { runCommand } from './command.js';
import type { CommandSandbox } from '../../functions/services.js';

export interface ContainerRunnerOptions {
  /** An engine client; without it dockerode is built from the environment (DOCKER_HOST etc.). */
  docker?: Dockerode;
  /** How often the background probe asks the engine whether it is there. Default 15 s. */
  statusRefreshMs?: number;
  /** Longest an image build may take. Default 10 min. */
  buildTimeoutMs?: number;
  /** Cap of stdout and of stderr, each. Default 100 KB. */
  outputCapBytes?: number;
  /** The engine came or went: every container tool's availability changed with it. */
  onDockerStatusChange?: (ok: boolean) => void;
  /** Tool-level settings passed to the container as `settings`. Default {}. */
  settings?: (tool: ToolFile) => Record<string, unknown>;
  /** Why a run cannot start for want of a required setting (container/settings.ts), or undefined. */
  missingSetting?: (tool: ToolFile) => string | undefined;
}

export interface ContainerRunner extends Runner {
  readonly type: 'container';
  /** The cached engine status (for the system info view); never probes. */
  dockerStatus(): DockerStatusSnapshot;
  /** Probes the engine now. Never throws. */
  refreshDockerStatus(): Promise<DockerStatusSnapshot>;
  /** Removes containers a crashed Toolwright left behind (never this runner's live ones). */
  sweepOrphans(): Promise<SweepResult>;
  /** Probes the engine, then removes what a crashed Toolwright left behind. */
  start(): Promise<void>;
  health(): { name: string; status: Availability };
  /** Stops the background probe, kills and removes containers still running. */
  close(): Promise<void>;
  /** Builds a build-from-folder tool's image now (an image of the same files is reused unless noCache). */
  build(tool: ToolFile, toolDir: string, options?: { noCache?: boolean; onLine?: (line: string) => void }): Promise<ResolvedImage & { info: ImageInfo }>;
  /** The image a container tool runs, whether it is present, and its size. */
  describeImage(tool: ToolFile, toolDir: string): Promise<ToolImage>;
  /** One-off commands in the same sandbox, engine and clean-up (the built-in shell-exec). */
  readonly commands: CommandSandbox;
}

export function createContainerRunner(options: ContainerRunnerOptions = {}): ContainerRunner {
  // Built on first need (a probe, a run, a sweep): most processes that open the core never reach
  // Docker, and dockerode with its protocol and SSH packages is a large part of a start.
  let docker: Dockerode | null = options.docker ?? null;
  let images: ImageProvider | null = null;
  let connecting: Promise<Dockerode> | undefined;
  const connect = (): Promise<Dockerode> =>
    (connecting ??= (async () => {
      // A malformed DOCKER_HOST throws here: every container tool is unavailable, with this as the reason.
      docker ??= new (await import('dockerode')).default();
      const { ImageProvider } = await import('./images.js');
      images = new ImageProvider(docker, options.buildTimeoutMs ?? 10 * 60_000);
      return docker;
    })());
  const status = new DockerStatus(connect, options.statusRefreshMs ?? 15_000, docker, options.onDockerStatusChange);
  const cap = options.outputCapBytes ?? OUTPUT_CAP_BYTES;
  const live = new Map<string, Dockerode.Container>();
  const removal = new ContainerRemoval();

  async function requireDocker(): Promise<{ docker: Dockerode; images: ImageProvider; snapshot: DockerStatusSnapshot }> {
    let snapshot = status.current();
    if (!snapshot.ok) snapshot = await status.refresh();
    if (!snapshot.ok || !docker || !images) {
      throw new CoreError('TOOL_UNAVAILABLE', snapshot.reason ?? 'Docker is not reachable.', { endpoint: snapshot.endpoint });
    }
    return { docker, images, snapshot };
  }

  /** Engine failures as contract errors; a lost connection also flips the cached status. */
  function engineError(error: unknown, doing: string): CoreError {
    if (isCoreError(error)) return error;
    if (isConnectionError(error)) {
      status.markUnreachable(error);
      void status.refresh();
      return new CoreError('TOOL_UNAVAILABLE', status.current().reason ?? `Docker is not reachable: ${(error as Error).message}`);
    }
    const message = ((error as Error)?.message ?? String(error)).replace(/^\(HTTP code \d+\)\s*/, '').trim();
    return new CoreError('TOOL_UNAVAILABLE', `Docker refused to ${doing}: ${message}`);
  }

  async function run(ctx: RunContext): Promise<RunOutput> {
    const { tool, signal } = ctx;
    throwIfAborted(signal);
    const impl = containerImpl(tool);
    const limitMs = timeoutMs(impl);
    const payload = encodePayload(ctx, options.settings?.(tool) ?? {});
    const engine = await raceAbort(requireDocker(), signal);
    const config = hostConfig(impl.sandbox, { engineCpus: engine.snapshot.cpus });

    const resolve = () =>
      raceAbort(engine.images.resolve(tool, ctx.toolDir, ctx.onProgress), signal).catch((error: unknown) => {
        throw engineError(error, 'prepare the image');
      });
    let image = await resolve();
    let container: Dockerode.Container;
    try {
      container = await createUnlessCancelled(engine.docker, { image, ctx, payload, config, limitMs });
    } catch (error) {
      if (isCoreError(error)) throw error;
      if ((error as { statusCode?: number }).statusCode !== 404) throw engineError(error, 'create the container');
      // The image went away since we last looked (docker image rm / prune): look again, which
      // rebuilds our own image or says clearly that a named one is missing.
      engine.images.forget(image.ref);
      image = await resolve();
      container = await createUnlessCancelled(engine.docker, { image, ctx, payload, config, limitMs }).catch((again: unknown) => {
        throw engineError(again, 'create the container');
      });
    }
    live.set(container.id, container);
    try {
      return await executeContainer({ docker: engine.docker, container, ctx, limitMs, impl, cap, engineError });
    } finally {
      await removal.remove(container);
      live.delete(container.id);
    }
  }

  /** Stops waiting on cancellation; a container the engine creates after that is removed at once. */
  async function createUnlessCancelled(engineDocker: Dockerode, spec: ContainerSpec): Promise<Dockerode.Container> {
    const creating = createContainer(engineDocker, spec);
    try {
      return await raceAbort(creating, spec.ctx.signal);
    } catch (error) {
      if (spec.ctx.signal.aborted)
        creating.then(
          (late) => removal.remove(late),
          () => undefined,
        );
      throw error;
    }
  }

  function availability(tool: ToolFile, toolDir: string, _secrets: SecretsReader): Availability {
    try {
      const impl = containerImpl(tool);
      const missing = options.missingSetting?.(tool);
      if (missing) return { ok: false, reason: missing };
      if (impl.build && !isRegularFile(path.join(toolDir, 'Dockerfile'))) {
        return { ok: false, reason: 'The tool folder has no Dockerfile; add one next to tool.json or set impl.image.' };
      }
      const snapshot = status.current();
      if (!snapshot.ok) return { ok: false, reason: snapshot.reason ?? 'Docker is not reachable.' };
      const problem = images?.knownProblem(impl);
      if (problem) return { ok: false, reason: problem };
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  async function build(tool: ToolFile, toolDir: string, buildOptions: { noCache?: boolean; onLine?: (line: string) => void } = {}) {
    const impl = containerImpl(tool);
    if (impl.build !== '.') {
      throw invalid([{ field: 'impl', message: `this tool runs the image ${impl.image}; only tools with impl.build "." are built from their folder` }]);
    }
    const engine = await requireDocker();
    try {
      const image = await engine.images.buildFolder(tool.toolID, toolDir, buildOptions);
      const info = await engine.images.imageInfo(image.ref);
      if (!info) throw new CoreError('TOOL_UNAVAILABLE', `The build of ${image.ref} finished but the image is not there; try again.`);
      return { ...image, info };
    } catch (error) {
      throw engineError(error, 'build the image');
    }
  }

  async function describeImage(tool: ToolFile, toolDir: string): Promise<ToolImage> {
    containerImpl(tool);
    const engine = await requireDocker();
    try {
      return await engine.images.describe(tool, toolDir);
    } catch (error) {
      throw engineError(error, 'describe the image');
    }
  }

  const commands: CommandSandbox = {
    status: () => {
      const { ok, reason } = status.current();
      return reason ? { ok, reason } : { ok };
    },
    imageStatus: (ref) => images?.namedStatus(ref),
    run: async (spec) => runCommand(await raceAbort(requireDocker(), spec.signal), spec, { removal, live, engineError }),
  };

  return {
    type: 'container',
    run,
    build,
    commands,
    describeImage,
    availability,
    dockerStatus: () => status.current(),
    refreshDockerStatus: () => status.refresh(),
    async start() {
      // Probe once before the first list, so container tools do not flash "unavailable"; then
      // keep probing in the background.
      status.start();
      await status.refresh();
      if (docker) await sweepOrphans({ docker, keep: new Set(live.keys()) });
    },
    health() {
      const { ok, reason } = status.current();
      return { name: 'docker', status: reason ? { ok, reason } : { ok } };
    },
    sweepOrphans: () =>
      connect().then(
        (client) => sweepOrphans({ docker: client, keep: new Set(live.keys()) }),
        () => ({ removed: [], failed: [] }),
      ),
    async close() {
      status.stop();
      await Promise.all([...live.values()].map((c) => removal.remove(c)));
      await removal.settled();
    },
  };
}

/** The build context leaves links out, so a linked Dockerfile would not reach the build. */
function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}
