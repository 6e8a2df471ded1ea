/**
 * The agent door: what an agent does over MCP, as operations of the one dispatcher — the tools an
 * address offers, a call (direct, in search mode, as a task, with its approval round), its tasks,
 * the schedule outputs and card apps it may read, and its place in the connected-agents list.
 * Every input is checked here like any other operation's, and every operation takes the caller
 * the transport built (shared/caller.ts): tasks and approvals are bound to its principal.
 *
 * These are not part of the app's contract (shared/operations.ts): REST, IPC and the CLI do not
 * offer them, and the dispatcher refuses them from any caller but an agent's.
 */
import { Type } from '@sinclair/typebox';
import type { AgentCallAnswer, AgentResources, AgentScheduleLatest, AgentSurfaceView, AgentTaskView } from '../agents/surface.js';
import { Uuid } from '../schema-primitives.js';
import { op } from './op.js';

/** An address: some bundles by slug (none: every tool), or a profile by slug. Slugs that exist nowhere match nothing. */
const Audience = Type.Object(
  {
    bundles: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1000 })),
    profile: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

/** Where an agent's request came from, for the connected-agents list: its channel and its session's connection. */
const Via = Type.Object(
  { channel: Type.Union([Type.Literal('stdio'), Type.Literal('http')]), connectionID: Type.Optional(Uuid) },
  { additionalProperties: false },
);

const TaskRef = { audience: Audience, taskId: Type.String({ maxLength: 1024 }) };

export const agentSurfaceOperations = {
  'agents.surface': op<AgentSurfaceView>()({
    summary: 'What tools/list holds at an address (a search-mode profile: its three tools), its mode, instructions and revisions',
    input: Type.Object({ audience: Audience, via: Type.Optional(Via) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.call': op<AgentCallAnswer>()({
    summary:
      "An agent's tools/call at an address: the tool run through tools.invoke, a search-mode tool answered, an approval asked or answered, or a task started",
    input: Type.Object(
      {
        audience: Audience,
        name: Type.String({ maxLength: 65536 }),
        arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        via: Type.Optional(Via),
        canAsk: Type.Optional(Type.Boolean()),
        approval: Type.Optional(
          Type.Object(
            {
              approvalID: Type.String({ maxLength: 64 }),
              callDigest: Type.String({ maxLength: 128 }),
              action: Type.Union([Type.Literal('accept'), Type.Literal('decline'), Type.Literal('cancel'), Type.Literal('none')]),
              confirm: Type.Boolean(),
            },
            { additionalProperties: false },
          ),
        ),
        task: Type.Optional(Type.Boolean()),
        plainOnly: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.tasks.get': op<AgentTaskView>()({
    summary: 'A task this caller started at this address (another principal’s is answered as one that never existed)',
    input: Type.Object(TaskRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.tasks.update': op<Record<string, never>>()({
    summary: "The answer to the approval a task of this caller waits on (tasks/update's inputResponses.approve)",
    input: Type.Object(
      {
        ...TaskRef,
        answer: Type.Object(
          {
            action: Type.Union([Type.Literal('accept'), Type.Literal('decline'), Type.Literal('cancel'), Type.Literal('none')]),
            confirm: Type.Boolean(),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'],
  }),
  'agents.tasks.cancel': op<Record<string, never>>()({
    summary: 'Cancel a task this caller started at this address',
    input: Type.Object(TaskRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'],
  }),
  'agents.resources': op<AgentResources>()({
    summary: 'The schedule outputs and card apps an address offers, with their revision',
    input: Type.Object({ audience: Audience }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.scheduleLatest': op<AgentScheduleLatest>()({
    summary: 'The latest output of a schedule of a tool this address offers',
    input: Type.Object({ audience: Audience, scheduleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.door': op<{ exists: boolean; tokenID?: string; requiredScope?: string }>()({
    summary: "A profile's door: whether it exists, which of its tokens a bearer is (when one is given and it is one), and the OAuth scope its address needs",
    input: Type.Object(
      { profile: Type.String({ minLength: 1, maxLength: 1024 }), token: Type.Optional(Type.String({ maxLength: 8192 })) },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'agents.connect': op<{ connectionID: string }>()({
    summary: "An agent's connection began (a 2025 session, a stdio connection): it is listed among the connected agents until it ends",
    input: Type.Object({ channel: Type.Union([Type.Literal('stdio'), Type.Literal('http')]) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'agents.disconnect': op<Record<string, never>>()({
    summary: "An agent's connection ended",
    input: Type.Object({ connectionID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;
