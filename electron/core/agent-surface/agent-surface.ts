/**
 * The agent's tool surface: what an agent is offered at an address and what happens when it
 * calls — the work behind the agent-door operations (shared/operations/agent-surface.ts) that the
 * MCP transport calls for tools/list, tools/call (direct, search mode, as a task, with its
 * approval round), tasks/*, schedule resources and the connected-agents list. The transport keeps
 * only MCP's framing; every decision is made here, for the caller the transport names.
 *
 * A call runs through the contract's own `tools.invoke` operation (run-operation.ts), so what holds
 * for REST, IPC and the CLI holds for agents too.
 */
import { randomUUID } from 'node:crypto';
import { principalKey, type Caller } from '../../../shared/caller.js';
import type { ProfileFile } from '../../../shared/agents/profiles.js';
import type { AgentCallAnswer, AgentResources, AgentScheduleLatest, AgentSurfaceView } from '../../../shared/agents/surface.js';
import { DEFAULT_RELEVANCE_FLOOR } from '../../../shared/agents/surface.js';
import { CALL_TOOL } from '../agents/search-mode-tools.js';
import type { AgentTool } from '../agents/agent-tools.js';
import { CoreError } from '../errors.js';
import { createAudience, audienceKey, type Audience, type AudienceDeps, type AudienceSpec } from './audience.js';
import { approvalRound, type ApprovalAnswer, type RoundApprovals } from './approval-round.js';
import { SurfaceConnections, type ConnectionOpener, type Via } from './connections.js';
import { errorResult, toCallResult } from './definitions.js';
import { audienceResources, scheduleLatest, type ScheduleReader } from './resources.js';
import type { RunHooks, RunOperation } from './run-operation.js';
import { isSearchModeTool, searchModeCall, type SearchLearning } from './search-mode.js';
import { AgentTasks, type TaskAnswer, type TaskView } from './tasks.js';
import { AgentLanes, agentKey, queues } from './agent-lanes.js';
import type { Logger } from '../log.js';

/** Audiences kept at once; the least recently used goes first (it is built again when asked for). */
const MAX_AUDIENCES = 64;

/** An address as the transport names it: some bundles by slug (none: all), or a profile by slug. */
export interface AudienceRef {
  bundles?: string[];
  profile?: string;
}

export interface AgentCallInput {
  audience: AudienceRef;
  name: string;
  arguments?: Record<string, unknown>;
  via?: Via;
  /** The client can show its user a form (elicitation): a privileged call answers `ask`. */
  canAsk?: boolean;
  /** The retry of an `ask`, with the person's answer. */
  approval?: ApprovalAnswer;
  /** Run as a task (the tasks extension): answered at once with the task. */
  task?: boolean;
  /** Answer `not-plain` instead of anything but a plain run of a visible, unprivileged tool (the fast path's question). */
  plainOnly?: boolean;
}

export interface AgentSurfaceDeps extends Omit<AudienceDeps, 'profiles'> {
  profiles: { get(profileID: string): ProfileFile | undefined; bySlug(slug: string): ProfileFile | undefined };
  /** A profile's tokens: which one a bearer is (its use counted), or undefined. */
  profileTokens: { verify(profileID: string, token: string): Promise<string | undefined> };
  approvals: RoundApprovals;
  agents: ConnectionOpener;
  schedules: ScheduleReader;
  tasksDir: string;
  logger: Logger;
  /** The dispatcher, late-bound: the operations a call runs through. */
  run: () => RunOperation;
}

export class AgentSurface {
  private readonly audiences = new Map<string, Audience>();
  private readonly connections: SurfaceConnections;
  /** Each agent's side-effecting calls, one at a time (direct calls and tasks alike). */
  private readonly lanes = new AgentLanes();
  readonly tasks: AgentTasks;

  constructor(private readonly deps: AgentSurfaceDeps) {
    this.connections = new SurfaceConnections(deps.agents);
    this.tasks = new AgentTasks({
      tasksDir: deps.tasksDir,
      approvals: deps.approvals,
      config: deps.config,
      logger: deps.logger,
      run: deps.run,
      lanes: this.lanes,
    });
  }

  /** The audience an address names; NOT_FOUND for a profile that does not exist. */
  audience(ref: AudienceRef): Audience {
    let spec: AudienceSpec;
    if (ref.profile !== undefined) {
      const profile = this.deps.profiles.bySlug(ref.profile);
      if (!profile) throw new CoreError('NOT_FOUND', `no profile '${ref.profile}'; see GET /tools/profiles`);
      spec = { profileID: profile.profileID };
    } else spec = { bundles: ref.bundles ?? [] };
    const key = audienceKey(spec);
    const known = this.audiences.get(key);
    if (known) {
      // Most recently used last, so the first is the one to let go.
      this.audiences.delete(key);
      this.audiences.set(key, known);
      return known;
    }
    if (this.audiences.size >= MAX_AUDIENCES) {
      const [oldest, audience] = this.audiences.entries().next().value!;
      this.audiences.delete(oldest);
      audience.dispose();
    }
    const audience = createAudience(this.deps, spec);
    this.audiences.set(key, audience);
    return audience;
  }

  surface(ref: AudienceRef, caller: Caller, via?: Via): AgentSurfaceView {
    const audience = this.audience(ref);
    if (via) this.connections.seen(audience.key, caller.name, via);
    const instructions = audience.instructions();
    return {
      audience: audience.key,
      ...(audience.profileID ? { profileID: audience.profileID } : {}),
      revision: audience.revision(),
      resourcesRevision: audience.resourcesRevision(),
      mode: audience.mode(),
      ...(instructions ? { instructions } : {}),
      toolsEnabled: this.deps.config.get().toolsEnabled,
      tools: audience.described(),
    };
  }

  async call(input: AgentCallInput, caller: Caller, hooks: RunHooks = {}): Promise<AgentCallAnswer> {
    const audience = this.audience(input.audience);
    const args = input.arguments ?? {};
    let tool: AgentTool | undefined;
    let toolArgs = args;
    if (audience.mode() === 'search' && isSearchModeTool(input.name)) {
      // search_tools and describe_tools are lookups, plain as can be; call_tool may run anything.
      if (input.plainOnly && input.name === CALL_TOOL) return { kind: 'not-plain' };
      const answer = searchModeCall(audience, input.name, args, {
        learn: this.learningFor(audience, caller, input.via),
        relevanceFloor: this.deps.config.get().toolSearch?.relevanceFloor ?? DEFAULT_RELEVANCE_FLOOR,
      });
      if (answer.kind === 'result') return { kind: 'result', result: answer.result };
      tool = answer.tool;
      toolArgs = answer.args;
    } else {
      tool = audience.byName(input.name);
      if (!tool) {
        if (input.plainOnly) return { kind: 'not-plain' };
        // A name it was offered answers why it is withheld (a result the model reads), not "unknown".
        const withheld = audience.withheld(input.name);
        if (withheld) return { kind: 'result', result: errorResult(withheld) };
        const off = this.deps.config.get().toolsEnabled ? '' : ' (tools are switched off in Toolwright: the kill switch is on)';
        return { kind: 'unknown', message: `Unknown tool: ${input.name}${off}; call tools/list for the tools you may use` };
      }
      if (input.plainOnly && tool.safety === 'privileged') return { kind: 'not-plain' };
    }
    this.countCall(audience, caller, input, tool);
    if (input.task)
      return { kind: 'task', task: await this.tasks.start(audience.key, tool, toolArgs, caller, input.canAsk === true, agentKey(caller, input.via)) };
    if (tool.safety === 'privileged') {
      const report = hooks.onProgress;
      const round = await approvalRound(tool, toolArgs, caller, {
        approvals: this.deps.approvals,
        timeoutSeconds: this.deps.config.get().approvalTimeoutSeconds,
        canAsk: input.canAsk === true,
        ...(input.approval ? { answer: input.approval } : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        // Progress keeps clients' request timeouts from ending a call that waits for a person.
        ...(report ? { onWait: (leftMs: number) => report(`waiting for approval in Toolwright (${Math.ceil(leftMs / 1000)} s left)`) } : {}),
      });
      if (round.kind === 'ask') return round;
      if (round.kind === 'refused') return { kind: 'result', result: errorResult(round.message) };
    }
    return this.run(tool, toolArgs, caller, hooks, input.via);
  }

  /** A retry that carries an answer is the same call, counted once (and taught once). */
  private countCall(audience: Audience, caller: Caller, input: AgentCallInput, tool: AgentTool): void {
    if (input.approval) return;
    if (input.via) this.connections.called(audience.key, caller.name, input.via);
    const learn = this.learningFor(audience, caller, input.via);
    learn?.learning.called(learn.session, tool.file.toolID);
  }

  /**
   * Who searches and then calls, for learning from use: one agent (client name) of one principal
   * at one address, in one session when its transport has them; the principal holds the share.
   */
  private learningFor(
    audience: Audience,
    caller: Caller,
    via: Via | undefined,
  ): (SearchLearning & { learning: NonNullable<AgentSurfaceDeps['learning']> }) | undefined {
    const learning = this.deps.learning;
    if (!learning) return undefined;
    const principal = principalKey(caller);
    const session = [audience.key, principal, caller.transport, caller.name, via?.connectionID ?? ''].join('\u0000');
    return { session, principal, learning };
  }

  /** One agent's side-effecting and privileged calls one at a time, in order (agent-lanes.ts); read-only ones at once. */
  private async run(tool: AgentTool, args: Record<string, unknown>, caller: Caller, hooks: RunHooks, via?: Via): Promise<AgentCallAnswer> {
    if (!queues(caller, tool.safety)) return this.runNow(tool, args, caller, hooks);
    const release = await this.lanes.enter(agentKey(caller, via), hooks.signal).catch(() => undefined);
    if (!release)
      return {
        kind: 'result',
        result: errorResult(`the call of ${tool.name} was cancelled before it ran (it was waiting for this agent's earlier call to finish)`),
      };
    try {
      return await this.runNow(tool, args, caller, hooks);
    } finally {
      release();
    }
  }

  private async runNow(tool: AgentTool, args: Record<string, unknown>, caller: Caller, hooks: RunHooks): Promise<AgentCallAnswer> {
    const f = tool.file;
    const invocationID = randomUUID();
    const run = this.deps.run();
    const signal = hooks.signal;
    const onAbort = () => void run('tools.cancel', { invocationID }, { caller });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const { signal: _signal, ...stream } = hooks;
      const env = await run(
        'tools.invoke',
        { bundleID: f.bundleID, slug: f.slug, version: f.version, args, confirm: tool.safety === 'privileged', invocationID },
        { caller, stream },
      );
      // Gates (kill switch, switches, rate limit, arguments) refuse before a run: a result the model can read.
      if (!env.ok) return { kind: 'result', result: errorResult(env.error.message) };
      const r = env.data;
      return {
        kind: 'result',
        result: toCallResult(tool, r),
        ran: { tool: tool.name, ok: r.ok, ...(r.error ? { code: r.error.code } : {}), durationMs: r.durationMs },
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  resources(ref: AudienceRef): AgentResources {
    return audienceResources(this.audience(ref));
  }

  scheduleLatest(ref: AudienceRef, scheduleID: string): Promise<AgentScheduleLatest> {
    return scheduleLatest(this.deps.schedules, this.audience(ref), scheduleID);
  }

  taskGet(ref: AudienceRef, taskId: string, caller: Caller): Promise<TaskView> {
    return this.tasks.get(this.audience(ref).key, taskId, caller);
  }

  taskUpdate(ref: AudienceRef, taskId: string, answer: TaskAnswer, caller: Caller): Promise<void> {
    return this.tasks.update(this.audience(ref).key, taskId, answer, caller);
  }

  taskCancel(ref: AudienceRef, taskId: string, caller: Caller): Promise<void> {
    return this.tasks.cancel(this.audience(ref).key, taskId, caller);
  }

  /** A profile's address as its door sees it: does it exist, is this bearer one of its tokens, which scope it needs. */
  async door(profileSlug: string, token: string | undefined): Promise<{ exists: boolean; tokenID?: string; requiredScope?: string }> {
    const profile = this.deps.profiles.bySlug(profileSlug);
    if (!profile) return { exists: false };
    const tokenID = token === undefined ? undefined : await this.deps.profileTokens.verify(profile.profileID, token);
    return { exists: true, ...(tokenID ? { tokenID } : {}), ...(profile.requiredScope ? { requiredScope: profile.requiredScope } : {}) };
  }

  connect(caller: Caller, channel: Via['channel']): Promise<string> {
    return this.connections.connect(caller.name, channel);
  }

  disconnect(connectionID: string): Promise<void> {
    return this.connections.disconnect(connectionID);
  }

  async close(): Promise<void> {
    for (const a of this.audiences.values()) a.dispose();
    this.audiences.clear();
    await this.connections.close();
  }
}
