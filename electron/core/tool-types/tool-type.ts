/**
 * What the core knows about a kind of tool, in one place per type (Insomnia's one module per
 * model kind): the JSON Schema of its impl, the safety it gets when none is given, the checks a
 * save runs beyond the schema, the secrets it needs, and how to build its runner; and the optional
 * capabilities generic code asks for instead of naming a type (build files, hosts called, transfer
 * hooks), and the service a type may bring (./type-service.ts). The registry (./registry.ts) lists one module per type of shared/tool-types/catalog.ts.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FieldIssue } from '../../../shared/errors.js';
import type { BundleFile, Config, Safety, ToolFile } from '../../../shared/schemas.js';
import type { ImportReport } from '../../../shared/types.js';
import type { ImplOf, ToolType } from '../../../shared/tool-types/catalog.js';
import type { Logger } from '../log.js';
import type { SecretsReader } from '../secrets/types.js';
import type { OperationRunner } from '../functions/services.js';
import type { FunctionRegistry } from '../functions/registry.js';
import type { Runner } from '../invoke/types.js';
import type { HttpRunnerOptions } from './http/runner.js';
import type { ContainerRunnerOptions } from './container/runner.js';
import type { StepInvoker } from './pipeline/step-invoker.js';
import type { ToolCatalog } from '../store/tool-catalog.js';
import type { TypeService, TypeServiceContext } from './type-service.js';

export interface SaveCheckContext {
  /** The tool's argSchema as it will be saved (placeholders may name its properties). */
  argSchema: unknown;
  config: Config;
  /** Where the tool is saved, under which name (a pipeline's steps name tools of its own bundle; a cycle comes back to this name). */
  bundleID: string;
  slug: string;
  version: string;
  /**
   * The store as it is, read-only, for checks that look at other tools. Absent when a tool is
   * checked apart from any store: an import checks references itself, once it has re-linked them.
   */
  tools?: ToolCatalog;
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
  /**
   * How a pipeline runs its steps: through the engine, every gate included. A thunk, because the
   * engine is built from the runners: the composition root hands over a function that returns
   * the invoker it builds once the engine exists, and a runner calls it only when it runs or is
   * asked about a tool, never while the core is being put together.
   */
  steps?: () => StepInvoker;
  /**
   * Something the availability of this type's tools depends on outside the store changed (the
   * Docker engine came or went): agents' lists are looked at again (MCP list_changed).
   */
  availabilityChanged?: () => void;
  /** Every runner of the core, for a type that uses another's capability (built-in shell-exec: the container sandbox); a thunk, as they are built together. */
  runners?: () => readonly Runner[];
  /** The dispatcher, late-bound: built-in functions that act through operations (the schedule tools) run them for the call's caller. */
  operations?: () => OperationRunner | undefined;
}

/**
 * A type's module. `S` is the service it brings (./type-service.ts), when its tools need more than
 * a runner: opened by the composition root before the runners, and handed to its own runner.
 */
export interface ToolTypeModule<T extends ToolType = ToolType, S extends TypeService<any> | undefined = undefined> extends ToolTypeCapabilities<T> {
  readonly type: T;
  /** The impl's JSON Schema (from shared/tool-types), checked before anything else at save. */
  readonly implSchema: TSchema;
  /** Safety when the tool does not say: what a run of this impl can do at most. */
  defaultSafety(impl: ImplOf<T>): Safety;
  /**
   * The least safety a tool of this impl may be saved with (a pipeline: its most dangerous
   * step's); a lower or missing safety is raised to it. Absent: no floor.
   */
  safetyFloor?(impl: ImplOf<T>, ctx: SaveCheckContext): Safety;
  /** Checks a save runs once the impl matches its schema; each issue names its field and the fix. */
  check(impl: ImplOf<T>, ctx: SaveCheckContext): FieldIssue[];
  /** App-scoped secrets a tool of this impl needs; a tool naming one that is not set is unavailable. */
  secretNames(impl: ImplOf<T>, argSchema: unknown): string[];
  /**
   * The type's service (its disposables, operations, bundle files, store hooks), opened once per
   * core by looping over the registry (./type-services.ts). Absent for a type that needs only a runner.
   */
  openService?(ctx: TypeServiceContext): S | Promise<S>;
  /** Its runner; `service` is what its openService gave (undefined for a type without one, or a runner built apart from a core). */
  createRunner(services: RunnerServices, service?: S): Runner;
}

/** A bundle an import is about to write, as a type's transfer hooks see it (transfer/validate.ts's BundleDraft). */
export interface ImportDraft {
  file: BundleFile;
  tools: readonly { file: ToolFile }[];
  origin: string;
}

/** What a type does when its tools travel between machines (export and import). */
export interface TransferHooks<T extends ToolType> {
  /** Bundle IDs a tool of this impl calls into: an export carries them along (built-ins excepted). */
  calledBundles?(impl: ImplOf<T>): string[];
  /** The impl as exported, e.g. with hints that let an import find what it names on another machine. */
  exported?(impl: ImplOf<T>, bundle: (bundleID: string) => BundleFile | undefined): ImplOf<T>;
  /**
   * Re-links the tools of this type among an import's drafts once their bundles' final IDs are
   * known (archive ID → ID here). `report` is merged into the ImportReport; throws INVALID_INPUT
   * to refuse the import, writing nothing.
   */
  relinkImport?<D extends ImportDraft>(
    drafts: readonly D[],
    finalIDs: ReadonlyMap<string, string>,
    base: ToolCatalog,
  ): { drafts: D[]; report: Partial<ImportReport>; warnings: string[] };
}

/** Optional capabilities: generic code asks the registry for these and never compares a type's name. */
export interface ToolTypeCapabilities<T extends ToolType> {
  /**
   * Tools of this type keep build files beside tool.json and build an image from them
   * (tool-files/: the build-files and builds operations); their runner implements `ImageBuilder`.
   */
  readonly buildFiles?: {
    /** The impl builds from the tool's own folder, so a new tool needs its build files written next. */
    buildsFromFolder(impl: ImplOf<T>): boolean;
  };
  /** Literal hosts a tool of this impl calls; an import asks the person to allow those config.allowedHosts lacks. */
  hostsCalled?(impl: ImplOf<T>): string[];
  /** Warnings an import gives for a tool of this impl arriving with these files beside it (not refusals). */
  importWarnings?(file: ToolFile & { impl: ImplOf<T> }, files: readonly { rel: string }[]): string[];
  readonly transfer?: TransferHooks<T>;
}
