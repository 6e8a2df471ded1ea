/**
 * The tool types, by name, with the JSON Schema of their `impl`. This table is what the file
 * schema, the operations contract and both registries (core: electron/core/tool-types/registry.ts,
 * renderer: renderer/src/tool-types/registry.ts) are typed from: a type added here and
 * missing in either registry is a compile error there.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FunctionImpl } from './function.js';
import { HttpImpl } from './http.js';
import { ContainerImpl } from './container.js';
import { PipelineImpl } from './pipeline.js';
import { McpImpl } from './mcp.js';
import { TOOL_TYPE_NAMES } from './constants.js';

export const IMPL_SCHEMAS = {
  function: FunctionImpl,
  http: HttpImpl,
  container: ContainerImpl,
  pipeline: PipelineImpl,
  mcp: McpImpl,
} as const;

export type ToolType = keyof typeof IMPL_SCHEMAS;
export const TOOL_TYPES: readonly ToolType[] = TOOL_TYPE_NAMES;
// The plain list (what the renderer loads) and the schemas name the same types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchSchemas: Same<ToolType, (typeof TOOL_TYPE_NAMES)[number]> = true;
void namesMatchSchemas;
export type ImplOf<T extends ToolType> = Static<(typeof IMPL_SCHEMAS)[T]>;
export type Impl = { [T in ToolType]: ImplOf<T> }[ToolType];

/** `"function" | "http" | …` as a schema (an enum, so a new type needs no edit here). */
export const ToolTypeSchema = Type.Unsafe<ToolType>({ type: 'string', enum: [...TOOL_TYPES] });

/** The original spec calls in-process functions "go": such a tool.json is read as `function`. */
export const TOOL_TYPE_ALIASES: Readonly<Record<string, ToolType>> = { go: 'function' };

export function normalizeToolType(type: string): string {
  return Object.hasOwn(TOOL_TYPE_ALIASES, type) ? TOOL_TYPE_ALIASES[type]! : type;
}

/** A type as clients may send it: a type name or one of its aliases. */
export const ToolTypeInputSchema = Type.Unsafe<ToolType | 'go'>({ type: 'string', enum: [...TOOL_TYPES, ...Object.keys(TOOL_TYPE_ALIASES)] });
