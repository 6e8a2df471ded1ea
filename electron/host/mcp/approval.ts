/**
 * A person's yes before an agent runs a privileged tool, in either protocol era.
 *
 * A client that can ask its user (elicitation) gets an input-required result: the approval
 * request, and a signed `requestState` naming an approval opened in `<data>/approvals/` and the
 * digest of the exact call. Its retry carries the person's answer (or the app panel's decision
 * wins, when a person gave one there first); the approval is settled once, under its lock, so a
 * replayed answer, a forged state or a retry with other arguments runs nothing. On 2025 sessions
 * the SDK turns the same result into an `elicitation/create` request and calls back with the
 * answer. A client that cannot ask waits inside its request for the app's panel, with progress.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { maskMarked } from '../../core/invoke/post-process.js';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import type { ApprovalOutcome, CallBinding } from '../../core/agents/approvals.js';
import { argsDigest } from '../../core/audit/record.js';
import { isCoreError } from '../../core/errors.js';
import type { McpCore } from './scope.js';
import { progressOf } from './progress.js';
import { sortedKeysJson } from '../../../shared/canonical.js';
import { callerLabel, principalKey, type Caller } from '../../../shared/caller.js';

interface ApprovalState {
  approvalID: string;
  /** The call the person is asked about: tool, version and arguments. */
  call: string;
}

/** Longer than any approval timeout a person can set; the approval file's own expiry decides first. */
const STATE_TTL_SECONDS = 24 * 60 * 60;

/**
 * The key lives in this process only: a state from before a restart is refused as expired, and the
 * client asks again. Bound to the method, so a state minted for tools/call is good for nothing else.
 */
export const requestStateCodec = createRequestStateCodec<ApprovalState>({
  key: randomBytes(32),
  ttlSeconds: STATE_TTL_SECONDS,
  bind: (ctx) => ctx.mcpReq.method,
});

function callDigest(tool: AgentTool, args: Record<string, unknown>, caller: Caller): string {
  return createHash('sha256')
    .update(sortedKeysJson([tool.file.toolID, tool.file.version, args, callerLabel(caller), principalKey(caller)]))
    .digest('base64url');
}

/** The call an approval must have been asked for: tool, version, the exact arguments' digest and the caller. */
export function callBinding(tool: AgentTool, args: Record<string, unknown>, caller: Caller): CallBinding {
  return { toolID: tool.file.toolID, version: tool.file.version, argsDigest: argsDigest(args), caller: callerLabel(caller) };
}

function clientCapabilities(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  // RequestMetaEnvelope is published as `{}`: index it by the key. A 2025 session has no envelope.
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  return (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}

export type ApprovalGate = { kind: 'run' } | { kind: 'refused'; message: string } | { kind: 'ask'; result: InputRequiredResult };

/** What a person is asked about: the tool in words, the approval file's tool, the arguments with secrets masked, and the form to answer. */
export function approvalSubject(tool: AgentTool, args: Record<string, unknown>) {
  const f = tool.file;
  const what = `${f.displayName || f.slug} (${tool.bundle.slug}/${f.slug}@${f.version})`;
  const masked = maskMarked(args, f.argSchema);
  const toolRef = { bundleID: f.bundleID, toolID: f.toolID, bundleSlug: tool.bundle.slug, slug: f.slug, version: f.version, displayName: f.displayName };
  const elicit = {
    message: `Toolwright: ${what} is privileged. Run it with these arguments?\n${JSON.stringify(masked, null, 2)}`,
    requestedSchema: {
      type: 'object' as const,
      properties: { confirm: { type: 'boolean' as const, title: 'Run it', description: `Run ${what} now` } },
      required: ['confirm'],
    },
  };
  return { what, masked, toolRef, elicit };
}

export async function approvalGate(
  core: McpCore,
  server: Server,
  tool: AgentTool,
  args: Record<string, unknown>,
  caller: Caller,
  ctx: ServerContext,
): Promise<ApprovalGate> {
  const { what, masked, toolRef, elicit } = approvalSubject(tool, args);
  const timeoutSeconds = core.config.get().approvalTimeoutSeconds;
  const refused = (outcome: ApprovalOutcome, how: string): ApprovalGate => ({
    kind: 'refused',
    message:
      outcome === 'expired'
        ? `Nobody approved ${what} within ${timeoutSeconds} s, so it counts as denied; it did not run.`
        : outcome === 'cancelled'
          ? `The call to ${what} was cancelled while it waited for approval; it did not run.`
          : how,
  });

  const state = ctx.mcpReq.requestState<ApprovalState>();
  if (state) {
    if (state.call !== callDigest(tool, args, caller)) {
      return {
        kind: 'refused',
        message: `This approval was given for another call (other arguments, another caller, or another version of ${what}); nothing ran. Call the tool again to ask for this one.`,
      };
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'approve');
    const yes = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.['confirm'] === true;
    let outcome: ApprovalOutcome;
    try {
      outcome = await core.approvals.settle(state.approvalID, yes ? 'approve' : 'deny', callBinding(tool, args, caller));
    } catch (e) {
      if (isCoreError(e) && e.code === 'NOT_FOUND') {
        return { kind: 'refused', message: `This approval was already used or has lapsed, so ${what} did not run again. Call the tool again to ask anew.` };
      }
      if (isCoreError(e) && e.code === 'CONFLICT') return { kind: 'refused', message: `${e.message} Nothing ran.` };
      throw e;
    }
    if (outcome === 'expired') {
      return {
        kind: 'refused',
        message: `The approval to run ${what} expired (a request lapses after ${timeoutSeconds} s unanswered, a yes after config approvalTtlSeconds); it did not run. Call the tool again to ask anew.`,
      };
    }
    if (outcome === 'approve') return { kind: 'run' };
    const how = answer.kind === 'elicit' && answer.action === 'cancel' ? 'dismissed' : 'declined';
    return refused(
      outcome,
      yes ? `A person denied the request to run ${what} in Toolwright; it did not run.` : `The person ${how} the request to run ${what}; it did not run.`,
    );
  }

  if (clientCapabilities(server, ctx)?.elicitation) {
    const approvalID = await core.approvals.open({
      tool: toolRef,
      args: masked,
      argsDigest: argsDigest(args),
      caller: callerLabel(caller),
      timeoutMs: timeoutSeconds * 1000,
    });
    return {
      kind: 'ask',
      result: inputRequired({
        inputRequests: {
          approve: inputRequired.elicit(elicit),
        },
        requestState: await requestStateCodec.mint({ approvalID, call: callDigest(tool, args, caller) }, ctx),
      }),
    };
  }

  const report = progressOf(ctx);
  const { outcome } = await core.approvals.ask({
    tool: toolRef,
    args: masked,
    argsDigest: argsDigest(args),
    caller: callerLabel(caller),
    timeoutMs: timeoutSeconds * 1000,
    signal: ctx.mcpReq.signal,
    // Progress keeps clients' request timeouts from ending a call that waits for a person.
    ...(report ? { onWait: (leftMs: number) => void report(`waiting for approval in Toolwright (${Math.ceil(leftMs / 1000)} s left)`) } : {}),
  });
  if (outcome === 'approve') return { kind: 'run' };
  return refused(outcome, `A person denied the request to run ${what} in Toolwright; it did not run.`);
}
