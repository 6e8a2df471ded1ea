/**
 * One-off commands in the container sandbox (the built-in shell-exec): a named image, an argv
 * (never a shell line), folders of the host mounted where asked, the sandbox's HostConfig
 * (sandbox.ts: memory, CPUs, pids, no capabilities, read-only root, no network unless asked),
 * the runner's labels (so a crash's leftovers are swept) and its forced removal. Unlike a tool
 * container, the answer is the command's exit code and output, whatever they are.
 */
import type Dockerode from 'dockerode';
import type { CommandResult, CommandSpec } from '../../functions/services.js';
import { CoreError, isCoreError } from '../../errors.js';
import { abortError, delay, raceAbort, throwIfAborted } from '../../util/abort.js';
import type { DockerStatusSnapshot } from './docker-status.js';
import type { ImageProvider } from './images.js';
import { managedContainerOptions } from './create.js';
import { oomKilled } from './oom.js';
import { CappedSink, LineSplitter } from './output.js';
import type { ContainerRemoval } from './removal.js';
import { FALLBACK_USER, hostConfig } from './sandbox.js';

export interface CommandEngine {
  docker: Dockerode;
  images: ImageProvider;
  snapshot: DockerStatusSnapshot;
}

const ENGINE_GRACE_MS = 10_000;
const DRAIN_MS = 2_000;

/** Runs one command to its end (or its stop) and removes its container. */
export async function runCommand(
  engine: CommandEngine,
  spec: CommandSpec,
  deps: { removal: ContainerRemoval; live: Map<string, Dockerode.Container>; engineError: (e: unknown, doing: string) => CoreError },
): Promise<CommandResult> {
  const { signal } = spec;
  throwIfAborted(signal);
  const image = await raceAbort(engine.images.resolveNamed(spec.image), signal).catch((e: unknown) => {
    throw deps.engineError(e, 'prepare the image');
  });
  const config = hostConfig(spec.sandbox, { engineCpus: engine.snapshot.cpus });
  config.Binds = spec.mounts.map((m) => `${m.source}:${m.target}:${m.readOnly ? 'ro' : 'rw'}`);
  const creating = engine.docker.createContainer({
    Image: image.ref,
    Cmd: spec.argv,
    // The image's own entrypoint would wrap the argv in something we did not check.
    Entrypoint: [],
    ...(spec.workdir ? { WorkingDir: spec.workdir } : {}),
    ...(spec.user ? { User: spec.user } : image.user ? {} : { User: FALLBACK_USER }),
    Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOME=/tmp', 'LANG=C.UTF-8'],
    ...managedContainerOptions({ toolID: spec.toolID, invocationID: spec.invocationID, limitMs: spec.timeoutMs, config }),
  });
  let container: Dockerode.Container;
  try {
    container = await raceAbort(creating, signal);
  } catch (e) {
    if (signal.aborted)
      creating.then(
        (late) => deps.removal.remove(late),
        () => undefined,
      );
    if (isCoreError(e) || signal.aborted) throw isCoreError(e) ? e : abortError(signal);
    throw deps.engineError(e, 'create the container');
  }
  deps.live.set(container.id, container);
  const started = Date.now();
  let stop: CommandResult['stopped'] | 'cancelled' | undefined;
  const kill = (why: NonNullable<typeof stop>) => {
    if (stop) return;
    stop = why;
    container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
  };
  const onAbort = () => kill('cancelled');
  let timer: NodeJS.Timeout | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let stream: NodeJS.ReadableStream | undefined;
  try {
    stream = await raceAbort(container.attach({ stream: true, stdout: true, stderr: true, logs: false }), signal);
    const lines = spec.onStdout ? new LineSplitter(spec.onStdout) : undefined;
    const stdout = new CappedSink(spec.outputCapBytes, () => kill('output-cap'), lines && ((piece) => lines.write(piece)));
    const stderr = new CappedSink(spec.outputCapBytes, () => kill('output-cap'));
    const drained = new Promise<void>((resolve) => {
      stream!.on('end', resolve);
      stream!.on('close', resolve);
      stream!.on('error', () => resolve());
    });
    engine.docker.modem.demuxStream(stream, stdout, stderr);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) throw abortError(signal);
    await raceAbort(container.start(), signal);
    timer = setTimeout(() => kill('timeout'), spec.timeoutMs);
    const exit = (await Promise.race([
      container.wait(),
      new Promise((_, reject) => {
        watchdog = setTimeout(() => reject(new CoreError('TIMEOUT', 'Docker did not report the end of the command')), spec.timeoutMs + ENGINE_GRACE_MS);
      }),
    ])) as { StatusCode?: number };
    clearTimeout(timer);
    await Promise.race([drained, delay(DRAIN_MS)]);
    lines?.end();
    if (stop === 'cancelled') throw abortError(signal);
    const code = exit.StatusCode ?? -1;
    if (!stop && code === 137 && (await oomKilled(engine.docker, container, code))) stop = 'out-of-memory';
    return {
      exitCode: stop ? null : code,
      stdout: stdout.bytes().toString('utf8'),
      stderr: stderr.bytes().toString('utf8'),
      ...(stop ? { stopped: stop } : {}),
      durationMs: Date.now() - started,
    };
  } catch (e) {
    if (isCoreError(e)) throw e;
    if (stop === 'cancelled' || signal.aborted) throw abortError(signal);
    throw deps.engineError(e, 'run the command');
  } finally {
    clearTimeout(timer);
    clearTimeout(watchdog);
    signal.removeEventListener('abort', onAbort);
    (stream as { destroy?: () => void } | undefined)?.destroy?.();
    await deps.removal.remove(container);
    deps.live.delete(container.id);
  }
}
