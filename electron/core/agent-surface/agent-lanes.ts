/**
 * Seed 002's run policy for agents: one agent's side-effecting and privileged calls run one at a
 * time, in the order they reached the run, while its read-only calls run together (and beside
 * them). An agent is one MCP connection that has an identity of its own (a 2025 session, a stdio
 * server's connection), else one principal and client (a 2026 client, which has no session).
 *
 * Only agents' calls queue: REST, the CLI, the app, schedules and pipelines (which order their own
 * steps) run as they come. A call's place is taken once it may run — after a privileged call's
 * approval — and its wait does not count toward the tool's timeout (which bounds the run, so the
 * wait is bounded by the runs ahead of it). A call whose agent gives up while it waits (its request
 * cancelled, its connection gone) leaves the queue without running.
 */
import type { Caller } from '../../../shared/caller.js';
import { principalKey } from '../../../shared/caller.js';
import type { Safety } from '../../../shared/schemas.js';
import { cancelledError } from '../errors.js';
import type { Via } from './connections.js';

interface Lane {
  busy: boolean;
  waiting: (() => void)[];
}

/** The agent a call comes from, as a key: its connection when it has one of its own, else its principal and client. */
export function agentKey(caller: Caller, via?: Via): string {
  if (via?.connectionID) return `connection:${via.connectionID}`;
  return `principal:${principalKey(caller)}\u0000${caller.name}`;
}

/** Whether a call of this safety from this caller waits for the agent's calls before it. */
export function queues(caller: Caller, safety: Safety): boolean {
  return caller.transport === 'mcp' && safety !== 'readOnly';
}

export class AgentLanes {
  private readonly lanes = new Map<string, Lane>();

  /** Calls waiting or running, by agent (for tests and the connected-agents view). */
  depth(agent: string): number {
    const lane = this.lanes.get(agent);
    return lane ? lane.waiting.length + (lane.busy ? 1 : 0) : 0;
  }

  /**
   * The agent's turn: resolves (with the release to call once the run is over) when its earlier
   * side-effecting calls are done, at once when none is running; rejects with CANCELLED, leaving
   * the queue, when `signal` aborts while it waits.
   */
  enter(agent: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelledError());
    let lane = this.lanes.get(agent);
    if (!lane) this.lanes.set(agent, (lane = { busy: false, waiting: [] }));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.leave(agent);
    };
    if (!lane.busy) {
      lane.busy = true;
      return Promise.resolve(release);
    }
    const queued = lane;
    return new Promise<() => void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      const onAbort = () => {
        const at = queued.waiting.indexOf(turn);
        if (at >= 0) queued.waiting.splice(at, 1);
        reject(cancelledError());
      };
      queued.waiting.push(turn);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private leave(agent: string): void {
    const lane = this.lanes.get(agent);
    if (!lane) return;
    const next = lane.waiting.shift();
    if (next) next();
    else this.lanes.delete(agent);
  }
}
