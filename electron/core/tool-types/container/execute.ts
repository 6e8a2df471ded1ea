/**
 * One run of a created container: stream its output (stdout line by line to ctx.emit, both
 * streams capped), wait for its exit under the timeout, and collect the result (the reply on
 * stdout, or the failure that says why there is none). Removing the container is the caller's.
 */
import type Dockerode from 'dockerode';
import type { ContainerImpl } from '../../../../shared/schemas.js';
import { CoreError, isCoreError } from '../../errors.js';
import { abortError, delay, raceAbort } from '../../util/abort.js';
import type { RunContext, RunOutput } from '../../invoke/types.js';
import { describeMemory, oomKilled } from './oom.js';
import { CappedSink, LineSplitter, parseReply, replyToOutput, stderrTail, toolErrorOnStdout, toolFailure } from './output.js';

/** After a kill the engine answers within moments; if it does not, stop waiting for it. */
const ENGINE_GRACE_MS = 10_000;
/** Output still in flight when the exit is known. */
const STREAM_DRAIN_MS = 2_000;

type StopReason = 'timeout' | 'cancelled' | 'stdout-cap' | 'stderr-cap';

export interface ExecuteOptions {
  docker: Dockerode;
  container: Dockerode.Container;
  ctx: RunContext;
  limitMs: number;
  impl: ContainerImpl;
  /** Cap of stdout and of stderr, each. */
  cap: number;
  /** Turns an engine failure into the contract's error. */
  engineError: (error: unknown, doing: string) => CoreError;
}

interface Output {
  stdout: CappedSink;
  stderr: CappedSink;
  drained: Promise<void>;
  lines: LineSplitter | undefined;
}

/** Sends the container's stdout and stderr into capped sinks; stdout lines also to a caller that streams. */
function streamOutput(docker: Dockerode, stream: NodeJS.ReadableStream, ctx: RunContext, cap: number, stop: (reason: StopReason) => void): Output {
  const { emit } = ctx;
  // The answer is still parsed from the whole stdout at the end.
  const lines = emit ? new LineSplitter((text) => emit({ type: 'chunk', text })) : undefined;
  const stdout = new CappedSink(cap, () => stop('stdout-cap'), lines && ((piece) => lines.write(piece)));
  const stderr = new CappedSink(cap, () => stop('stderr-cap'));
  const drained = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  docker.modem.demuxStream(stream, stdout, stderr);
  return { stdout, stderr, drained, lines };
}

/** The container's exit, or TIMEOUT when the engine does not report it well after the kill. */
function waitForExit(container: Dockerode.Container, limitMs: number, onWatchdog: (timer: NodeJS.Timeout) => void): Promise<{ StatusCode?: number }> {
  return Promise.race([
    container.wait(),
    new Promise((_, reject) => {
      onWatchdog(
        setTimeout(
          () => reject(new CoreError('TIMEOUT', `Docker did not report the end of the container within ${Math.round((limitMs + ENGINE_GRACE_MS) / 1000)} s.`)),
          limitMs + ENGINE_GRACE_MS,
        ),
      );
    }),
  ]) as Promise<{ StatusCode?: number }>;
}

/** What the run answers once the container ended: why it was stopped, why it failed, or its reply. */
async function collectResult(opts: ExecuteOptions, reason: StopReason | null, exit: { StatusCode?: number }, { stdout, stderr }: Output): Promise<RunOutput> {
  const { ctx, limitMs, cap, impl } = opts;
  if (reason === 'cancelled') throw abortError(ctx.signal);
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
    if (await oomKilled(opts.docker, opts.container, code)) {
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
}

export async function executeContainer(opts: ExecuteOptions): Promise<RunOutput> {
  const { docker, container, ctx, limitMs } = opts;
  const { signal } = ctx;
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
    const output = streamOutput(docker, stream, ctx, opts.cap, stop);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) throw abortError(signal);
    await raceAbort(container.start(), signal);
    timer = setTimeout(() => stop('timeout'), limitMs);
    const exit = await waitForExit(container, limitMs, (t) => (watchdog = t));
    clearTimeout(timer);
    await Promise.race([output.drained, delay(STREAM_DRAIN_MS)]);
    output.lines?.end();
    return await collectResult(opts, stopReason, exit, output);
  } catch (error) {
    if (isCoreError(error)) throw error;
    if (stopReason === 'cancelled' || signal.aborted) throw abortError(signal);
    throw opts.engineError(error, 'run the container');
  } finally {
    clearTimeout(timer);
    clearTimeout(watchdog);
    signal.removeEventListener('abort', onAbort);
    (stream as { destroy?: () => void } | undefined)?.destroy?.();
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
