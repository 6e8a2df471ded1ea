/**
 * Every tool type the core can store and run, one folder each (./<type>/module.ts). Adding a
 * type: its impl schema in shared/tool-types/ (and its lines in catalog.ts, constants.ts and
 * default-safety.ts), a folder here, a renderer module (renderer/src/tool-types/), and
 * one line in each registry — the compiler names whatever is missing. Generic code asks a module
 * for its capabilities and never compares type names (a lint rule). docs/architecture.md walks through it.
 */
import { TOOL_TYPES, type ToolType } from '../../../shared/tool-types/catalog.js';
import type { ToolTypeModule } from './tool-type.js';
import type { ToolFile } from '../../../shared/schemas.js';
import { memoizeByObject } from '../util/memo.js';
import { functionType } from './function/module.js';
import { httpType } from './http/module.js';
import { containerType } from './container/module.js';
import { pipelineType } from './pipeline/module.js';
import { upstreamType } from './upstream/module.js';

// A module's service type is its own business (`any`): the composition root hands each runner what its module opened.
export const TOOL_TYPE_MODULES: { readonly [T in ToolType]: ToolTypeModule<T, any> } = {
  function: functionType,
  http: httpType,
  container: containerType,
  pipeline: pipelineType,
  mcp: upstreamType,
};

export function toolTypeModule(type: ToolType): ToolTypeModule {
  return TOOL_TYPE_MODULES[type] as unknown as ToolTypeModule;
}

/** The types whose module has a capability, in the catalog's order (for messages such as "only container tools …"). */
export function typesWith(has: (module: ToolTypeModule) => unknown): ToolType[] {
  return TOOL_TYPES.filter((t) => has(toolTypeModule(t)));
}

/**
 * The secrets a tool needs to run, memoised per stored file object: the store replaces a tool's
 * object when its file changes, so an entry lives exactly as long as the version it describes.
 * Every availability check asks (each tools/list rebuild, each call), and an HTTP tool's answer
 * means parsing its templates: ~70 ms per rebuild at 10,000 tools before the memo.
 */
export const secretNamesOf: (file: ToolFile) => readonly string[] = memoizeByObject((file: ToolFile) =>
  Object.freeze(toolTypeModule(file.type).secretNames(file.impl as never, file.argSchema)),
);
