/**
 * Removal of tool containers left behind by a process that died mid-invocation. Several
 * Toolwright processes may share one engine (the desktop app and the headless host), so a
 * container is only swept when it is certainly abandoned: its deadline has passed (no
 * invocation outlives its timeout), or its owner is a process on this host that no longer runs.
 */
import os from 'node:os';
import type Dockerode from 'dockerode';
import { LABEL_DEADLINE, LABEL_OWNER, MANAGED_FILTER } from './labels.js';

export interface SweepOptions {
  docker?: Dockerode;
  /** For tests: the current time. */
  now?: number;
  /** Containers of this process that are still in use; never swept. */
  keep?: ReadonlySet<string>;
}

export interface SweepResult {
  removed: string[];
  /** Containers that matched but could not be removed, with why. */
  failed: { id: string; reason: string }[];
}

export function ownerLabel(): string {
  return `${os.hostname()}/${process.pid}`;
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function isAbandoned(labels: Record<string, string> | undefined, now: number, host = os.hostname()): boolean {
  const deadline = Number(labels?.[LABEL_DEADLINE]);
  if (Number.isFinite(deadline) && deadline > 0 && deadline < now) return true;
  const owner = labels?.[LABEL_OWNER] ?? '';
  const slash = owner.lastIndexOf('/');
  if (slash <= 0) return !Number.isFinite(deadline);
  const ownerHost = owner.slice(0, slash);
  const pid = Number(owner.slice(slash + 1));
  if (ownerHost !== host || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  return processIsGone(pid);
}

/** Removes abandoned tool containers (found by label). Never throws. */
export async function sweepOrphans(options: SweepOptions = {}): Promise<SweepResult> {
  const result: SweepResult = { removed: [], failed: [] };
  let docker: Dockerode;
  try {
    // Without options dockerode reads DOCKER_HOST, like the runner.
    docker = options.docker ?? new (await import('dockerode')).default();
  } catch (error) {
    result.failed.push({ id: '*', reason: (error as Error).message });
    return result;
  }
  const now = options.now ?? Date.now();
  let containers: Dockerode.ContainerInfo[];
  try {
    containers = await docker.listContainers({ all: true, filters: { label: [MANAGED_FILTER] } });
  } catch (error) {
    result.failed.push({ id: '*', reason: (error as Error).message });
    return result;
  }
  await Promise.all(
    containers
      .filter((c) => !options.keep?.has(c.Id) && isAbandoned(c.Labels, now))
      .map(async (c) => {
        try {
          await docker.getContainer(c.Id).remove({ force: true });
          result.removed.push(c.Id);
        } catch (error) {
          if ((error as { statusCode?: number }).statusCode === 404) result.removed.push(c.Id);
          else result.failed.push({ id: c.Id, reason: (error as Error).message });
        }
      }),
  );
  return result;
}
