/**
 * What an upstream MCP server asks while one of its tools runs: an `elicitation/create` goes to
 * the agent's client when it declared elicitation, else to a person in the app's approvals panel
 * (an `answer` approval with the server's message and form), else it is declined with the reason.
 * A `sampling/createMessage` goes to the agent's client when it supports sampling and is refused
 * otherwise. Every wait ends with the call's own timeout.
 */
import { argsDigest } from '../../audit/record.js';
import type { ApprovalQuestion } from '../../../../shared/types.js';
import type { ApprovalStore } from '../../agents/approvals.js';
import { maskMarked } from '../../invoke/post-process.js';
import type { RunContext } from '../../invoke/types.js';
import { historyCaller, type Caller } from '../../../../shared/caller.js';

/** Where Toolwright's reason for declining travels in the elicitation result (the result has no message field). */
export const DECLINE_REASON_META_KEY = 'io.toolwright/reason';
export const SAMPLING_REFUSED = "Toolwright does not let upstream servers use the agent's model";

export interface UpstreamQuestions {
  elicit(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  sample(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface QuestionsOptions {
  ctx: RunContext;
  approvals: ApprovalStore | undefined;
  bundleSlug: string;
  /** When the call's timeout ends (Date.now() clock). */
  deadline: number;
}

function declined(reason: string): Record<string, unknown> {
  return { action: 'decline', _meta: { [DECLINE_REASON_META_KEY]: reason } };
}

function whoCalled(caller: Caller | undefined): string {
  const label = caller && historyCaller(caller);
  if (!caller || !label) return 'a schedule or a pipeline step, with nobody watching';
  if (caller.transport === 'cli') return 'the command line';
  return caller.transport === 'mcp' ? `the agent ${label.slice('mcp:'.length)}` : label;
}

function questionOf(params: Record<string, unknown>): ApprovalQuestion | undefined {
  const schema = params['requestedSchema'] as ApprovalQuestion['requestedSchema'] | undefined;
  if (params['mode'] === 'url' || !schema || typeof schema !== 'object' || typeof schema.properties !== 'object') return undefined;
  return { message: String(params['message'] ?? '').slice(0, 4000), requestedSchema: schema };
}

export function upstreamQuestions(opts: QuestionsOptions): UpstreamQuestions {
  const { ctx } = opts;
  const answerers = ctx.answerers ?? {};
  const tool = ctx.tool;
  const left = () => Math.max(0, opts.deadline - Date.now());
  return {
    async elicit(params) {
      if (answerers.elicit) return answerers.elicit(params, { signal: ctx.signal, timeoutMs: left() });
      if (!answerers.person || !opts.approvals) {
        return declined(
          `Toolwright declined: nobody can answer this question — the call came from ${whoCalled(ctx.caller)}, which cannot show it to a person. Call the tool from the Toolwright app or from an agent whose client supports elicitation.`,
        );
      }
      const question = questionOf(params);
      if (!question) return declined('Toolwright declined: only form questions (a message and a flat schema) can be shown to a person in Toolwright.');
      const timeoutMs = left();
      const { outcome, content } = await opts.approvals.ask({
        tool: {
          bundleID: tool.bundleID,
          toolID: tool.toolID,
          bundleSlug: opts.bundleSlug,
          slug: tool.slug,
          version: tool.version,
          displayName: tool.displayName,
        },
        args: maskMarked(ctx.args, tool.argSchema),
        argsDigest: argsDigest(ctx.args),
        caller: (ctx.caller && historyCaller(ctx.caller)) ?? 'app',
        question,
        timeoutMs,
        signal: ctx.signal,
      });
      if (outcome === 'approve') return { action: 'accept', content: content ?? {} };
      if (outcome === 'cancelled') return { action: 'cancel' };
      if (outcome === 'expired') return declined(`Toolwright declined: nobody answered within ${Math.round(timeoutMs / 1000)} s (the call's timeout).`);
      return declined('The person declined to answer in Toolwright.');
    },
    async sample(params) {
      if (answerers.sample) return answerers.sample(params, { signal: ctx.signal, timeoutMs: left() });
      const why =
        ctx.caller?.transport === 'mcp'
          ? `the client of ${whoCalled(ctx.caller)} does not support sampling`
          : `the call came from ${whoCalled(ctx.caller)}, which has no model to lend`;
      throw new Error(`${SAMPLING_REFUSED}: ${why}.`);
    },
  };
}
