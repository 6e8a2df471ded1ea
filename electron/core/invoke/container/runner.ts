/**
 * The container runner: one sandboxed, short-lived container per invocation. The tool's image
 * gets the payload as its single CMD argument and answers with a JSON object on the last line
 * of stdout; every stdout line goes to ctx.emit as it comes (streaming).
 * Whatever happens (success, error, timeout, cancellation, output flood, a failed engine call),
 * the container is force-removed before run() settles; if the engine refuses for the moment,
 * removal goes on in the background, and its labels let sweepOrphans find it after a crash.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import Dockerode from 'dockerode';
import type { Availability, ImageInfo, ToolImage } from '../../../../shared/types.js';
import type { ContainerImpl, ToolFile } from '../../../../shared/schemas.js';
import { CoreError, invalid, isCoreError } from '../../errors.js';
import type { RunContext, RunOutput, Runner } from '../types.js';
import type { SecretsReader } from '../../secrets/types.js';
import { DockerStatus, isConnectionError, type DockerStatusSnapshot } from './docker-status.js';
import { ImageProvider, type ResolvedImage } from './images.js';
import { LABEL_DEADLINE, LABEL_INVOCATION, LABEL_MANAGED, LABEL_OWNER, LABEL_TOOL } from './labels.js';
import { ownerLabel, sweepOrphans, type SweepResult } from './orphans.js';
import { CappedSink, LineSplitter, OUTPUT_CAP_BYTES, parseReply, replyToOutput, stderrTail, toolErrorOnStdout, toolFailure } from './output.js';
import { FALLBACK_USER, hostConfig, timeoutMs } from './sandbox.js';
import { abortError, delay, raceAbort, throwIfAborted } from '../../util/abort.js';
import { encodePayload } from './payload.js';

export interface ContainerRunnerOptions {
  /** An engine client; without it dockerode is built from the environment (DOCKER_HOST etc.). */
  docker?: Dockerode;
  /** How often the background probe asks the engine whether it is there. Default 15 s. */
  statusRefreshMs?: number;
  /** Longest an image build may take. Default 10 min. */
  buildTimeoutMs?: number;
  /** Cap of stdout and of stderr, each. Default 100 KB. */
  outputCapBytes?: number;
  /** Tool-level settings passed to the container as `settings`. Default {}. */
  settings?: (tool: ToolFile) => Record<string, unknown>;
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
}

/** A container that outlives its timeout by this much is fair game for sweepOrphans. */
const DEADLINE_GRACE_MS = 60_000;
/** After a kill the engine answers within moments; if it does not, stop waiting for it. */
const ENGINE_GRACE_MS = 10_000;
/** Output still in flight when the exit is known. */
const STREAM_DRAIN_MS = 2_000;

type StopReason = 'timeout' | 'cancelled' | 'stdout-cap' | 'stderr-cap';

export function createContainerRunner(options: ContainerRunnerOptions = {}): ContainerRunner {
  let docker: Dockerode | null = null;
  let constructionError: unknown = null;
  try {
    docker = options.docker ?? new Dockerode();
  } catch (error) {
    // A malformed DOCKER_HOST: every container tool is unavailable, with this as the reason.
    constructionError = error;
  }
  const status = new DockerStatus(docker, constructionError, options.statusRefreshMs ?? 15_000);
  status.start();
  const images = docker ? new ImageProvider(docker, options.buildTimeoutMs ?? 10 * 60_000) : null;
  const cap = options.outputCapBytes ?? OUTPUT_CAP_BYTES;
  const live = new Map<string, Dockerode.Container>();
  const removals = new Set<Promise<void>>();

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
      container = await createUnlessCancelled(engine.docker, image, ctx, payload, config, limitMs);
    } catch (error) {
      if (isCoreError(error)) throw error;
      if ((error as { statusCode?: number }).statusCode !== 404) throw engineError(error, 'create the container');
      // The image went away since we last looked (docker image rm / prune): look again, which
      // rebuilds our own image or says clearly that a named one is missing.
      engine.images.forget(image.ref);
      image = await resolve();
      container = await createUnlessCancelled(engine.docker, image, ctx, payload, config, limitMs).catch((again: unknown) => {
        throw engineError(again, 'create the container');
      });
    }
    live.set(container.id, container);
    try {
      return await execute(engine.docker, container, ctx, limitMs, impl);
    } finally {
      await removeContainer(container);
      live.delete(container.id);
    }
  }

  /** Stops waiting on cancellation; a container the engine creates after that is removed at once. */
  async function createUnlessCancelled(...args: Parameters<typeof create>): Promise<Dockerode.Container> {
    const creating = create(...args);
    try {
      return await raceAbort(creating, args[2].signal);
    } catch (error) {
      if (args[2].signal.aborted)
        creating.then(
          (late) => removeContainer(late),
          () => undefined,
        );
      throw error;
    }
  }

  async function create(
    engineDocker: Dockerode,
    image: ResolvedImage,
    ctx: RunContext,
    payload: string,
    config: Dockerode.HostConfig,
    limitMs: number,
  ): Promise<Dockerode.Container> {
    return engineDocker.createContainer({
      Image: image.ref,
      Cmd: [payload],
      ...(image.user ? {} : { User: FALLBACK_USER }),
      Labels: {
        [LABEL_MANAGED]: 'true',
        [LABEL_TOOL]: ctx.tool.toolID,
        [LABEL_INVOCATION]: ctx.invocationID,
        [LABEL_OWNER]: ownerLabel(),
        [LABEL_DEADLINE]: String(Date.now() + limitMs + DEADLINE_GRACE_MS),
      },
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
      OpenStdin: false,
      Tty: false,
      NetworkDisabled: config.NetworkMode === 'none',
      HostConfig: config,
    });
  }

  async function execute(engineDocker: Dockerode, container: Dockerode.Container, ctx: RunContext, limitMs: number, impl: ContainerImpl): Promise<RunOutput> {
    const { signal, emit } = ctx;
    // stdout line by line to a caller that streams; the answer is still parsed at the end.
    const lines = emit ? new LineSplitter((text) => emit({ type: 'chunk', text })) : undefined;
    let stopReason: StopReason | null = null;
    const stop = (reason: StopReason) => {
      if (stopReason) return;
      stopReason = reason;
      container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
    };
    const onAbort = () => stop('cancelled');
    let timer: NodeJS.Timeout | undefined;
    let watchdog: NodeJS.Timeout | undefined;
    let stream: NodeJS.ReadableStream | undefined;
    try {
      stream = await raceAbort(container.attach({ stream: true, stdout: true, stderr: true, logs: false }), signal);
      const stdout = new CappedSink(cap, () => stop('stdout-cap'), lines && ((piece) => lines.write(piece)));
      const stderr = new CappedSink(cap, () => stop('stderr-cap'));
      const drained = new Promise<void>((resolve) => {
        stream!.on('end', resolve);
        stream!.on('close', resolve);
        stream!.on('error', () => resolve());
      });
      engineDocker.modem.demuxStream(stream, stdout, stderr);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) throw abortError(signal);
      await raceAbort(container.start(), signal);
      timer = setTimeout(() => stop('timeout'), limitMs);
      const exit = (await Promise.race([
        container.wait(),
        new Promise((_, reject) => {
          watchdog = setTimeout(
            () =>
              reject(new CoreError('TIMEOUT', `Docker did not report the end of the container within ${Math.round((limitMs + ENGINE_GRACE_MS) / 1000)} s.`)),
            limitMs + ENGINE_GRACE_MS,
          );
        }),
      ])) as { StatusCode?: number };
      clearTimeout(timer);
      await Promise.race([drained, delay(STREAM_DRAIN_MS)]);
      lines?.end();

      const reason = stopReason as StopReason | null;
      if (reason === 'cancelled') throw abortError(signal);
      if (reason === 'timeout') {
        throw new CoreError(
          'TIMEOUT',
          `The container did not finish within ${formatSeconds(limitMs)} and was stopped; raise impl.timeoutSeconds if it needs longer.`,
        );
      }
      if (reason === 'stdout-cap' || reason === 'stderr-cap') {
        const which = reason === 'stdout-cap' ? 'stdout' : 'stderr';
        throw toolFailure(
          'output-cap',
          `The container wrote more than ${Math.round(cap / 1024)} KB to ${which} and was stopped. A container tool must print one small JSON object on stdout and keep stderr for short diagnostics.`,
        );
      }
      const code = exit.StatusCode ?? -1;
      if (code !== 0) {
        const tail = stderrTail(stderr.bytes());
        if (await oomKilled(engineDocker, container, code)) {
          throw toolFailure(
            'out-of-memory',
            `The container ran out of memory (limit ${describeMemory(impl)}) and was killed; raise impl.sandbox.memory if the tool needs more.`,
            { exitCode: code, stderrTail: tail },
          );
        }
        // A tool that says what went wrong on stdout ({"error": …}) and exits non-zero (Chalie's runners do) is heard.
        const told = toolErrorOnStdout(stdout.bytes(), code, tail);
        if (told) throw told;
        const how = code === 137 ? `was killed (SIGKILL; out of memory, limit ${describeMemory(impl)}, is the usual cause)` : `exited with code ${code}`;
        throw toolFailure('exit-code', tail ? `The container ${how}: ${tail}` : `The container ${how} and wrote nothing to stderr.`, {
          exitCode: code,
          stderrTail: tail,
        });
      }
      return replyToOutput(parseReply(stdout.bytes()));
    } catch (error) {
      if (isCoreError(error)) throw error;
      if (stopReason === 'cancelled' || signal.aborted) throw abortError(signal);
      throw engineError(error, 'run the container');
    } finally {
      clearTimeout(timer);
      clearTimeout(watchdog);
      signal.removeEventListener('abort', onAbort);
      (stream as { destroy?: () => void } | undefined)?.destroy?.();
    }
  }

  /**
   * Force-removes a container. A container the kernel is still tearing down (processes stuck
   * under OOM) can refuse for a while: then removal goes on in the background, with pauses,
   * and close() waits for it. If the engine is gone, the labels let sweepOrphans find it later.
   */
  async function removeContainer(container: Dockerode.Container): Promise<void> {
    if (await tryRemove(container)) return;
    const retry = (async () => {
      for (const pause of [500, 1000, 2000, 5000, 10_000, 30_000]) {
        await delay(pause);
        if (await tryRemove(container)) return;
      }
    })().finally(() => removals.delete(retry));
    removals.add(retry);
  }

  async function tryRemove(container: Dockerode.Container): Promise<boolean> {
    try {
      await container.remove({ force: true, v: true });
      return true;
    } catch (error) {
      return (error as { statusCode?: number }).statusCode === 404;
    }
  }

  function availability(tool: ToolFile, toolDir: string, _secrets: SecretsReader): Availability {
    try {
      const impl = containerImpl(tool);
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

  return {
    type: 'container',
    run,
    build,
    describeImage,
    availability,
    dockerStatus: () => status.current(),
    refreshDockerStatus: () => status.refresh(),
    async start() {
      // Probe once before the first list, so container tools do not flash "unavailable".
      await status.refresh();
      if (docker) await sweepOrphans({ docker, keep: new Set(live.keys()) });
    },
    health() {
      const { ok, reason } = status.current();
      return { name: 'docker', status: reason ? { ok, reason } : { ok } };
    },
    sweepOrphans: () => (docker ? sweepOrphans({ docker, keep: new Set(live.keys()) }) : Promise.resolve({ removed: [], failed: [] })),
    async close() {
      status.stop();
      await Promise.all([...live.values()].map((c) => removeContainer(c)));
      await Promise.all([...removals]);
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

function containerImpl(tool: ToolFile): ContainerImpl {
  const impl = (tool.impl ?? {}) as ContainerImpl;
  if (impl.image && impl.build) {
    throw invalid([{ field: 'impl', message: 'set either impl.image or impl.build, not both' }]);
  }
  if (!impl.image && impl.build !== '.') {
    throw invalid([{ field: 'impl', message: 'a container tool needs impl.image (an image name) or impl.build: "." (its folder holds a Dockerfile)' }]);
  }
  return impl;
}

/**
 * Whether the kernel's OOM killer struck. The engine learns of it by an event that can trail
 * the exit by a few milliseconds (more under load), so a SIGKILL exit (137) is asked about a few times.
 */
async function oomKilled(docker: Dockerode, container: Dockerode.Container, exitCode: number): Promise<boolean> {
  // Backing off to about a second: the flag trails the exit a little.
  const waits = exitCode === 137 ? [0, 40, 80, 160, 320, 400] : [0];
  for (const wait of waits) {
    if (wait > 0) await delay(wait);
    const state = await container.inspect().then(
      (info) => info.State,
      () => undefined,
    );
    if (state?.OOMKilled) return true;
  }
  // With cgroup v1, when the task's exit is handled before its OOM event, the state never says
  // so (moby's known race); the engine's event log still holds the "oom" event of the container.
  return exitCode === 137 && (await oomEvent(docker, container.id));
}

async function oomEvent(docker: Dockerode, id: string): Promise<boolean> {
  const since = Math.floor(Date.now() / 1000) - 3600;
  const until = Math.floor(Date.now() / 1000) + 1;
  try {
    const stream = (await docker.getEvents({ since, until, filters: { container: [id], event: ['oom'] } })) as NodeJS.ReadableStream;
    return await new Promise<boolean>((resolve) => {
      let text = '';
      const timer = setTimeout(() => {
        (stream as { destroy?: () => void }).destroy?.();
        resolve(text.includes('"oom"'));
      }, 3000);
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => {
        clearTimeout(timer);
        resolve(text.includes('"oom"'));
      });
      stream.on('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  } catch {
    return false;
  }
}

function describeMemory(impl: ContainerImpl): string {
  const memory = impl.sandbox?.memory;
  if (memory === undefined) return '256 MB';
  return typeof memory === 'number' ? `${memory} MB` : memory;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
