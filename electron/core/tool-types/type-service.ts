/**
 * What a tool type may run beside its tools (docs/architecture.md, "How to add… a tool type that brings a service": a tool type is a
 * plugin). A type whose tools need more than a runner brings a service: the composition root opens
 * it by looping over the registry (./type-services.ts), before the runners, and hands it to the
 * type's own runner. The service owns what it starts (its disposables), answers the operations of
 * the type's contract domain (shared/operations/<domain>.ts), names the files it keeps in a
 * bundle's folder (the store's watcher calls it when one changes, in any process), and answers
 * what the store asks a type before it writes. Generic code asks these members and never the
 * type's name. The upstream MCP servers (./upstream/open.ts) are the worked example;
 * docs/architecture.md, "How to add… a tool type that brings a service", walks through one.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { ToolView } from '../../../shared/types.js';
import type { OpInput, OpName, OpOutput, StoreEvent } from '../../../shared/operations.js';
import type { ConfigStore } from '../config.js';
import type { DataPaths } from '../data-paths.js';
import type { Disposables } from '../lifecycle.js';
import type { Logger } from '../log.js';
import type { SecretsStore } from '../secrets/secrets-store.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import type { BundleService } from '../store/bundles.js';
import type { ApprovalStore } from '../agents/approvals.js';

/** What the composition root offers a type's service; each takes what it needs. */
export interface TypeServiceContext {
  paths: DataPaths;
  /** Writers take the Store; reads go through `store.reader`. */
  store: Store;
  config: ConfigStore;
  secrets: SecretsStore;
  /** Where a person answers what a run asks (an upstream server's questions). */
  approvals: ApprovalStore;
  log: Logger;
  /** Tells every window and agent connection that something changed (the store's event stream). */
  emit(event: StoreEvent): void;
  appVersion: string;
  /**
   * The tool and bundle services, built after the runners (the engine needs those): call these
   * when serving an operation or a background event, never while the service is being opened.
   */
  tools(): ToolService;
  bundles(): BundleService;
  /** Whatever the service starts (listeners, timers, child processes) goes here: closed with the core, in reverse order. */
  owned: Disposables;
}

/**
 * A handler of one operation of the type's domain: the validated input in, the answer out (the
 * dispatcher checked the input against the contract and wraps the answer in its envelope).
 */
export type TypeHandler<N extends OpName> = (input: OpInput<N>) => Promise<OpOutput<N>> | OpOutput<N>;
/** One handler for every operation of a domain table; a name left out is a compile error. */
export type TypeHandlers<Ops> = { readonly [N in keyof Ops & OpName]: TypeHandler<N> };

/** What the store asks a type before it writes (generic code never asks the type's name). */
export interface StoreHooks {
  /**
   * Why a tool of `type` may not be added to this bundle by hand (a bundle that holds only what
   * the type's service makes), or undefined. The message is the refusal the client sees.
   */
  refuseTool?(bundle: BundleFile, type: string | undefined): string | undefined;
  /**
   * A bundle.json was created or replaced by this process (never one another process wrote):
   * `before` is what it held, undefined for a new bundle. For work the change starts in the
   * background (an upstream server's sync when its source is new); it must not throw.
   */
  bundleSaved?(before: BundleFile | undefined, after: BundleFile): void;
  /**
   * What a tool's view shows beside or over its file, judged from what the type knows (an
   * upstream tool's review state as the server's last sync makes it). Cheap; asked per view.
   */
  toolView?(file: ToolFile): Partial<ToolView> | undefined;
  /**
   * Fields to write with a person's save of the tool (a switch or an edit) that keep what the
   * file showed before it (an upstream tool stored before review states gets the state it
   * showed, so the switch does not change it), or undefined.
   */
  keptOnSave?(file: ToolFile): Partial<ToolFile> | undefined;
}

export interface TypeService<Ops = Record<never, never>> {
  /** The operations of the type's contract domain (shared/operations/<domain>.ts), one handler each. */
  readonly handlers?: TypeHandlers<Ops>;
  /**
   * Files the type keeps in a bundle's folder beside bundle.json, by name: called (debounced) when
   * one is written or removed on disk, by this process or another.
   */
  readonly bundleFiles?: Readonly<Record<string, (bundleID: string) => void | Promise<void>>>;
  readonly storeHooks?: StoreHooks;
  /** Whether a link is one this process handed out for a person to open (an upstream sign-in): the desktop opens only those. */
  ownsLink?(url: string): boolean;
  /** What agents read beside the tools of a bundle the type owns (an upstream server's instructions), for the guard and lint. */
  instructionsOf?(bundleID: string): string | undefined;
}
