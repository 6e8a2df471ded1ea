/**
 * Long runs as tasks (MCP's `io.modelcontextprotocol/tasks` extension): an agent's call answered
 * at once with a task that runs on in this process, whatever becomes of the request or the
 * connection; it is polled, its approval answered and it is cancelled by id — from any
 * connection or process on the data folder, since the task is a file (agents/tasks.ts), its run
 * is in the invocations registry (a cancel reaches the owner as a cancel file), and its approval
 * is an approval file the app's panel may answer as well.
 *
 * A task belongs to the principal whose call started it (shared/caller.ts principalKey: the data
 * folder's owner, a profile's token, an OAuth subject and client) and to the audience it was
 * started at. Any other principal is answered exactly as for an id that never existed; the same
 * principal at another audience is told where the task lives.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { principalKey, type Caller } from '../../../shared/caller.js';
import type { AgentTaskView } from '../../../shared/agents/surface.js';
import { DEFAULT_TASK_RESULT_TTL_SECONDS, type Config } from '../../../shared/schemas.js';
import type { AgentTool } from '../agents/agent-tools.js';
import type { ApprovalOutcome } from '../agents/approvals.js';
import { TaskStore, type TaskRecord } from '../agents/tasks.js';
import { CoreError, isCoreError, toApiError } from '../errors.js';
import type { Logger } from '../log.js';
import { delay } from '../util/abort.js';
import { approvalSubject, callBinding, openApproval, type RoundApprovals } from './approval-round.js';
import { errorResult, toCallResult } from './definitions.js';
import type { RunOperation } from './run-operation.js';
import { queues, type AgentLanes } from './agent-lanes.js';

/** How often a client should poll, and how often the owner looks for a cancel or an answer. */
const POLL_INTERVAL_MS = 250;
/** Expired tasks of other processes are swept at most this often. */
const SWEEP_EVERY_MS = 60_000;

export type TaskView = AgentTaskView;

/** A client's answer to the approval a task waits on (tasks/update's inputResponses.approve). */
export interface TaskAnswer {
  /** `none`: the answer was not an elicitation result. */
  action: 'accept' | 'decline' | 'cancel' | 'none';
  confirm: boolean;
}

export interface AgentTasksDeps {
  tasksDir: string;
  approvals: RoundApprovals;
  config: { get(): Config };
  logger: Logger;
  run: () => RunOperation;
  /** Each agent's side-effecting calls one at a time (agent-lanes.ts): a task's run takes its place there too. */
  lanes?: AgentLanes;
}

function view(task: TaskRecord): TaskView {
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

const unknownTask = (taskId: string) =>
  new CoreError('NOT_FOUND', `Unknown task ${taskId}: there is no such task, or it ended more than its ttlMs ago and its result expired and was removed`);

export class AgentTasks {
  private readonly store: TaskStore;
  private readonly running = new Set<Promise<void>>();
  private lastSweep = 0;

  constructor(private readonly deps: AgentTasksDeps) {
    this.store = new TaskStore(deps.tasksDir);
  }

  /** Settles once every task this process runs has finished: a stdio server waits for it before it exits. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** The task, when this caller's principal started it at this audience; else the refusal an unknown id gets. */
  private async lookup(audience: string, taskId: string, caller: Caller): Promise<TaskRecord> {
    const task = await this.store.get(taskId);
    if (!task || task.principal !== principalKey(caller)) throw unknownTask(taskId);
    if (task.audience !== audience) {
      throw new CoreError('INVALID_INPUT', `Task ${taskId} was started on another MCP audience (another /mcp?bundles= scope); ask for it there`);
    }
    return task;
  }

  async get(audience: string, taskId: string, caller: Caller): Promise<TaskView> {
    return view(await this.lookup(audience, taskId, caller));
  }

  async update(audience: string, taskId: string, answer: TaskAnswer, caller: Caller): Promise<void> {
    const task = await this.lookup(audience, taskId, caller);
    if (task.inputAnswered) throw new CoreError('CONFLICT', `Task ${task.taskId} already has its answer; nothing runs twice`);
    if (task.status !== 'input_required' || !task.approvalID)
      throw new CoreError('INVALID_INPUT', `Task ${task.taskId} is ${task.status} and asks for no input`);
    if (answer.action === 'none') {
      throw new CoreError(
        'INVALID_INPUT',
        `Task ${task.taskId} asks for inputResponses.approve: {"action": "accept"|"decline"|"cancel", "content": {"confirm": true|false}}`,
      );
    }
    const yes = answer.action === 'accept' && answer.confirm;
    try {
      await this.deps.approvals.decide(task.approvalID, yes ? 'approve' : 'deny', undefined, caller);
    } catch (e) {
      if (isCoreError(e) && (e.code === 'CONFLICT' || e.code === 'NOT_FOUND'))
        throw new CoreError('CONFLICT', `Task ${task.taskId} already has its answer (${e.message}); nothing runs twice`);
      throw e;
    }
    await this.store.update(task.taskId, (t) =>
      t.status === 'input_required' ? { status: 'working', inputAnswered: true, inputRequests: undefined } : undefined,
    );
  }

  async cancel(audience: string, taskId: string, caller: Caller): Promise<void> {
    const task = await this.lookup(audience, taskId, caller);
    const updated = await this.store.update(task.taskId, () => ({ status: 'cancelled', statusMessage: 'cancelled by a client', inputRequests: undefined }));
    if (!updated) throw new CoreError('NOT_FOUND', `Unknown task ${task.taskId}: it expired and was removed meanwhile`);
    if (!updated.changed) throw new CoreError('CONFLICT', `Task ${task.taskId} already ${updated.task.status}; a finished task cannot be cancelled`);
    // The owner also sees the cancelled status on its next look; this stops the run at once where it is registered.
    await this.deps
      .run()('tools.cancel', { invocationID: task.invocationID }, { caller })
      .catch(() => undefined);
  }

  /** Starts the call as a task and answers the task at once. `canAsk`: the client can show its user the approval form. */
  async start(audience: string, tool: AgentTool, args: Record<string, unknown>, caller: Caller, canAsk: boolean, agent?: string): Promise<TaskView> {
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      void this.store.sweep().catch((e: unknown) => this.deps.logger.warn(`tasks: sweeping expired tasks: ${String(e)}`));
    }
    const ttlSeconds = this.deps.config.get().taskResultTtlSeconds ?? DEFAULT_TASK_RESULT_TTL_SECONDS;
    const task = await this.store.create({
      taskId: randomUUID(),
      audience,
      principal: principalKey(caller),
      tool: tool.name,
      invocationID: randomUUID(),
      caller,
      status: 'working',
      ttlMs: ttlSeconds * 1000,
      pollIntervalMs: POLL_INTERVAL_MS,
    });
    const run: Promise<void> = this.runTask(task, tool, args, canAsk, agent)
      .catch((e: unknown) => this.deps.logger.error(`tasks: task ${task.taskId}`, e))
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return view(task);
  }

  /** The run of one task in its owner process: the approval first when the tool is privileged, then the call. */
  private async runTask(task: TaskRecord, tool: AgentTool, args: Record<string, unknown>, canAsk: boolean, agent?: string): Promise<void> {
    const finish = (result: CallToolResult) =>
      this.store.update(task.taskId, () => ({ status: 'completed', result: result as Record<string, unknown>, statusMessage: undefined }));
    let release: (() => void) | undefined;
    try {
      if (tool.safety === 'privileged') {
        const refusal = await this.approve(task, tool, args, canAsk);
        if (refusal === 'cancelled') return;
        if (refusal) return void (await finish(errorResult(refusal)));
      }
      // Its place among the agent's side-effecting calls; a task cancelled while it waited does not run.
      if (agent && this.deps.lanes && queues(task.caller, tool.safety)) release = await this.deps.lanes.enter(agent);
      if ((await this.store.get(task.taskId))?.status !== 'working') return;
      await finish(await this.invoke(task, tool, args));
    } catch (e) {
      await this.store.update(task.taskId, () => ({
        status: 'failed',
        error: { code: -32603, message: toApiError(e, { unexpected: 'the task failed' }).message },
      }));
    } finally {
      release?.();
    }
  }

  private async invoke(task: TaskRecord, tool: AgentTool, args: Record<string, unknown>): Promise<CallToolResult> {
    const f = tool.file;
    const run = this.deps.run();
    const cancel = () => void run('tools.cancel', { invocationID: task.invocationID }, { caller: task.caller });
    // A cancel from elsewhere reaches a registered run through its cancel file; a run too young to be
    // registered is stopped here, when the task file says cancelled.
    const watch = setInterval(() => {
      void this.store.get(task.taskId).then((t) => {
        if (!t || t.status === 'cancelled') cancel();
      });
    }, POLL_INTERVAL_MS);
    try {
      const env = await run(
        'tools.invoke',
        { bundleID: f.bundleID, slug: f.slug, version: f.version, args, confirm: tool.safety === 'privileged', invocationID: task.invocationID },
        { caller: task.caller },
      );
      // Gates (kill switch, switches, rate limit, arguments) refuse before a run: a result the model can read.
      return env.ok ? toCallResult(tool, env.data) : errorResult(env.error.message);
    } finally {
      clearInterval(watch);
    }
  }

  /**
   * Opens the approval and waits for its answer: a client's through tasks/update (when it can ask
   * its user, the task says input_required and carries the form), or a person's in the app. Answers
   * undefined to run, 'cancelled' when the task was cancelled meanwhile, else why it does not run.
   */
  private async approve(task: TaskRecord, tool: AgentTool, args: Record<string, unknown>, canAsk: boolean): Promise<string | 'cancelled' | undefined> {
    const { what, form } = approvalSubject(tool, args);
    const { approvals } = this.deps;
    const timeoutSeconds = this.deps.config.get().approvalTimeoutSeconds;
    const binding = callBinding(tool, args, task.caller);
    const approvalID = await openApproval(approvals, tool, args, task.caller, timeoutSeconds);
    await this.store.update(task.taskId, () =>
      canAsk
        ? { status: 'input_required', approvalID, inputRequests: { approve: { method: 'elicitation/create', params: { mode: 'form', ...form } } } }
        : { approvalID, statusMessage: `waiting for a person's approval in Toolwright (${timeoutSeconds} s)` },
    );
    for (;;) {
      const current = await this.store.get(task.taskId);
      if (!current || current.status === 'cancelled') {
        await approvals.settle(approvalID, 'deny', binding).catch(() => undefined);
        return 'cancelled';
      }
      if ((await approvals.state(approvalID)) !== 'pending') break;
      await delay(POLL_INTERVAL_MS);
    }
    let outcome: ApprovalOutcome;
    try {
      // The one place the answer is taken: whoever answered, the tool runs at most once.
      outcome = await approvals.settle(approvalID, undefined, binding);
    } catch (e) {
      if (!isCoreError(e) || e.code !== 'NOT_FOUND') throw e;
      outcome = 'deny';
    }
    const moved = await this.store.update(task.taskId, () => ({ status: 'working', inputRequests: undefined, statusMessage: undefined }));
    if (!moved?.changed && moved?.task.status === 'cancelled') return 'cancelled';
    if (outcome === 'approve') return undefined;
    if (outcome === 'expired') return `Nobody approved ${what} within ${timeoutSeconds} s, so it counts as denied; it did not run.`;
    return `The request to run ${what} was denied; it did not run.`;
  }
}
