/**
 * Long runs as tasks: the `io.modelcontextprotocol/tasks` extension, server side (the SDK has
 * none). A 2026 client that declares the extension on a `tools/call` gets a task at once
 * (`resultType: "task"`) and the call runs on in this process, whatever becomes of the request or
 * the connection; `tasks/get` polls it, `tasks/update` answers its approval, `tasks/cancel` stops
 * it — from any connection or process on the data folder, since the task is a file
 * (core/agents/tasks.ts), its run is in the invocations registry (a cancel reaches the owner as a
 * cancel file), and its approval is an approval file the app's panel may answer as well.
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { CancelTaskRequestV2Schema, GetTaskRequestV2Schema, TASKS_EXTENSION_ID_V2, hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { isCoreError, toApiError } from '../../core/errors.js';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import type { ApprovalOutcome } from '../../core/agents/approvals.js';
import { TaskStore, type TaskRecord } from '../../core/agents/tasks.js';
import { delay } from '../../core/util/abort.js';
import { DEFAULT_TASK_RESULT_TTL_SECONDS } from '../../../shared/schemas.js';
import { approvalSubject, callBinding } from './approval.js';
import { errorResult, toCallResult } from './describe.js';
import { scopeKey, type McpCore, type McpScope } from './scope.js';
import { callerLabel, type Caller } from '../../../shared/caller.js';

/** How often a client should poll, and how often the owner looks for a cancel or an answer. */
const POLL_INTERVAL_MS = 250;
/** Expired tasks of other processes are swept at most this often. */
const SWEEP_EVERY_MS = 60_000;

interface Runtime {
  store: TaskStore;
  running: Set<Promise<void>>;
  lastSweep: number;
}

const runtimes = new WeakMap<object, Runtime>();

function runtimeOf(core: McpCore): Runtime {
  let rt = runtimes.get(core);
  if (!rt) {
    rt = { store: new TaskStore(core.paths.tasksDir), running: new Set(), lastSweep: 0 };
    runtimes.set(core, rt);
  }
  return rt;
}

/** Settles once every task this process runs has finished: a stdio server waits for it before it exits. */
export async function tasksSettled(core: McpCore): Promise<void> {
  const rt = runtimes.get(core);
  while (rt?.running.size) await Promise.allSettled([...rt.running]);
}

export interface McpTasks {
  /** Whether this tools/call asked for a task: a 2026 client that declares the extension on it. */
  asked(ctx: ServerContext): boolean;
  /** Starts the call as a task and answers the task at once. */
  start(tool: AgentTool, args: Record<string, unknown>, caller: Caller, ctx: ServerContext): Promise<never>;
}

const NO_TASKS: McpTasks = {
  asked: () => false,
  start: () => Promise.reject(new Error('tasks are served to 2026-07-28 clients only')),
};

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** The task as tasks/get answers it (DetailedTask of the extension). */
function view(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    ...(task.status === 'input_required' ? { inputRequests: task.inputRequests ?? {} } : {}),
    ...(task.status === 'completed' ? { result: task.result ?? {} } : {}),
    ...(task.status === 'failed' ? { error: task.error ?? { code: -32603, message: 'the task failed' } } : {}),
  };
}

/** Serves tasks on this server when it speaks 2026-07-28; a 2025 server gets none. */
export function registerTasks(server: Server, core: McpCore, scope: McpScope, era: 'legacy' | 'modern'): McpTasks {
  if (era !== 'modern') return NO_TASKS;
  const rt = runtimeOf(core);
  const audience = scopeKey(scope.bundles);
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID_V2]: {} } });

  const lookup = async (taskId: string): Promise<TaskRecord> => {
    const task = await rt.store.get(taskId);
    if (!task) throw invalid(`Unknown task ${taskId}: there is no such task, or it ended more than its ttlMs ago and its result expired and was removed`);
    if (task.audience !== audience) throw invalid(`Task ${taskId} was started on another MCP audience (another /mcp?bundles= scope); ask for it there`);
    return task;
  };

  server.setRequestHandler('tasks/get', { params: GetTaskRequestV2Schema.shape.params }, async (params) => view(await lookup(params.taskId)) as never);

  // The SDK lifts inputResponses out of the params into ctx.mcpReq.inputResponses: the params hold the taskId only.
  server.setRequestHandler('tasks/update', { params: GetTaskRequestV2Schema.shape.params }, async (params, ctx) => {
    const task = await lookup(params.taskId);
    if (task.inputAnswered) throw invalid(`Task ${task.taskId} already has its answer; nothing runs twice`);
    if (task.status !== 'input_required' || !task.approvalID) throw invalid(`Task ${task.taskId} is ${task.status} and asks for no input`);
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'approve');
    if (answer.kind !== 'elicit')
      throw invalid(`Task ${task.taskId} asks for inputResponses.approve: {"action": "accept"|"decline"|"cancel", "content": {"confirm": true|false}}`);
    const yes = answer.action === 'accept' && answer.content?.['confirm'] === true;
    try {
      await core.approvals.decide(task.approvalID, yes ? 'approve' : 'deny', undefined, task.caller);
    } catch (e) {
      if (isCoreError(e) && (e.code === 'CONFLICT' || e.code === 'NOT_FOUND'))
        throw invalid(`Task ${task.taskId} already has its answer (${e.message}); nothing runs twice`);
      throw e;
    }
    await rt.store.update(task.taskId, (t) =>
      t.status === 'input_required' ? { status: 'working', inputAnswered: true, inputRequests: undefined } : undefined,
    );
    return {} as never;
  });

  server.setRequestHandler('tasks/cancel', { params: CancelTaskRequestV2Schema.shape.params }, async (params) => {
    const task = await lookup(params.taskId);
    const updated = await rt.store.update(task.taskId, () => ({
      status: 'cancelled',
      statusMessage: 'cancelled by a client',
      inputRequests: undefined,
    }));
    if (!updated) throw invalid(`Unknown task ${task.taskId}: it expired and was removed meanwhile`);
    if (!updated.changed) throw invalid(`Task ${task.taskId} already ${updated.task.status}; a finished task cannot be cancelled`);
    // The owner also sees the cancelled status on its next look; this stops the run at once where it is registered.
    await core.invocations.cancel(task.invocationID).catch(() => undefined);
    return {} as never;
  });

  return {
    asked: (ctx) => hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} }),
    async start(tool, args, caller, ctx) {
      if (Date.now() - rt.lastSweep > SWEEP_EVERY_MS) {
        rt.lastSweep = Date.now();
        void rt.store.sweep().catch((e: unknown) => core.logger.warn(`tasks: sweeping expired tasks: ${String(e)}`));
      }
      const ttlSeconds = core.config.get().taskResultTtlSeconds ?? DEFAULT_TASK_RESULT_TTL_SECONDS;
      const task = await rt.store.create({
        taskId: randomUUID(),
        audience,
        tool: tool.name,
        invocationID: randomUUID(),
        caller,
        status: 'working',
        ttlMs: ttlSeconds * 1000,
        pollIntervalMs: POLL_INTERVAL_MS,
      });
      const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
      const canAsk = Boolean((envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)?.elicitation);
      const run: Promise<void> = runTask(core, rt.store, task, tool, args, canAsk)
        .catch((e: unknown) => core.logger.error(`tasks: task ${task.taskId}`, e))
        .finally(() => rt.running.delete(run));
      rt.running.add(run);
      return { resultType: 'task', ...view(task) } as never;
    },
  };
}

/** The run of one task in its owner process: the approval first when the tool is privileged, then the call. */
async function runTask(core: McpCore, store: TaskStore, task: TaskRecord, tool: AgentTool, args: Record<string, unknown>, canAsk: boolean): Promise<void> {
  const finish = (result: CallToolResult) =>
    store.update(task.taskId, () => ({ status: 'completed', result: result as Record<string, unknown>, statusMessage: undefined }));
  try {
    if (tool.safety === 'privileged') {
      const refusal = await approve(core, store, task, tool, args, canAsk);
      if (refusal === 'cancelled') return;
      if (refusal) return void (await finish(errorResult(refusal)));
    }
    if ((await store.get(task.taskId))?.status !== 'working') return;
    await finish(await invoke(core, store, task, tool, args));
  } catch (e) {
    await store.update(task.taskId, () => ({ status: 'failed', error: { code: -32603, message: toApiError(e, { unexpected: 'the task failed' }).message } }));
  }
}

async function invoke(core: McpCore, store: TaskStore, task: TaskRecord, tool: AgentTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const f = tool.file;
  // A cancel from elsewhere reaches a registered run through its cancel file; a run too young to be
  // registered is stopped here, when the task file says cancelled.
  const watch = setInterval(() => {
    void store.get(task.taskId).then((t) => {
      if (!t || t.status === 'cancelled') void core.invocations.cancel(task.invocationID);
    });
  }, POLL_INTERVAL_MS);
  try {
    const result = await core.invocations.invoke(
      { bundleID: f.bundleID, slug: f.slug, version: f.version },
      { args, confirm: tool.safety === 'privileged', invocationID: task.invocationID, caller: task.caller },
    );
    return toCallResult(tool, result);
  } catch (e) {
    // Gates (kill switch, switches, rate limit, arguments) refuse before a run: a result the model can read.
    return errorResult(toApiError(e, { unexpected: 'the call failed' }).message);
  } finally {
    clearInterval(watch);
  }
}

/**
 * Opens the approval and waits for its answer: a client's through tasks/update (when it can ask
 * its user, the task says input_required and carries the form), or a person's in the app. Answers
 * undefined to run, 'cancelled' when the task was cancelled meanwhile, else why it does not run.
 */
async function approve(
  core: McpCore,
  store: TaskStore,
  task: TaskRecord,
  tool: AgentTool,
  args: Record<string, unknown>,
  canAsk: boolean,
): Promise<string | 'cancelled' | undefined> {
  const { what, masked, toolRef, elicit } = approvalSubject(tool, args);
  const timeoutSeconds = core.config.get().approvalTimeoutSeconds;
  const binding = callBinding(tool, args, task.caller);
  const approvalID = await core.approvals.open({
    tool: toolRef,
    args: masked,
    argsDigest: binding.argsDigest,
    caller: callerLabel(task.caller),
    timeoutMs: timeoutSeconds * 1000,
  });
  await store.update(task.taskId, () =>
    canAsk
      ? { status: 'input_required', approvalID, inputRequests: { approve: { method: 'elicitation/create', params: { mode: 'form', ...elicit } } } }
      : { approvalID, statusMessage: `waiting for a person's approval in Toolwright (${timeoutSeconds} s)` },
  );
  for (;;) {
    const current = await store.get(task.taskId);
    if (!current || current.status === 'cancelled') {
      await core.approvals.settle(approvalID, 'deny', binding).catch(() => undefined);
      return 'cancelled';
    }
    if ((await core.approvals.state(approvalID)) !== 'pending') break;
    await delay(POLL_INTERVAL_MS);
  }
  let outcome: ApprovalOutcome;
  try {
    // The one place the answer is taken: whoever answered, the tool runs at most once.
    outcome = await core.approvals.settle(approvalID, undefined, binding);
  } catch (e) {
    if (!isCoreError(e) || e.code !== 'NOT_FOUND') throw e;
    outcome = 'deny';
  }
  const moved = await store.update(task.taskId, () => ({ status: 'working', inputRequests: undefined, statusMessage: undefined }));
  if (!moved?.changed && moved?.task.status === 'cancelled') return 'cancelled';
  if (outcome === 'approve') return undefined;
  if (outcome === 'expired') return `Nobody approved ${what} within ${timeoutSeconds} s, so it counts as denied; it did not run.`;
  return `The request to run ${what} was denied; it did not run.`;
}
