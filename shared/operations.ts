/**
 * The operations contract: every operation's name, input schema, output type and the error
 * codes it may answer. Main validates each input against `input` (ajv) before a handler runs;
 * the preload exposes one named function per entry; the REST host maps its routes onto them;
 * the renderer's client is typed from this table, so payloads are typed end to end.
 *
 * Each domain keeps its entries in `shared/operations/<domain>.ts` (the entry's shape and the
 * pieces several share in `operations/op.ts`); this module merges them into the one table every
 * transport reads, and the compiler refuses a name two domains both define.
 */
import type { Static } from '@sinclair/typebox';
import type { ListedOpName } from './op-names.js';
import { bundlesOperations } from './operations/bundles.js';
import { toolsOperations } from './operations/tools.js';
import { runsOperations } from './operations/runs.js';
import { settingsOperations } from './operations/settings.js';
import { agentsOperations } from './operations/agents.js';
import { auditOperations } from './operations/audit.js';
import { transferOperations } from './operations/transfer.js';
import { containerFilesOperations } from './operations/container-files.js';
import { toolConfigOperations } from './operations/tool-config.js';
import { schedulesOperations } from './operations/schedules.js';
import { upstreamOperations } from './operations/upstream.js';
import { agentSurfaceOperations } from './operations/agent-surface.js';

export { ToolInput } from './operations/tools.js';
export { BundleInput } from './operations/bundles.js';

/**
 * The domains of tool types: a type that brings a service answers its own (its module's service,
 * electron/core/tool-types/type-service.ts), and the core refuses to open when one has no handler.
 */
type TypeDomains = [typeof upstreamOperations, typeof toolConfigOperations];
type Domains = [
  typeof bundlesOperations,
  typeof toolsOperations,
  typeof runsOperations,
  typeof settingsOperations,
  typeof agentsOperations,
  typeof auditOperations,
  typeof transferOperations,
  typeof containerFilesOperations,
  typeof schedulesOperations,
  ...TypeDomains,
];
/** Names defined by more than one domain; `never` when each name has one home. */
type Clashes<D extends readonly object[], Seen = never> = D extends [infer H, ...infer R extends object[]]
  ? (keyof H & Seen) | Clashes<R, Seen | keyof H>
  : never;
type NamesOf<D extends readonly object[]> = D extends [infer H, ...infer R extends object[]] ? keyof H | NamesOf<R> : never;
/** The operations a tool type's service answers; the generic handlers answer every other. */
export type TypeOpName = NamesOf<TypeDomains> & string;
/** Compile-time: no operation name is defined twice (a spread would silently keep the last). */
export const NO_NAME_CLASH: [Clashes<Domains>] extends [never] ? true : false = true;

export const operations = {
  ...bundlesOperations,
  ...toolsOperations,
  ...runsOperations,
  ...settingsOperations,
  ...agentsOperations,
  ...auditOperations,
  ...transferOperations,
  ...containerFilesOperations,
  ...toolConfigOperations,
  ...schedulesOperations,
  ...upstreamOperations,
} as const;

export type Operations = typeof operations;
export type OpName = keyof Operations;
export type OpInput<N extends OpName> = Static<Operations[N]['input']>;
export type OpOutput<N extends OpName> = NonNullable<Operations[N]['output']>;
export { OP_NAMES, opFunctionName } from './op-names.js';

/**
 * The agent door's operations (operations/agent-surface.ts): dispatched and checked like these,
 * but not offered by REST, IPC or the CLI, so they are kept beside the app's table, not in it.
 */
export const agentOperations = agentSurfaceOperations;
export type AgentOpName = keyof typeof agentOperations;
/** Every name the dispatcher answers: the contract's and the agent door's. */
export type AnyOpName = OpName | AgentOpName;
type AnyOperations = Operations & typeof agentOperations;
export type AnyOpInput<N extends AnyOpName> = Static<AnyOperations[N]['input']>;
export type AnyOpOutput<N extends AnyOpName> = NonNullable<AnyOperations[N]['output']>;
/** Compile-time: no agent-door name is also one of the contract's. */
export const NO_AGENT_NAME_CLASH: [keyof Operations & AgentOpName] extends [never] ? true : false = true;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time: op-names.ts lists exactly the operations of this table. */
export const OP_NAMES_MATCH: Same<OpName, ListedOpName> = true;

/** Events pushed from main to the renderer when the store changes (also changes made outside the app). */
export type StoreEvent =
  | { type: 'bundle.changed'; bundleID: string }
  | { type: 'bundle.removed'; bundleID: string }
  | { type: 'tool.changed'; bundleID: string; toolID: string }
  | { type: 'tool.removed'; bundleID: string; toolID: string }
  | { type: 'config.changed' }
  | { type: 'secrets.changed' }
  | { type: 'metrics.changed'; toolID: string }
  | { type: 'problems.changed' }
  | { type: 'approvals.changed' }
  | { type: 'agents.changed' }
  /** A schedule's last run or latest output changed (in any process). */
  | { type: 'schedule.changed'; scheduleID: string }
  /** A file beside a container tool's tool.json was written, renamed or deleted. */
  | { type: 'tool.files.changed'; bundleID: string; toolID: string }
  /** Lines of a running image build (batched, at most every 100 ms), in order. */
  | { type: 'build.log'; bundleID: string; toolID: string; buildID: string; lines: string[] }
  | { type: 'build.finished'; bundleID: string; toolID: string; buildID: string; ok: boolean }
  /** An upstream MCP server of this process started, stopped, failed or wrote to stderr. */
  | { type: 'upstream.changed'; bundleID: string }
  /** Something tools' availability depends on outside the store changed in this process (the Docker engine came or went). */
  | { type: 'availability.changed' }
  /** A profile's file or tokens changed (in any process). */
  | { type: 'profile.changed'; profileID: string }
  | { type: 'profile.removed'; profileID: string }
  /** The background count of the tools' context cost is done: tool and bundle views carry their counts now. */
  | { type: 'context.counted' };
