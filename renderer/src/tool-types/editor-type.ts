/**
 * One editor module per tool type, the renderer's half of the type registry (the core's half is
 * electron/core/tool-types/). A module says everything the tool editor needs to know about its
 * type: the working copy of its impl, how to read and write it, what can be checked as you
 * type, which server fields it owns, and the form that edits it.
 */
import type { ComponentType } from 'react';
import type { Safety } from '../../../shared/schemas.js';
import type { ToolType } from '../../../shared/tool-types/catalog.js';
import type { PlaceholderContext } from '../features/tools/editor/TemplateInput.js';
import type { ToolView } from '../../../shared/types.js';
import { formatCount } from '../lib/format.js';

export type Errors = ReadonlyMap<string, string>;

/** Records the first message per field; undefined messages are ignored. */
export type SetIssue = (field: string, message: string | undefined) => void;

/** The fields of the draft every type shares and a type may propose values for (a function's own schemas). */
export interface DraftCommon {
  argSchemaText: string;
  outputSchemaText: string;
  safety: Safety | 'auto';
  description: string;
}

export interface ImplEditorProps<D> {
  value: D;
  onChange(patch: Partial<D>): void;
  common: DraftCommon;
  onCommon(patch: Partial<DraftCommon>): void;
  ctx: PlaceholderContext;
  errors: Errors;
  readOnly?: boolean;
  /** Where the tool lives (and which tool it is, once saved): a pipeline's steps name tools relative to its bundle, never itself. */
  owner?: { bundleID: string; toolID?: string };
  /** The tool as saved (undefined while it is being created): what lives beside its tool.json. */
  tool?: ToolView;
}

export interface EditorTypeModule<T extends ToolType, D> {
  type: T;
  /** The name in the type picker. */
  label: string;
  /** False for a type whose tools are made elsewhere (an upstream server's): offered only to a tool that already has it. */
  creatable?: boolean;
  empty(): D;
  fromImpl(impl: Record<string, unknown>): D;
  toImpl(draft: D): Record<string, unknown>;
  /** What can be judged without the server, keyed like the server's issues (impl.…). */
  check(draft: D, ctx: { argNames: readonly string[] }, set: SetIssue): void;
  /** The impl fields the server may report issues at. */
  fields: readonly string[];
  Editor: ComponentType<ImplEditorProps<D>>;
  /** The wording of the safety picker's "auto" choice when the type judges it otherwise than by its impl. */
  safetyAutoLabel?: string;
  /** A new tool of this impl needs files written beside tool.json next: the editor stays open, on its files. */
  writeFilesAfterCreate?(impl: Record<string, unknown>): boolean;
}

export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
export const optInt = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s.trim()));
export const optStr = (s: string): string | undefined => (s.trim() === '' ? undefined : s);

export function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function intIssue(value: string, min: number, max: number): string | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n)) return 'must be a whole number';
  if (n < min || n > max) return `must be between ${formatCount(min)} and ${formatCount(max)}`;
  return undefined;
}

export function numberIssue(value: string, exclusiveMin: number, max: number): string | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isFinite(n)) return 'must be a number';
  if (n <= exclusiveMin || n > max) return `must be more than ${exclusiveMin} and at most ${max}`;
  return undefined;
}
