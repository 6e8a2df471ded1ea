/**
 * One agent's tools/call, as the agent door's `agents.call` operation answers it, in MCP's words:
 * a result (the tool's, a refusal before the run, a search-mode tool's), an approval to ask the
 * client's user for (input_required, with its signed request state), a task, or an unknown tool
 * (a JSON-RPC error, as the SDK would say it). Shared by the SDK's tools/call handler and the
 * fast paths answered before the SDK (fast-path/).
 */
import type { AgentCallAnswer } from '../../../../shared/agents/surface.js';
import type { Caller } from '../../../../shared/caller.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { InvokeStreamHooks } from '../../../core/operations/dispatch.js';
import type { AudienceRef, Via } from '../server/audience-watch.js';

export interface AgentCallRequest {
  audience: AudienceRef;
  name: string;
  arguments?: Record<string, unknown>;
  via?: Via;
  canAsk?: boolean;
  approval?: { approvalID: string; callDigest: string; action: 'accept' | 'decline' | 'cancel' | 'none'; confirm: boolean };
  task?: boolean;
  plainOnly?: boolean;
}

/** The text of an isError result: what MCP gives the model when a call did not run. */
export function errorResult(message: string): { content: { type: 'text'; text: string }[]; isError: true } {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** agents.call; a refusal of the operation itself (its input, its address) is a result the model can read. */
export async function callForAgent(core: TransportCore, request: AgentCallRequest, caller: Caller, hooks: InvokeStreamHooks = {}): Promise<AgentCallAnswer> {
  const env = await core.dispatch('agents.call', request, { caller, stream: hooks });
  return env.ok ? env.data : { kind: 'result', result: errorResult(env.error.message) };
}
