/**
 * The sandbox every tool container runs in, as Docker HostConfig. Defaults are strict; a tool
 * may ask for more memory, CPUs, a bridge network or a writable root, nothing else.
 */
import type Dockerode from 'dockerode';
import type { ContainerImpl, Sandbox } from '../../../../shared/schemas.js';
import { invalid } from '../../errors.js';
import { CONTAINER_DEFAULTS } from '../../../../shared/tool-types/container.js';

export const DEFAULT_MEMORY_BYTES = 256 * 1024 * 1024;
/** Docker refuses less than 6 MB. */
const MIN_MEMORY_BYTES = 6 * 1024 * 1024;
const MAX_MEMORY_BYTES = 64 * 1024 * 1024 * 1024;
export const DEFAULT_PIDS_LIMIT = 64;
export const DEFAULT_CPUS = CONTAINER_DEFAULTS.cpus;
export const DEFAULT_TIMEOUT_SECONDS = CONTAINER_DEFAULTS.timeoutSeconds;
/**
 * /tmp is always a small tmpfs (it counts against the memory cap). On a read-only root it is
 * noexec too, so a tool cannot drop and run new code in a sandbox whose image is otherwise
 * immutable; a tool that needs that asks for `writable`.
 */
export const TMPFS_OPTIONS = 'rw,noexec,nosuid,nodev,size=16m,mode=1777';
export const WRITABLE_TMPFS_OPTIONS = 'rw,exec,nosuid,nodev,size=16m,mode=1777';
/** The user of images that do not declare one: "nobody", so nothing runs as root by accident. */
export const FALLBACK_USER = '65534:65534';

const UNITS: Record<string, number> = { '': 1024 * 1024, k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 };

/**
 * sandbox.memory in bytes. A number means megabytes; a string may carry a unit (k, m, g, with an
 * optional b). A unit-less string is read as megabytes too, like the number form.
 */
export function memoryBytes(memory: Sandbox['memory']): number {
  if (memory === undefined) return DEFAULT_MEMORY_BYTES;
  let bytes: number;
  if (typeof memory === 'number') {
    bytes = memory * 1024 * 1024;
  } else {
    const match = /^([0-9]+(?:\.[0-9]+)?)([kKmMgG]?)[bB]?$/.exec(memory.trim());
    if (!match) throw invalid([{ field: 'impl.sandbox.memory', message: `"${memory}" is not a size; write e.g. 256, "256m" or "1g"` }]);
    bytes = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1);
  }
  bytes = Math.floor(bytes);
  if (!Number.isFinite(bytes) || bytes < MIN_MEMORY_BYTES || bytes > MAX_MEMORY_BYTES) {
    throw invalid([{ field: 'impl.sandbox.memory', message: `memory must be between 6 MB and 64 GB (got ${String(memory)})` }]);
  }
  return bytes;
}

export function timeoutMs(impl: ContainerImpl): number {
  const seconds = impl.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (!(seconds > 0)) throw invalid([{ field: 'impl.timeoutSeconds', message: 'timeoutSeconds must be a positive number' }]);
  return Math.round(seconds * 1000);
}

export interface HostLimits {
  /** CPUs of the engine's host, when known: Docker refuses a NanoCpus above it. */
  engineCpus?: number | undefined;
}

export function hostConfig(sandbox: Sandbox | undefined, limits: HostLimits = {}): Dockerode.HostConfig {
  const memory = memoryBytes(sandbox?.memory);
  let cpus = sandbox?.cpus ?? DEFAULT_CPUS;
  if (!(cpus > 0)) throw invalid([{ field: 'impl.sandbox.cpus', message: 'cpus must be a positive number' }]);
  if (limits.engineCpus && cpus > limits.engineCpus) cpus = limits.engineCpus;
  const writable = sandbox?.writable === true;
  const network = sandbox?.network ?? 'none';
  if (network !== 'none' && network !== 'bridge') {
    throw invalid([{ field: 'impl.sandbox.network', message: 'network must be "none" or "bridge"' }]);
  }
  return {
    Memory: memory,
    // Equal to Memory: no swap, so the cap is a real cap.
    MemorySwap: memory,
    PidsLimit: DEFAULT_PIDS_LIMIT,
    NanoCpus: Math.round(cpus * 1e9),
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Privileged: false,
    ReadonlyRootfs: !writable,
    Tmpfs: { '/tmp': writable ? WRITABLE_TMPFS_OPTIONS : TMPFS_OPTIONS },
    NetworkMode: network,
    ShmSize: 16 * 1024 * 1024,
    // Output is read through attach; a json-file log would only duplicate it on the host's disk.
    LogConfig: { Type: 'none', Config: {} },
    // We remove the container ourselves after reading its exit state (OOMKilled needs an inspect).
    AutoRemove: false,
    Init: false,
  };
}
