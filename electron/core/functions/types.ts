/**
 * The shape of an in-process function that a tool of type "function" names in
 * impl.function (e.g. "core.calc"). The registry validates `args` against argSchema before
 * run() is called, so run() may rely on the schema's types; checks a schema cannot express
 * (lengths in code points, path confinement, parse errors) are run()'s job.
 */
import type { Config } from '../../../shared/schemas.js';
import type { InvokeStreamEvent } from '../../../shared/types.js';
import type { SecretsReader } from '../secrets/types.js';
import type { FunctionServices } from './services.js';
import type { Caller } from '../../../shared/caller.js';

/** What a function sees of its run: the config (e.g. workspaceRoot), the signal that cancels it, the services some need. */
export interface FunctionContext {
  config: Config;
  signal: AbortSignal;
  invocationID?: string;
  /** Who called (the schedule tools act for this caller's principal); absent when a test calls run() directly. */
  caller?: Caller;
  secrets: SecretsReader;
  /** Given by the function runner (absent when a test calls run() directly). */
  services?: FunctionServices;
  /** The tool being run (its ID labels a sandbox container). */
  tool: { toolID: string };
  /** Output as it arrives, for a caller that streams. */
  emit?: (event: InvokeStreamEvent) => void;
}
import type { Safety } from '../../../shared/schemas.js';
import type { Availability } from '../../../shared/types.js';

/** A card for the tester: `html` is untrusted (the renderer sanitises it) but we still emit only escaped text. */
export interface FunctionCard {
  title?: string;
  html?: string;
  text?: string;
}

export interface FunctionResult<V = unknown> {
  value: V;
  card?: FunctionCard;
}

export interface FunctionDef<A = Record<string, unknown>, V = unknown> {
  /** Dotted name, e.g. "core.calc"; matches shared/schemas.ts FunctionImpl. */
  name: string;
  description: string;
  argSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  safety: Safety;
  /** What this function needs from the config to run (a workspace root…); available when absent. */
  availability?(config: Config, services: FunctionServices, secrets: SecretsReader): Availability;
  run(args: A, ctx: FunctionContext): Promise<FunctionResult<V>> | FunctionResult<V>;
}

// Stored defs are heterogeneous in their argument types; each def narrows its own.
export type AnyFunctionDef = FunctionDef<any, any>;

/** Identity helper that keeps a def's argument type while checking its shape. */
export function defineFunction<A, V>(def: FunctionDef<A, V>): FunctionDef<A, V> {
  return def;
}
