/**
 * A person's yes before an agent runs a privileged tool, when the agent's client cannot ask
 * itself (no elicitation). Requests are files under `<data>/approvals/`, so any process (an MCP
 * server started by an agent, the CLI) can ask and any app window or REST client can answer;
 * the asker polls its file. Unanswered by `expiresAt` counts as deny. One decision per request:
 * the answer is written under the file's lock, so two windows cannot both decide.
 *
 * A yes is bound to one call: the tool and its version, the digest of the exact arguments and the
 * caller, checked again when the answer is taken (settle), and it lapses `ttlSeconds` after it
 * was given. Each decision is an audit record.
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { Approval, ApprovalDecision, ApprovalQuestion } from '../../../shared/types.js';
import { CoreError, notFound } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { readJsonPath } from '../fs/json-text.js';
import { canonicalJson } from '../../../shared/canonical.js';
import { delay } from '../util/abort.js';
import { makeUserAjv } from '../validation.js';
import { apiIssues } from '../../../shared/json-schema/issues.js';
import type { RecordSink } from '../audit/changes.js';
import { APP_CALLER, approvalDecider, callerLabel, principalKey, type Caller } from '../../../shared/caller.js';

const APPROVAL_ID = /^[0-9a-f-]{36}$/;
const KEY_ORDER = [
  'approvalID',
  'kind',
  'question',
  'tool',
  'args',
  'argsDigest',
  'caller',
  'principal',
  'createdAt',
  'expiresAt',
  'decision',
  'content',
  'decidedAt',
];
const POLL_MS = 200;
/** Answered and expired requests are swept this long after the fact. */
const KEEP_MS = 10 * 60 * 1000;

interface ApprovalFile extends Approval {
  /** The principal whose call asked (shared/caller.ts principalKey): over MCP, only it may answer. */
  principal?: string;
  decision?: ApprovalDecision;
  /** An answer approval's filled-in form. */
  content?: Record<string, unknown>;
  decidedAt?: string;
}

const answerAjv = makeUserAjv();

/** Why a person's answer does not fit the form the server asked for, or undefined when it does. */
function answerProblem(question: ApprovalQuestion, content: Record<string, unknown>): string | undefined {
  let validate;
  try {
    validate = answerAjv.compile({ ...question.requestedSchema, additionalProperties: false });
  } catch (e) {
    return `the server's form cannot be checked (${(e as Error).message}); decline it instead`;
  }
  if (validate(content)) return undefined;
  const issues = apiIssues(validate.errors);
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
}

export type ApprovalOutcome = 'approve' | 'deny' | 'expired' | 'cancelled';

/** Who answered, for the audit log: a person in the app, a REST client, or an agent's retry carrying its user's answer. */
export type ApprovalDecider = 'app' | 'rest' | 'agent';

/** The call an answer is about to run: it must be the call the approval was asked for. */
export interface CallBinding {
  toolID: string;
  version: string;
  argsDigest: string;
  caller: string;
  /** The principal the caller speaks for; an approval asked by another principal runs nothing for this one. */
  principal?: string;
}

/** Why an approval cannot run this call, or undefined when it was asked for exactly this one. */
function otherCall(file: ApprovalFile, call: CallBinding): string | undefined {
  if (file.tool.toolID !== call.toolID) return 'another tool';
  if (file.tool.version !== call.version) return `version ${file.tool.version}, not ${call.version}`;
  if (file.argsDigest !== call.argsDigest) return 'other arguments';
  if (file.caller !== call.caller) return `another caller (${file.caller})`;
  if (file.principal !== undefined && call.principal !== undefined && file.principal !== call.principal) return 'another credential';
  return undefined;
}

export interface ApprovalStoreOptions {
  clock?: () => Date;
  /** Where each decision is recorded. */
  audit?: RecordSink;
  /** How long a yes stays good after it was given (config approvalTtlSeconds). */
  ttlSeconds?: () => number;
}

export interface ApprovalAsk {
  tool: Approval['tool'];
  /** An upstream server's question: the person fills in its form instead of saying yes or no. */
  question?: ApprovalQuestion;
  args: unknown;
  /** SHA-256 of the exact arguments (audit/record.ts argsDigest), which the answer is bound to. */
  argsDigest: string;
  caller: string;
  /** The principal the asking caller speaks for (shared/caller.ts principalKey). */
  principal?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called while the request waits, about once a second, with the time left. */
  onWait?: (leftMs: number) => void;
}

export class ApprovalStore extends EventEmitter<{ changed: [] }> {
  private readonly clock: () => Date;

  constructor(
    private readonly dir: string,
    private readonly opts: ApprovalStoreOptions = {},
  ) {
    super();
    this.clock = opts.clock ?? (() => new Date());
  }

  /** Resolves once the decision's record is durable; AUDIT_UNAVAILABLE when it cannot be written. */
  private recordDecision(file: ApprovalFile, decision: ApprovalDecision, decidedBy: ApprovalDecider, decider: string | undefined): Promise<void> {
    if (!this.opts.audit) return Promise.resolve();
    return this.opts.audit.append({
      kind: 'approval',
      approvalID: file.approvalID,
      decision,
      decidedBy,
      ...(decider !== undefined && decider !== decidedBy ? { decider } : {}),
      toolID: file.tool.toolID,
      slug: file.tool.slug,
      version: file.tool.version,
      argsDigest: file.argsDigest ?? '',
      caller: file.caller,
    });
  }

  /** A yes given longer ago than the TTL runs nothing. */
  private lapsed(file: ApprovalFile): boolean {
    if (file.decision !== 'approve' || !file.decidedAt || !this.opts.ttlSeconds) return false;
    return Date.parse(file.decidedAt) + this.opts.ttlSeconds() * 1000 <= this.clock().getTime();
  }

  private file(approvalID: string): string {
    return join(this.dir, `${approvalID}.json`);
  }

  private async read(approvalID: string): Promise<ApprovalFile | undefined> {
    const read = await readJsonPath(this.file(approvalID));
    return read.kind === 'ok' ? (read.value as ApprovalFile) : undefined;
  }

  private async write(file: ApprovalFile): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    await writeFileAtomic(this.file(file.approvalID), canonicalJson(file as unknown as Record<string, unknown>, KEY_ORDER));
    this.emit('changed');
  }

  /**
   * Opens a request without waiting for it: for a client that asks its own user and answers by
   * retrying its call (MCP's input-required results). The app shows it like any other, so a person
   * may also answer there; settle() takes whichever answer came, once.
   */
  async open(ask: Omit<ApprovalAsk, 'signal' | 'onWait'>): Promise<string> {
    const now = this.clock();
    const approvalID = uuidv7();
    await this.write({
      approvalID,
      ...(ask.question ? { kind: 'answer' as const, question: ask.question } : {}),
      tool: ask.tool,
      args: ask.args,
      argsDigest: ask.argsDigest,
      caller: ask.caller,
      ...(ask.principal !== undefined ? { principal: ask.principal } : {}),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ask.timeoutMs).toISOString(),
    });
    return approvalID;
  }

  /**
   * Takes the answer of an opened request exactly once, under the file's lock: the app's decision
   * when a person gave one there, else the client's. The request is gone afterwards, so a replayed
   * answer finds nothing (NOT_FOUND) and nothing runs twice. `call` is the call about to run:
   * an approval asked for another one (tool, version, arguments, caller) is refused (CONFLICT) and
   * left for its own call; a yes older than the TTL is 'expired'.
   */
  async settle(approvalID: string, clientDecision: ApprovalDecision | undefined, call: CallBinding): Promise<ApprovalOutcome> {
    if (!APPROVAL_ID.test(approvalID)) throw notFound(`approval ${approvalID}`);
    // An agent's answer is a decision: not taken (the request stays) while it cannot be recorded.
    if (clientDecision) await this.opts.audit?.ready();
    await fsp.mkdir(this.dir, { recursive: true });
    return withLock(join(this.dir, `.${approvalID}.lock`), async () => {
      const file = await this.read(approvalID);
      if (!file) throw notFound(`approval ${approvalID} (it was already used, withdrawn or swept after it expired)`);
      const other = otherCall(file, call);
      if (other) throw new CoreError('CONFLICT', `approval ${approvalID} was given for another call (${other}); it runs nothing else. Ask anew for this call.`);
      await fsp.rm(this.file(approvalID), { force: true });
      this.emit('changed');
      if (file.decision) return this.lapsed(file) ? 'expired' : file.decision;
      if (Date.parse(file.expiresAt) <= this.clock().getTime()) return 'expired';
      const outcome = clientDecision ?? 'deny';
      if (clientDecision) await this.recordDecision(file, clientDecision, 'agent', undefined);
      return outcome;
    });
  }

  /**
   * Whether an opened request still waits for someone: 'answered' once a person decided or it
   * expired (settle() then takes the outcome), 'gone' once it was settled or withdrawn.
   */
  async state(approvalID: string): Promise<'pending' | 'answered' | 'gone'> {
    if (!APPROVAL_ID.test(approvalID)) return 'gone';
    const file = await this.read(approvalID);
    if (!file) return 'gone';
    return file.decision || Date.parse(file.expiresAt) <= this.clock().getTime() ? 'answered' : 'pending';
  }

  /** Asks and waits for the answer; the request file is removed once answered or given up. */
  async ask(ask: ApprovalAsk): Promise<{ outcome: ApprovalOutcome; approvalID: string; content?: Record<string, unknown> }> {
    const approvalID = await this.open(ask);
    const deadline = Date.now() + ask.timeoutMs;
    let lastWait = 0;
    try {
      for (;;) {
        if (ask.signal?.aborted) return { outcome: 'cancelled', approvalID };
        const file = await this.read(approvalID);
        if (!file) return { outcome: 'deny', approvalID };
        if (file.decision) return { outcome: file.decision, approvalID, ...(file.content ? { content: file.content } : {}) };
        const left = deadline - Date.now();
        if (left <= 0) return { outcome: 'expired', approvalID };
        if (ask.onWait && Date.now() - lastWait >= 1000) {
          lastWait = Date.now();
          ask.onWait(left);
        }
        await delay(Math.min(POLL_MS, left));
      }
    } finally {
      await fsp.rm(this.file(approvalID), { force: true }).catch(() => undefined);
      this.emit('changed');
    }
  }

  /** Pending requests, newest first; answered or expired ones are swept when old. */
  async list(): Promise<Approval[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const now = this.clock().getTime();
    const pending: Approval[] = [];
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      if (!name.endsWith('.json') || !APPROVAL_ID.test(id)) continue;
      const file = await this.read(id).catch(() => undefined);
      if (!file) continue;
      const expires = Date.parse(file.expiresAt);
      if (file.decision || expires <= now) {
        const since = file.decidedAt ? Date.parse(file.decidedAt) : expires;
        if (now - since > KEEP_MS) await fsp.rm(this.file(id), { force: true }).catch(() => undefined);
        continue;
      }
      pending.push({
        approvalID: file.approvalID,
        ...(file.kind ? { kind: file.kind, question: file.question! } : {}),
        tool: file.tool,
        args: file.args,
        ...(file.argsDigest ? { argsDigest: file.argsDigest } : {}),
        caller: file.caller,
        createdAt: file.createdAt,
        expiresAt: file.expiresAt,
      });
    }
    return pending.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.approvalID.localeCompare(a.approvalID));
  }

  async decide(
    approvalID: string,
    decision: ApprovalDecision,
    content?: Record<string, unknown>,
    /** Who answers: the audit record names its kind (decidedBy) and, when that says less, its label (decider). */
    by: Caller = APP_CALLER,
  ): Promise<Approval & { decision: ApprovalDecision; decidedAt: string }> {
    if (!APPROVAL_ID.test(approvalID)) throw notFound(`approval ${approvalID}`);
    await fsp.mkdir(this.dir, { recursive: true });
    // No decision without its record: refused while the audit log cannot be written.
    await this.opts.audit?.ready();
    return withLock(join(this.dir, `.${approvalID}.lock`), async () => {
      const file = await this.read(approvalID);
      // An agent answers only what its own principal asked; anyone else's approval is, to it, none.
      const foreign = by.transport === 'mcp' && file?.principal !== undefined && file.principal !== principalKey(by);
      if (!file || foreign) throw notFound(`approval ${approvalID} (it was answered, withdrawn or expired)`);
      if (file.decision) throw new CoreError('CONFLICT', `approval ${approvalID} was already answered: ${file.decision}`, { decision: file.decision });
      if (Date.parse(file.expiresAt) <= this.clock().getTime())
        throw new CoreError('CONFLICT', `approval ${approvalID} expired at ${file.expiresAt} and counts as denied`);
      if (content !== undefined && file.kind !== 'answer')
        throw new CoreError('INVALID_INPUT', `approval ${approvalID} asks for a yes or no to run a tool; send no content`);
      if (file.kind === 'answer' && decision === 'approve') {
        const problem = answerProblem(file.question!, content ?? {});
        if (problem) throw new CoreError('INVALID_INPUT', `the answer does not fit the server's form: ${problem}`);
      }
      const decided = { ...file, decision, ...(decision === 'approve' && content ? { content } : {}), decidedAt: this.clock().toISOString() };
      await this.write(decided);
      const decidedBy = approvalDecider(by);
      // An agent's answer is the asking call's own (its caller is the record's `caller`).
      await this.recordDecision(decided, decision, decidedBy, decidedBy === 'agent' ? undefined : callerLabel(by));
      return decided;
    });
  }
}
