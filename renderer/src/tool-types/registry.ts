/**
 * The renderer's tool types, one line each. The mapped type below makes a type added to
 * shared/tool-types/catalog.ts and missing here a compile error.
 */
import type { ToolType } from '../../../shared/tool-types/catalog.js';
import { TOOL_TYPE_NAMES as TOOL_TYPES } from '../../../shared/tool-types/constants.js';
import type { EditorTypeModule } from './editor-type.js';
import { httpEditorType } from './http.js';
import { containerEditorType } from './container.js';
import { functionEditorType } from './function.js';
import { pipelineEditorType } from './pipeline.js';
import { upstreamEditorType } from './upstream.js';

const MODULES = {
  http: httpEditorType,
  container: containerEditorType,
  function: functionEditorType,
  pipeline: pipelineEditorType,
  mcp: upstreamEditorType,
};

type DraftOf<M> = M extends EditorTypeModule<ToolType, infer D> ? D : never;

/** The working copy of every type's impl: switching type and back loses nothing. */
export type ImplDrafts = { [T in keyof typeof MODULES]: DraftOf<(typeof MODULES)[T]> };

export const EDITOR_TYPES: { [T in ToolType]: EditorTypeModule<T, ImplDrafts[T]> } = MODULES;

/** In the order of the type picker: the catalog's, with http first (the common case). */
export const EDITOR_TYPE_LIST = [...TOOL_TYPES].sort((a, b) => Number(b === 'http') - Number(a === 'http')).map((t) => EDITOR_TYPES[t]);

export function emptyImpls(): ImplDrafts {
  return Object.fromEntries(TOOL_TYPES.map((t) => [t, EDITOR_TYPES[t].empty()])) as ImplDrafts;
}

export function implOfType<T extends ToolType>(type: T, impls: ImplDrafts): Record<string, unknown> {
  const module: EditorTypeModule<T, ImplDrafts[T]> = EDITOR_TYPES[type];
  return module.toImpl(impls[type]);
}

export function implFromTool<T extends ToolType>(type: T, impl: Record<string, unknown>, impls: ImplDrafts): ImplDrafts {
  const module: EditorTypeModule<T, ImplDrafts[T]> = EDITOR_TYPES[type];
  return { ...impls, [type]: module.fromImpl(impl) };
}

export function checkImpl<T extends ToolType>(
  type: T,
  impls: ImplDrafts,
  ctx: { argNames: readonly string[] },
  set: (field: string, message: string | undefined) => void,
): void {
  const module: EditorTypeModule<T, ImplDrafts[T]> = EDITOR_TYPES[type];
  module.check(impls[type], ctx, set);
}

export const IMPL_FIELDS: readonly string[] = TOOL_TYPES.flatMap((t) => EDITOR_TYPES[t].fields);
