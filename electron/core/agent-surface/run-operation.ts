/**
 * How the agent surface runs a tool: through the contract's own operations (`tools.invoke`,
 * `tools.cancel`) on the dispatcher, with the agent's caller, so every rule, check and record of
 * those operations holds for agents too. The composition root hands the dispatcher in late-bound;
 * these are its shapes, named here so this folder does not import the operations layer above it.
 */
import type { Caller } from '../../../shared/caller.js';
import type { Envelope } from '../../../shared/errors.js';
import type { OpInput, OpOutput } from '../../../shared/operations.js';
import type { InvokeStreamEvent } from '../../../shared/types.js';
import type { RunAnswerers } from '../invoke/types.js';

/** A transport's hooks into a call (operations/dispatch.ts InvokeStreamHooks, the part an agent's call uses). */
export interface RunHooks {
  onProgress?: (line: string) => void;
  onEvent?: (event: InvokeStreamEvent) => void;
  answerers?: RunAnswerers;
  /** The agent gave up on the call: the run (or the wait for a person) stops. */
  signal?: AbortSignal;
}

export type RunOperation = <N extends 'tools.invoke' | 'tools.cancel'>(
  name: N,
  input: OpInput<N>,
  ctx: { caller: Caller; stream?: RunHooks },
) => Promise<Envelope<OpOutput<N>>>;
