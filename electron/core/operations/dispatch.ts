/**
 * The one gate every call passes, whatever the transport: the input is validated against the
 * contract schema (ajv) before the handler runs, and the answer is always an envelope
 * `{ok:true,data}` or `{ok:false,error:{code,message,details?}}`, so codes survive IPC and REST.
 */
import { agentOperations, operations, type AnyOpInput, type AnyOpName, type AnyOpOutput } from '../../../shared/operations.js';
import type { ApiError, Envelope } from '../../../shared/errors.js';
import { capIssues, summariseIssues, toApiError } from '../errors.js';
import { depthExceeded, MAX_INPUT_DEPTH } from '../../../shared/limits.js';
import { validatorFor } from '../validation.js';
import { apiIssues } from '../../../shared/json-schema/issues.js';
import type { InvokeStreamEvent } from '../../../shared/types.js';
import type { RunAnswerers } from '../invoke/types.js';
import { recordedOperation } from '../audit/acting-caller.js';
import { APP_CALLER, type Caller } from '../../../shared/caller.js';

export interface CallContext {
  /**
   * Who asked (shared/caller.ts), built by the transport: written into a run's history entry and
   * audit record, into the audit's change and approval records of whatever the operation does,
   * and what a task or an approval asked over MCP is bound to.
   */
  caller: Caller;
  /** tools.invoke only: a transport that streams the run (REST SSE, IPC events) listens here. */
  stream?: InvokeStreamHooks;
}

export interface InvokeStreamHooks {
  /** The call passed every gate and runs now (a refusal comes before, as the envelope's error). */
  onStart?: (invocationID: string) => void;
  /** Output chunks and pipeline steps, redacted and capped by the engine. */
  onEvent?: (event: InvokeStreamEvent) => void;
  /** Status lines of the run (an image build), which MCP sends as progress notifications. */
  onProgress?: (line: string) => void;
  /** Who may answer an upstream MCP server's questions during the run (the MCP transport knows its client). */
  answerers?: RunAnswerers;
  /** The agent door's calls: the agent gave up on the request, so its run (or its wait for a person) stops. */
  signal?: AbortSignal;
}

export type Handler<N extends AnyOpName> = (input: AnyOpInput<N>, ctx: CallContext) => Promise<AnyOpOutput<N>> | AnyOpOutput<N>;
export type Handlers = { [N in AnyOpName]: Handler<N> };

/** The contract's operations, and the agent door's (an agent's caller only). */
export type Dispatch = <N extends AnyOpName>(name: N, input: unknown, ctx?: CallContext) => Promise<Envelope<AnyOpOutput<N>>>;

const ALL_OPERATIONS = { ...operations, ...agentOperations };
const isAgentOp = (name: AnyOpName) => Object.hasOwn(agentOperations, name);

/** Validates an input against an operation's contract schema; the error the dispatcher would answer, or undefined. */
export function checkInput(name: AnyOpName, input: unknown): ApiError | undefined {
  // Measured before ajv walks anything: a 10,000-deep body must not reach a recursive validator.
  const deep = depthExceeded(input, MAX_INPUT_DEPTH);
  if (deep !== undefined) {
    const message = `the input nests deeper than ${MAX_INPUT_DEPTH} levels (at ${deep || 'the top'}); send a flatter value`;
    return { code: 'INVALID_INPUT', message, details: { issues: [{ field: deep, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` }] } };
  }
  const validate = validatorFor(ALL_OPERATIONS[name].input);
  if (validate(input ?? {})) return undefined;
  const capped = capIssues(apiIssues(validate.errors));
  return { code: 'INVALID_INPUT', message: summariseIssues(capped.issues, capped.issueCount), details: capped };
}

/** A call made in-process without a context (tests, helpers): the app's, acting for nobody else. */
const IN_PROCESS: CallContext = Object.freeze({ caller: APP_CALLER });

export function createDispatcher(handlers: Handlers, log: (e: unknown) => void = (e) => console.error(e)): Dispatch {
  return async (name, input, ctx) => {
    const def = Object.hasOwn(ALL_OPERATIONS, name) ? ALL_OPERATIONS[name] : undefined;
    if (!def) {
      return { ok: false, error: { code: 'INVALID_INPUT', message: `unknown operation '${String(name)}'` } };
    }
    if (isAgentOp(name) && (ctx ?? IN_PROCESS).caller.transport !== 'mcp') {
      return { ok: false, error: { code: 'FORBIDDEN', message: `${String(name)} is the agent door's: only an agent's call over MCP reaches it` } };
    }
    const value = input ?? {};
    const invalidInput = checkInput(name, value);
    if (invalidInput) return { ok: false, error: invalidInput };
    try {
      const handler = handlers[name] as Handler<typeof name>;
      // Answered only once the audit records the operation made (its call, its changes, a decision) are durable.
      const data = await recordedOperation(ctx?.caller, () => handler(value as AnyOpInput<typeof name>, ctx ?? IN_PROCESS));
      return { ok: true, data };
    } catch (e) {
      return { ok: false, error: toApiError(e, { log }) };
    }
  };
}
