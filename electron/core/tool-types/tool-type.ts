/**
 * What the core knows about a kind of tool, in one place per type (Insomnia's one module per
 * model kind): the JSON Schema of its impl, the safety it gets when none is given, the checks a
 * save runs beyond the schema, the secrets it needs, and how to build its runner. The registry
 * (./registry.ts) lists one module per type of shared/tool-types/catalog.ts.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FieldIssue } from '../../../shared/errors.js';
import type { Config, Safety } from '../../../shared/schemas.js';
import type { ImplOf, ToolType } from '../../../shared/tool-types/catalog.js';
import type { Logger } from '../log.js';
import type { SecretsReader } from '../secrets/types.js';
import type { FunctionRegistry } from '../functions/registry.js';
import type { Runner } from '../invoke/types.js';
import type { HttpRunnerOptions } from '../invoke/http/runner.js';
import type { ContainerRunnerOptions } from '../invoke/container/runner.js';

export interface SaveCheckContext {
  /** The tool's argSchema as it will be saved (placeholders may name its properties). */
  argSchema: unknown;
  config: Config;
}

/** What the composition root offers runner factories; each type takes what it needs. */
export interface RunnerServices {
  secrets: SecretsReader;
  functions: FunctionRegistry;
  log: Logger;
  /** The current config, for runners whose availability depends on it (file functions and the workspace root). */
  config?: () => Config;
  http?: HttpRunnerOptions;
  container?: ContainerRunnerOptions;
}

export interface ToolTypeModule<T extends ToolType = ToolType> {
  readonly type: T;
  /** The impl's JSON Schema (from shared/tool-types), checked before anything else at save. */
  readonly implSchema: TSchema;
  /** Safety when the tool does not say: what a run of this impl can do at most. */
  defaultSafety(impl: ImplOf<T>): Safety;
  /** Checks a save runs once the impl matches its schema; each issue names its field and the fix. */
  check(impl: ImplOf<T>, ctx: SaveCheckContext): FieldIssue[];
  /** App-scoped secrets a tool of this impl needs; a tool naming one that is not set is unavailable. */
  secretNames(impl: ImplOf<T>, argSchema: unknown): string[];
  createRunner(services: RunnerServices): Runner;
}
