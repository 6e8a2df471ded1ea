/** Agents: who is connected, approvals, profiles and their tokens. */
import { Type } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import { ProfileInput, type CreatedProfileToken, type ProfileDetail, type ProfileSummary, type ProfileTokenInfo } from '../agents/profiles.js';
import type { Approval, ApprovalDecision, AgentConnection } from '../types.js';
import { op, IfMatch } from './op.js';

export const agentsOperations = {
  'agents.list': op<{ items: AgentConnection[] }>()({
    summary: 'Agents connected over MCP right now (any process), oldest first',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'approvals.list': op<{ items: Approval[] }>()({
    summary: 'Privileged calls from agents waiting for a yes, newest first',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'approvals.decide': op<Approval & { decision: ApprovalDecision; decidedAt: string }>()({
    summary: 'Approve or deny a waiting call, or answer (approve with content) or decline (deny) an upstream server’s question',
    input: Type.Object(
      {
        approvalID: Type.String({ maxLength: 64 }),
        decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
        /** An answer approval's form, checked against the server's requestedSchema. */
        content: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 100 })),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'],
  }),
  'profiles.list': op<{ items: ProfileSummary[] }>()({
    summary: 'Profiles (MCP addresses of their own), each with its tool count and the references that no longer exist',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'profiles.get': op<ProfileDetail>()({
    summary: 'One profile with its tools as the agent sees them (names and descriptions after overrides)',
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.put': op<{ profile: ProfileSummary; created: boolean }>()({
    summary: 'Create or replace a profile (ifModifiedAt: replace only the version read)',
    input: Type.Object(
      { profileID: Uuid, profile: ProfileInput, ifModifiedAt: Type.Optional(Type.String({ maxLength: 64 })), ifMatch: IfMatch },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'CONFLICT', 'MODIFIED_ELSEWHERE', 'NOT_FOUND'],
  }),
  'profiles.delete': op<{ deleted: true }>()({
    summary: 'Delete a profile and its tokens',
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.list': op<{ items: ProfileTokenInfo[] }>()({
    summary: "A profile's tokens: label, creation, last use and calls (never the token)",
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.create': op<CreatedProfileToken>()({
    summary: 'A new token that opens only this profile (shown once, stored hashed)',
    input: Type.Object({ profileID: Uuid, label: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.revoke': op<{ revoked: true }>()({
    summary: 'Revoke a token of a profile; it is refused at once',
    input: Type.Object({ profileID: Uuid, tokenID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;
