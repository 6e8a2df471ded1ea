/**
 * The tool types' services, opened by looping over the registry (./registry.ts): the composition
 * root's one line for every type that brings a service (./type-service.ts). And what generic code
 * asks of them all: the runners (each type's runner gets its own service), the handlers of the
 * types' operations, the files they keep in bundle folders, the store's hooks, the links they own.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { ToolView } from '../../../shared/types.js';
import type { Runner } from '../invoke/types.js';
import { TOOL_TYPE_MODULES } from './registry.js';
import type { RunnerServices, ToolTypeModule } from './tool-type.js';
import type { TypeService, TypeServiceContext } from './type-service.js';

type AnyModule = ToolTypeModule<never, TypeService | undefined>;
type AnyHandler = (input: never) => unknown;

/** Names in a bundle's folder that are the store's own: no type may claim them. */
const STORE_NAMES = new Set(['bundle.json', 'tools']);

export class TypeServices {
  private constructor(private readonly opened: ReadonlyMap<string, TypeService>) {}

  /** Opens each type's service, in the registry's order. */
  static async open(ctx: TypeServiceContext): Promise<TypeServices> {
    const opened = new Map<string, TypeService>();
    for (const [type, module] of modules()) {
      const service = await module.openService?.(ctx);
      if (service) opened.set(type, service);
    }
    return new TypeServices(opened);
  }

  /** One runner per type, each built with its own service. */
  runners(services: RunnerServices): Runner[] {
    return modules().map(([type, module]) => module.createRunner(services, this.opened.get(type)));
  }

  /** The handlers of every type's operations, by name; a name two types both answer is refused. */
  handlers(): ReadonlyMap<string, AnyHandler> {
    const all = new Map<string, AnyHandler>();
    for (const [type, service] of this.opened) {
      for (const [name, handler] of Object.entries(service.handlers ?? {}) as [string, AnyHandler][]) {
        if (all.has(name)) throw new Error(`operation '${name}' is answered by two tool types' services (the second: ${type}): each operation has one home`);
        all.set(name, handler);
      }
    }
    return all;
  }

  /** The files types keep in a bundle's folder, by name, with whom to tell when one changes on disk. */
  bundleFiles(): ReadonlyMap<string, (bundleID: string) => Promise<void>> {
    const files = new Map<string, (bundleID: string) => Promise<void>>();
    for (const [type, service] of this.opened) {
      for (const [name, changed] of Object.entries(service.bundleFiles ?? {})) {
        if (STORE_NAMES.has(name) || files.has(name) || name.includes('/') || name.startsWith('.')) {
          throw new Error(`the ${type} type cannot keep '${name}' in a bundle's folder: the name is the store's, another type's, or not a plain file name`);
        }
        files.set(name, async (bundleID) => void (await changed(bundleID)));
      }
    }
    return files;
  }

  /** The first type's reason to refuse a hand-made tool of `type` in this bundle, or undefined. */
  refuseTool(bundle: BundleFile, type: string | undefined): string | undefined {
    for (const service of this.opened.values()) {
      const reason = service.storeHooks?.refuseTool?.(bundle, type);
      if (reason) return reason;
    }
    return undefined;
  }

  /** Tells every type's hook that this process created or replaced a bundle.json. */
  bundleSaved(before: BundleFile | undefined, after: BundleFile): void {
    for (const service of this.opened.values()) service.storeHooks?.bundleSaved?.(before, after);
  }

  /** What the tool's own type adds to its view (StoreHooks.toolView), or undefined. */
  toolView(file: ToolFile): Partial<ToolView> | undefined {
    return this.opened.get(file.type)?.storeHooks?.toolView?.(file);
  }

  /** What the tool's own type writes with a person's save to keep what the file showed (StoreHooks.keptOnSave). */
  keptOnSave(file: ToolFile): Partial<ToolFile> | undefined {
    return this.opened.get(file.type)?.storeHooks?.keptOnSave?.(file);
  }

  /** What agents read beside a bundle's tools, from the type that owns the bundle (an upstream server's instructions). */
  instructionsOf(bundleID: string): string | undefined {
    for (const service of this.opened.values()) {
      const text = service.instructionsOf?.(bundleID);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Whether some type handed out this link for a person to open (the desktop opens only those). */
  ownsLink(url: string): boolean {
    return [...this.opened.values()].some((s) => s.ownsLink?.(url) === true);
  }
}

function modules(): [string, AnyModule][] {
  return Object.entries(TOOL_TYPE_MODULES) as [string, AnyModule][];
}
