/**
 * A cached answer to "can we talk to Docker?". availability() is called for every tool in a
 * list, so it must be synchronous and cheap: it reads this cache, which refreshes itself in the
 * background and on demand (before a run, when the cache says Docker is down).
 */
import type Dockerode from 'dockerode';
import type { Availability } from '../../../../shared/types.js';

export interface DockerStatusSnapshot extends Availability {
  /** Where the engine is expected: a socket path or a tcp/ssh URL. */
  endpoint: string;
  checkedAt: number | null;
  /** CPUs of the engine's host, used to clamp sandbox.cpus (Docker refuses more than it has). */
  cpus?: number;
  serverVersion?: string;
}

const PROBE_TIMEOUT_MS = 3000;
/** How often the probe's clock looks at the time; a longer gap between two looks is this process's own stall. */
const SILENCE_TICK_MS = 50;

/**
 * Rejects once the engine has been silent for `ms` of the time this process could have heard it.
 * A plain timer also counts the time the event loop was blocked (modules loading at start, the
 * search index building, a loaded machine), and then fires in the same turn as the answer that
 * came meanwhile: a host starting under load declared a healthy engine unreachable for 15 s. Gaps
 * between ticks count at most two ticks, and the verdict waits for the I/O of its turn.
 */
export function engineSilence(ms: number): { expired: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const expired = new Promise<never>((_, reject) => {
    let heard = 0;
    let last = Date.now();
    timer = setInterval(() => {
      const now = Date.now();
      heard += Math.min(now - last, 2 * SILENCE_TICK_MS);
      last = now;
      if (heard < ms) return;
      clearInterval(timer);
      immediate = setImmediate(() => reject(new Error(`no answer within ${ms / 1000} s`)));
    }, SILENCE_TICK_MS);
  });
  return {
    expired,
    cancel: () => {
      clearInterval(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

export function describeEndpoint(docker: Dockerode | null): string {
  const modem = (docker as unknown as { modem?: DockerModemLike } | null)?.modem;
  if (!modem) return process.env.DOCKER_HOST || '/var/run/docker.sock';
  if (modem.host) {
    const protocol = modem.protocol === 'https' ? 'https' : modem.protocol === 'ssh' ? 'ssh' : 'tcp';
    return `${protocol}://${modem.host}${modem.port ? `:${modem.port}` : ''}`;
  }
  if (typeof modem.socketPath === 'string') return modem.socketPath;
  return '/var/run/docker.sock';
}

/** Like describeEndpoint, but resolves the default socket docker-modem picks lazily (it may be ~/.docker/run/docker.sock). */
export async function resolveEndpoint(docker: Dockerode | null): Promise<string> {
  const modem = (docker as unknown as { modem?: DockerModemLike } | null)?.modem;
  if (modem && !modem.host && typeof modem.socketPath === 'function' && typeof modem.getSocketPath === 'function') {
    try {
      const path: unknown = await modem.getSocketPath();
      if (typeof path === 'string') return path;
    } catch {
      // fall through to the static description
    }
  }
  return describeEndpoint(docker);
}

interface DockerModemLike {
  host?: string;
  port?: string | number;
  protocol?: string;
  socketPath?: unknown;
  getSocketPath?: () => Promise<unknown> | undefined;
}

export function unreachableReason(endpoint: string, error: unknown): string {
  const err = error as { code?: string; message?: string } | undefined;
  const detail = (err?.message || String(error)).trim();
  let hint = 'Start Docker, or point DOCKER_HOST at a running engine.';
  if (err?.code === 'EACCES') hint = 'This user may not use the Docker socket; add it to the "docker" group or point DOCKER_HOST elsewhere.';
  return `Docker is not reachable at ${endpoint}: ${detail}. ${hint}`;
}

export class DockerStatus {
  private snapshot: DockerStatusSnapshot;
  private inFlight: Promise<DockerStatusSnapshot> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private endpoint: string;
  /** Why no client could be built (a malformed DOCKER_HOST): every probe answers it without asking. */
  private constructionError: unknown = null;

  /**
   * `connect` builds the engine client on the first probe (dockerode is loaded then, not by every
   * process that opens the core); it rejects when the environment names no usable engine.
   */
  constructor(
    private readonly connect: () => Promise<Dockerode>,
    private readonly refreshMs: number,
    given: Dockerode | null = null,
    /** The engine came or went (ok flipped): container tools' availability changed with it. */
    private readonly onChange?: (ok: boolean) => void,
    private readonly probeTimeoutMs = PROBE_TIMEOUT_MS,
  ) {
    const endpoint = describeEndpoint(given);
    this.endpoint = endpoint;
    this.snapshot = { ok: false, reason: `Docker at ${endpoint} has not been checked yet`, endpoint, checkedAt: null };
  }

  current(): DockerStatusSnapshot {
    return this.snapshot;
  }

  /** Starts background refreshing; the timer never keeps the process alive. */
  start(): void {
    if (this.timer || this.constructionError) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Probes now (sharing a probe already under way). Never throws. */
  refresh(): Promise<DockerStatusSnapshot> {
    if (this.constructionError) return Promise.resolve(this.snapshot);
    this.inFlight ??= this.connect()
      .then(
        (docker) => this.probe(docker),
        (error: unknown) => {
          this.constructionError = error;
          this.stop();
          this.adopt({ ok: false, reason: unreachableReason(this.endpoint, error), endpoint: this.endpoint, checkedAt: Date.now() });
          return this.snapshot;
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /** A call to the engine failed in a way that means it is gone: say so until the next probe. */
  markUnreachable(error: unknown): void {
    const endpoint = this.endpoint;
    this.adopt({ ok: false, reason: unreachableReason(endpoint, error), endpoint, checkedAt: Date.now() });
  }

  private adopt(next: DockerStatusSnapshot): void {
    const flipped = next.ok !== this.snapshot.ok;
    this.snapshot = next;
    if (flipped) this.onChange?.(next.ok);
  }

  private async probe(docker: Dockerode): Promise<DockerStatusSnapshot> {
    this.endpoint = await resolveEndpoint(docker);
    const silence = engineSilence(this.probeTimeoutMs);
    try {
      const info = (await Promise.race([docker.info(), silence.expired])) as { NCPU?: number; ServerVersion?: string };
      this.adopt({
        ok: true,
        endpoint: this.endpoint,
        checkedAt: Date.now(),
        ...(typeof info.NCPU === 'number' ? { cpus: info.NCPU } : {}),
        ...(typeof info.ServerVersion === 'string' ? { serverVersion: info.ServerVersion } : {}),
      });
    } catch (error) {
      this.markUnreachable(error);
    } finally {
      silence.cancel();
    }
    return this.snapshot;
  }
}

/** Errors that mean the engine itself cannot be reached (as opposed to a refused request). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ENOENT' ||
    code === 'EACCES' ||
    code === 'ECONNRESET' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENOTFOUND' ||
    code === 'ETIMEDOUT' ||
    code === 'EPIPE'
  );
}
