/**
 * The approval round's state between a privileged call answered input_required and its retry:
 * signed by the SDK's codec, it names the approval opened in the core and the call it was asked
 * for (agents.call's `callDigest`), so the retry carries them back without anyone being able to
 * forge or move them. The core checks the rest (agent-surface/approval-round.ts).
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec } from '@modelcontextprotocol/server';

export interface ApprovalState {
  approvalID: string;
  /** The call the person is asked about: tool, version, arguments, caller and principal. */
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
