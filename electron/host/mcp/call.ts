/**
 * One agent's tools/call of one visible tool, through the `tools.invoke` operation that REST, IPC
 * and the CLI call too, so its contract and rules hold here as well. Shared by the SDK's
 * tools/call handler and the plain 2026 call answered before the SDK (plain-call.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import type { InvokeResult, InvokeStreamEvent } from '../../../shared/types.js';
import type { RunAnswerers } from '../../core/invoke/types.js';
import type { McpCore } from './scope.js';
import type { Caller } from '../../../shared/caller.js';

export interface AgentCallOptions {
  /** Aborted when the agent gives up on the call: the run is cancelled. */
  signal: AbortSignal;
  answerers: RunAnswerers;
  onProgress?: (line: string) => void;
  onEvent?: (event: InvokeStreamEvent) => void;
}

/** The run's result, or the message of a gate that refused it before a run (kill switch, switches, rate limit, arguments). */
export type AgentCallOutcome = { run: InvokeResult } | { refused: string };

export async function invokeForAgent(
  core: McpCore,
  tool: AgentTool,
  args: Record<string, unknown>,
  caller: Caller,
  opts: AgentCallOptions,
): Promise<AgentCallOutcome> {
  const f = tool.file;
  const invocationID = randomUUID();
  const onAbort = () => void core.dispatch('tools.cancel', { invocationID }, { caller });
  opts.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const env = await core.dispatch(
      'tools.invoke',
      { bundleID: f.bundleID, slug: f.slug, version: f.version, args, confirm: tool.safety === 'privileged', invocationID },
      {
        caller,
        stream: {
          ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
          ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
          answerers: opts.answerers,
        },
      },
    );
    return env.ok ? { run: env.data } : { refused: env.error.message };
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
  }
}
