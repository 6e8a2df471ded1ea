/**
 * A person's yes before an agent runs a privileged tool, in either protocol era.
 *
 * A client that can ask its user (elicitation) is answered `ask`: an approval opened in
 * `<data>/approvals/` and the digest of the exact call (tool, version, arguments, caller and the
 * principal it speaks for), which its transport carries in a signed request state; its retry
 * brings the person's answer (or the app panel's decision wins, when a person gave one there
 * first). The approval is settled once, under its lock, so a replayed answer, a forged state, a
 * retry with other arguments or by another principal runs nothing. A client that cannot ask waits
 * inside its request for the app's panel, with progress.
 */
import { createHash } from 'node:crypto';
import { callerLabel, principalKey, type Caller } from '../../../shared/caller.js';
import { sortedKeysJson } from '../../../shared/canonical.js';
import type { AgentApprovalForm } from '../../../shared/agents/surface.js';
import type { AgentTool } from '../agents/agent-tools.js';
import type { ApprovalOutcome, ApprovalStore, CallBinding } from '../agents/approvals.js';
import { argsDigest } from '../audit/record.js';
import { isCoreError } from '../errors.js';
import { maskMarked } from '../invoke/post-process.js';

export type RoundApprovals = Pick<ApprovalStore, 'open' | 'ask' | 'settle' | 'state' | 'decide'>;

/** A client's answer to an `ask`, as its retry carries it (the request state its transport verified). */
export interface ApprovalAnswer {
  approvalID: string;
  /** The call the approval was asked for, as `ask` named it. */
  callDigest: string;
  /** What the person did with the form: accepted (with `confirm`), declined, dismissed, or nothing readable. */
  action: 'accept' | 'decline' | 'cancel' | 'none';
  confirm: boolean;
}

export type ApprovalForm = AgentApprovalForm;

export type ApprovalRound =
  { kind: 'run' } | { kind: 'refused'; message: string } | { kind: 'ask'; approvalID: string; callDigest: string; form: ApprovalForm };

export function callDigest(tool: AgentTool, args: Record<string, unknown>, caller: Caller): string {
  return createHash('sha256')
    .update(sortedKeysJson([tool.file.toolID, tool.file.version, args, callerLabel(caller), principalKey(caller)]))
    .digest('base64url');
}

/** The call an approval must have been asked for: tool, version, the exact arguments' digest, the caller and its principal. */
export function callBinding(tool: AgentTool, args: Record<string, unknown>, caller: Caller): CallBinding {
  return { toolID: tool.file.toolID, version: tool.file.version, argsDigest: argsDigest(args), caller: callerLabel(caller), principal: principalKey(caller) };
}

/** What a person is asked about: the tool in words, the approval file's tool, the arguments with secrets masked, and the form to answer. */
export function approvalSubject(tool: AgentTool, args: Record<string, unknown>) {
  const f = tool.file;
  const what = `${f.displayName || f.slug} (${tool.bundle.slug}/${f.slug}@${f.version})`;
  const masked = maskMarked(args, f.argSchema);
  const toolRef = { bundleID: f.bundleID, toolID: f.toolID, bundleSlug: tool.bundle.slug, slug: f.slug, version: f.version, displayName: f.displayName };
  const form: ApprovalForm = {
    message: `Toolwright: ${what} is privileged. Run it with these arguments?\n${JSON.stringify(masked, null, 2)}`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Run it', description: `Run ${what} now` } },
      required: ['confirm'],
    },
  };
  return { what, masked, toolRef, form };
}

/** Opens an approval for this call, asked by this caller: what a client that asks its user, or a task, waits on. */
export function openApproval(
  approvals: RoundApprovals,
  tool: AgentTool,
  args: Record<string, unknown>,
  caller: Caller,
  timeoutSeconds: number,
): Promise<string> {
  const { masked, toolRef } = approvalSubject(tool, args);
  return approvals.open({
    tool: toolRef,
    args: masked,
    argsDigest: argsDigest(args),
    caller: callerLabel(caller),
    principal: principalKey(caller),
    timeoutMs: timeoutSeconds * 1000,
  });
}

export interface RoundOptions {
  approvals: RoundApprovals;
  timeoutSeconds: number;
  /** The retry's answer to an earlier `ask`. */
  answer?: ApprovalAnswer;
  /** The client can show its user a form (elicitation). */
  canAsk: boolean;
  /** The agent gave up on the call. */
  signal?: AbortSignal;
  /** Called about once a second while the call waits for a person in the app. */
  onWait?: (leftMs: number) => void;
}

export async function approvalRound(tool: AgentTool, args: Record<string, unknown>, caller: Caller, o: RoundOptions): Promise<ApprovalRound> {
  const { what, masked, toolRef, form } = approvalSubject(tool, args);
  const refused = (outcome: ApprovalOutcome, how: string): ApprovalRound => ({
    kind: 'refused',
    message:
      outcome === 'expired'
        ? `Nobody approved ${what} within ${o.timeoutSeconds} s, so it counts as denied; it did not run.`
        : outcome === 'cancelled'
          ? `The call to ${what} was cancelled while it waited for approval; it did not run.`
          : how,
  });

  if (o.answer) {
    if (o.answer.callDigest !== callDigest(tool, args, caller)) {
      return {
        kind: 'refused',
        message: `This approval was given for another call (other arguments, another caller, or another version of ${what}); nothing ran. Call the tool again to ask for this one.`,
      };
    }
    const yes = o.answer.action === 'accept' && o.answer.confirm;
    let outcome: ApprovalOutcome;
    try {
      outcome = await o.approvals.settle(o.answer.approvalID, yes ? 'approve' : 'deny', callBinding(tool, args, caller));
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
        message: `The approval to run ${what} expired (a request lapses after ${o.timeoutSeconds} s unanswered, a yes after config approvalTtlSeconds); it did not run. Call the tool again to ask anew.`,
      };
    }
    if (outcome === 'approve') return { kind: 'run' };
    const how = o.answer.action === 'cancel' ? 'dismissed' : 'declined';
    return refused(
      outcome,
      yes ? `A person denied the request to run ${what} in Toolwright; it did not run.` : `The person ${how} the request to run ${what}; it did not run.`,
    );
  }

  if (o.canAsk) {
    const approvalID = await openApproval(o.approvals, tool, args, caller, o.timeoutSeconds);
    return { kind: 'ask', approvalID, callDigest: callDigest(tool, args, caller), form };
  }

  const { outcome } = await o.approvals.ask({
    tool: toolRef,
    args: masked,
    argsDigest: argsDigest(args),
    caller: callerLabel(caller),
    principal: principalKey(caller),
    timeoutMs: o.timeoutSeconds * 1000,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onWait ? { onWait: o.onWait } : {}),
  });
  if (outcome === 'approve') return { kind: 'run' };
  return refused(outcome, `A person denied the request to run ${what} in Toolwright; it did not run.`);
}
