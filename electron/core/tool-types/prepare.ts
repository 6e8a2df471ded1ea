/**
 * The rules a tool must pass before it is written, whatever writes it (an edit, a create, an
 * import): the impl of its type, the type's own save checks, schemas that compile, an argSchema
 * that describes an object. Every issue names its field and says how to fix it. Pure of I/O:
 * the caller supplies config, clock and IDs.
 */
import { v7 as uuidv7 } from 'uuid';
import { LRUCache } from 'lru-cache';
import type { FieldIssue } from '../../../shared/errors.js';
import { SCHEMA_VERSION, type Safety, type ToolFile } from '../../../shared/schemas.js';
import type { PrepareContext } from '../store/tools.js';
import { normalizeToolType, TOOL_TYPES, type ToolType } from '../../../shared/tool-types/catalog.js';
import type { ToolInput } from '../../../shared/operations.js';
import { invalid } from '../errors.js';
import { depthExceeded, MAX_SCHEMA_DEPTH } from '../../../shared/limits.js';
import { checkAgainst, makeUserAjv } from '../validation.js';
import { toolTypeModule } from './registry.js';
import { moreDangerous } from '../../../shared/tool-types/pipeline-templates.js';
import { prepareSchedules } from './schedule-rules.js';
import { implFromSpec } from '../../../shared/tool-types/spec-tool.js';

const userAjv = makeUserAjv();

// Compiling is the costly part of a save or an import (most tools share a few schemas), so the
// verdict per schema text is remembered.
const schemaVerdicts = new LRUCache<string, string>({ max: 2000 });

/** Checks a user-written JSON Schema compiles; returns issues. */
export function checkUserSchema(schema: unknown, field: string): FieldIssue[] {
  if (typeof schema === 'boolean') return [];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ field, message: 'must be a JSON Schema object (or true/false)' }];
  }
  // Before ajv compiles it (recursively): a 10,000-deep schema would exhaust the stack.
  const deep = depthExceeded(schema, MAX_SCHEMA_DEPTH, field);
  if (deep !== undefined) return [{ field: deep, message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten the schema (e.g. with $defs and $ref)` }];
  const key = JSON.stringify(schema);
  let verdict = schemaVerdicts.get(key);
  if (verdict === undefined) {
    try {
      const copy = JSON.parse(key) as Record<string, unknown>;
      delete copy['$id']; // an $id would be registered globally in ajv and clash on the next compile
      userAjv.compile(copy);
      userAjv.removeSchema(copy);
      verdict = '';
    } catch (e) {
      verdict = `does not compile as a JSON Schema: ${(e as Error).message}`;
    }
    schemaVerdicts.set(key, verdict);
  }
  return verdict ? [{ field, message: verdict }] : [];
}

/** The safety a tool gets when it does not say: its type's judgement of its impl. */
export function defaultSafety(type: ToolType, impl: Record<string, unknown>): Safety {
  return toolTypeModule(type).defaultSafety(impl as never);
}

function normalizeTags(tags: string[] | undefined): string[] {
  const out: string[] = [];
  for (const t of tags ?? []) {
    const v = t.normalize('NFC').trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** Builds the ToolFile to write from a client's input, or throws INVALID_INPUT with all issues. */
export function prepareTool(input: ToolInput, ctx: PrepareContext): ToolFile {
  const issues: FieldIssue[] = [];
  const typeName = normalizeToolType(input.type);
  if (!(TOOL_TYPES as string[]).includes(typeName))
    throw invalid([{ field: 'type', message: `must be one of ${TOOL_TYPES.map((t) => JSON.stringify(t)).join(', ')}` }]);
  const type = typeName as ToolType;
  const module = toolTypeModule(type);
  const impl = implFromSpec(input.type, input.impl) as Record<string, unknown>;
  const implIssues = checkAgainst(module.implSchema, impl, 'impl');
  issues.push(...implIssues);
  const argSchema = input.argSchema ?? { type: 'object', properties: {} };
  const outputSchema = input.outputSchema ?? {};
  issues.push(...checkUserSchema(argSchema, 'argSchema'), ...checkUserSchema(outputSchema, 'outputSchema'));
  if (typeof argSchema === 'object' && argSchema !== null && 'type' in argSchema && argSchema['type'] !== 'object') {
    issues.push({ field: 'argSchema', message: 'must describe an object ("type": "object"), because arguments are passed by name' });
  }
  const checkContext = {
    argSchema,
    config: ctx.config,
    bundleID: ctx.bundleID,
    slug: ctx.slug,
    version: ctx.version,
    ...(ctx.catalog ? { tools: ctx.catalog } : {}),
  };
  if (implIssues.length === 0) issues.push(...module.check(impl as never, checkContext));
  const toolID = ctx.existing?.toolID ?? uuidv7();
  // The final safety (a pipeline's is raised to its most dangerous step's): a schedule's approval depends on it.
  const declared = input.safety ?? (implIssues.length === 0 ? module.defaultSafety(impl as never) : 'privileged');
  const floor = implIssues.length === 0 ? module.safetyFloor?.(impl as never, checkContext) : undefined;
  const safety = floor ? moreDangerous(declared, floor) : declared;
  const schedules = prepareSchedules(input.schedules, {
    safety,
    argSchema,
    now: ctx.now,
    toolID,
    ...(ctx.existing ? { existing: ctx.existing } : {}),
    ...(ctx.scheduleOwner ? { scheduleOwner: ctx.scheduleOwner } : {}),
    ...(ctx.config.scheduleMinIntervalSeconds ? { minIntervalSeconds: ctx.config.scheduleMinIntervalSeconds } : {}),
  });
  issues.push(...schedules.issues);
  if (issues.length) throw invalid(issues);
  const extensions = input.extensions ?? ctx.existing?.extensions;
  const guard = guardOf(input, ctx.existing);

  return {
    schemaVersion: SCHEMA_VERSION,
    toolID,
    bundleID: ctx.bundleID,
    slug: ctx.slug,
    version: ctx.version,
    displayName: input.displayName?.trim() || ctx.slug,
    description: input.description ?? '',
    type,
    isEnabled: input.isEnabled ?? ctx.existing?.isEnabled ?? true,
    isBuiltIn: false,
    tags: normalizeTags(input.tags),
    safety,
    argSchema,
    outputSchema,
    impl: impl as ToolFile['impl'],
    // Written by the type that owns it (an upstream sync or accept), never by a save.
    ...(ctx.existing?.review ? { review: ctx.existing.review } : {}),
    card: input.card ?? { enabled: true },
    limits: input.limits ?? {},
    ...(guard ? { guard } : {}),
    ...(schedules.schedules.length ? { schedules: schedules.schedules } : {}),
    ...(extensions ? { extensions } : {}),
    createdAt: ctx.existing?.createdAt ?? ctx.now,
    modifiedAt: ctx.now,
    ...annotationsOf(input),
  };
}

/** The guard settings: the output mode as sent (kept when left out); a person's acceptance only as stored (tools.acceptGuard writes it). */
function guardOf(input: ToolInput, existing: ToolFile | undefined): ToolFile['guard'] {
  const output = input.guard ? input.guard.output : existing?.guard?.output;
  const accepted = existing?.guard?.accepted;
  if (!output && !accepted) return undefined;
  return { ...(output ? { output } : {}), ...(accepted ? { accepted } : {}) };
}

/** The "x-" keys of the input: people's annotations, kept as written. */
function annotationsOf(input: ToolInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => key.startsWith('x-')));
}
