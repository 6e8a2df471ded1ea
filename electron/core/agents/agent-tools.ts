/**
 * What agents see: the tools that may run now, each with a name a model API accepts. One rule
 * for the MCP server's tools/list and for GET /tools/tools/openai-functions, so a tool has the
 * same name in both for the same scope (all bundles, or the same chosen bundles).
 *
 * Names (`^[A-Za-z0-9_-]{1,64}$`, readable, deterministic from the visible set, so stable across
 * restarts): the slug, transliterated (accents dropped, anything else becomes '_'). When several
 * visible tools share that name, each gets its bundle's slug in front if they live in different
 * bundles, and its version behind if one bundle holds several versions of it; a numeric suffix
 * settles whatever still collides. Order: bundle slug, slug, version, toolID.
 */
import type { StoreReader, ToolRecord } from '../store/reader.js';
import { isPlainObject } from '../../../shared/plain-object.js';
import type { ToolService } from '../store/tools.js';
import type { BundleFile, Safety, ToolFile } from '../../../shared/schemas.js';

export const MAX_TOOL_NAME = 64;
/** localeCompare's order, without building a collator per comparison. */
const COLLATOR = new Intl.Collator();

export function asciiName(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (ascii || 'tool').slice(0, MAX_TOOL_NAME);
}

export interface AgentTool {
  name: string;
  file: ToolFile;
  bundle: BundleFile;
  /** The safety a run has now (a pipeline: at least its most dangerous step's), for annotations and approvals. */
  safety: Safety;
  /** A profile's override of the description the agent sees (the tool itself keeps its own). */
  description?: string;
  /** The name or description comes from a profile's override. */
  overridden?: boolean;
}

export interface AgentScope {
  /** Bundle IDs (lower case) the connection or export is limited to; undefined: all. */
  bundleIDs?: ReadonlySet<string>;
  /** Tools offered besides those of `bundleIDs` (a profile's include). */
  toolIDs?: ReadonlySet<string>;
  /** Tools left out whatever their bundle (a profile's exclude). */
  excludeToolIDs?: ReadonlySet<string>;
}

/** The visible tools of a scope, named, in a stable order. */
export function agentTools(store: StoreReader, tools: ToolService, scope: AgentScope = {}): AgentTool[] {
  const recs: ToolRecord[] = [];
  for (const rec of store.tools()) {
    if (scope.bundleIDs && !scope.bundleIDs.has(rec.file.bundleID) && !scope.toolIDs?.has(rec.file.toolID)) continue;
    if (scope.excludeToolIDs?.has(rec.file.toolID)) continue;
    if (tools.offeredToAgents(rec)) recs.push(rec);
  }
  const bundleOf = (r: ToolRecord) => store.bundle(r.file.bundleID)!.file;
  const cmp = COLLATOR.compare;
  recs.sort(
    (a, b) =>
      cmp(bundleOf(a).slug, bundleOf(b).slug) || cmp(a.file.slug, b.file.slug) || cmp(a.file.version, b.file.version) || cmp(a.file.toolID, b.file.toolID),
  );

  const groups = new Map<string, ToolRecord[]>();
  for (const r of recs) {
    const key = asciiName(r.file.slug);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const used = new Set<string>();
  return recs.map((r) => {
    const base = asciiName(r.file.slug);
    const group = groups.get(base)!;
    let name = base;
    if (group.length > 1) {
      const severalBundles = new Set(group.map((g) => g.file.bundleID)).size > 1;
      const severalVersions = group.filter((g) => g.file.bundleID === r.file.bundleID).length > 1;
      const parts = [severalBundles ? bundleOf(r).slug : undefined, r.file.slug, severalVersions ? r.file.version : undefined];
      name = asciiName(parts.filter((p) => p !== undefined).join('_'));
    }
    const unique = name;
    for (let i = 2; used.has(name); i++) {
      const suffix = `_${i}`;
      name = unique.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    }
    used.add(name);
    return { name, file: r.file, bundle: bundleOf(r), safety: tools.safetyOf(r) };
  });
}

/** MCP tool annotations of a safety level (docs/contracts.md, "Agents: MCP server and CLI"). */
export function safetyAnnotations(safety: Safety): { readOnlyHint: boolean; destructiveHint?: boolean } {
  if (safety === 'readOnly') return { readOnlyHint: true };
  if (safety === 'sideEffecting') return { readOnlyHint: false, destructiveHint: false };
  return { readOnlyHint: false, destructiveHint: true };
}

/** An argSchema as a model API wants it: an object schema without $schema/$id. */
export function parametersOf(schema: unknown): Record<string, unknown> {
  const parameters: Record<string, unknown> = isPlainObject(schema) ? { ...schema } : { type: 'object', properties: {} };
  if (parameters['type'] === undefined) parameters['type'] = 'object';
  if (parameters['properties'] === undefined) parameters['properties'] = {};
  delete parameters['$schema'];
  delete parameters['$id'];
  return parameters;
}

/** An outputSchema worth announcing: an object schema with something in it. */
export function announcedOutputSchema(schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  if (Object.keys(s).length === 0 || s['type'] !== 'object') return undefined;
  const out = { ...s };
  delete out['$schema'];
  delete out['$id'];
  return out;
}
