/**
 * What a pipeline's templates mean, in one place for the core (save checks, the runner) and the
 * editor (checks as you type, autocomplete):
 *
 * - `${input.<argument>…}` reads the pipeline's own arguments; `${steps.<id>.value…}` reads the
 *   value of an earlier step. A path goes on with `.name` or `[index]`: `${steps.geo.value.results[0].lat}`.
 * - A template that is one placeholder alone keeps the JSON type of what it reads (a number stays
 *   a number, an object an object); a placeholder inside text is stringified (strings as they
 *   are, anything else as JSON). Something absent fills a lone placeholder with nothing (the
 *   argument is left out, so optional arguments stay optional) and text with "".
 * - Objects and arrays are templates too: each string inside is filled; other values are literal.
 */
import type { FieldIssue } from '../errors.js';
import { isPlainObject } from '../plain-object.js';
import type { Safety } from '../schemas.js';
import { findPlaceholders } from '../template.js';
import { joinField } from '../json-schema/issues.js';
import { STEP_ID_PATTERN } from './constants.js';

export type PipelineRef = { kind: 'input'; name: string; path: string[] } | { kind: 'step'; id: string; path: string[] } | { kind: 'invalid'; reason: string };

export interface TemplateScope {
  input: Record<string, unknown>;
  /** The steps that have run, by ID. */
  steps: Record<string, { value: unknown }>;
}

/** A template that cannot be filled (a placeholder that is no pipeline reference, a step that has not run). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const STEP_ID = new RegExp(STEP_ID_PATTERN);
const TOKEN = /([^.[\]\s]+)|\[(\d+)\]/y;

/** "steps.geo.value.results[0].lat" → ["steps","geo","value","results","0","lat"]; undefined when malformed. */
export function parsePath(expr: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < expr.length) {
    if (out.length > 0) {
      if (expr[i] === '.') i++;
      else if (expr[i] !== '[') return undefined;
    }
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(expr);
    if (!m) return undefined;
    out.push(m[1] ?? m[2]!);
    i = TOKEN.lastIndex;
  }
  return out.length ? out : undefined;
}

const HOW = 'use ${input.<argument>} or ${steps.<step id>.value…}';

export function parseRef(expr: string): PipelineRef {
  const parts = parsePath(expr.trim());
  if (!parts) return { kind: 'invalid', reason: `\${${expr}} is not a pipeline placeholder: ${HOW}` };
  if (parts[0] === 'input') {
    if (parts.length < 2) return { kind: 'invalid', reason: `\${${expr}} names no argument: write \${input.<argument>}` };
    return { kind: 'input', name: parts[1]!, path: parts.slice(2) };
  }
  if (parts[0] === 'steps') {
    if (parts.length < 3 || parts[2] !== 'value')
      return { kind: 'invalid', reason: `\${${expr}}: a step offers its value; write \${steps.${parts[1] ?? '<step id>'}.value…}` };
    return { kind: 'step', id: parts[1]!, path: parts.slice(3) };
  }
  return { kind: 'invalid', reason: `\${${expr}} is not a pipeline placeholder: ${HOW}` };
}

/** The value at a path, or undefined; only own properties (never a prototype's). */
export function valueAtPath(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const part of path) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, part)) {
      cur = (cur as Record<string, unknown>)[part];
    } else return undefined;
  }
  return cur;
}

function reader(expr: string): (scope: TemplateScope) => unknown {
  const ref = parseRef(expr);
  if (ref.kind === 'invalid') {
    return () => {
      throw new TemplateError(ref.reason);
    };
  }
  if (ref.kind === 'input') {
    const path = [ref.name, ...ref.path];
    return (scope) => valueAtPath(scope.input, path);
  }
  const shown = `\${${expr.trim()}}`;
  return (scope) => {
    if (!Object.hasOwn(scope.steps, ref.id)) throw new TemplateError(`${shown} reads step "${ref.id}", which has not run before this point`);
    return valueAtPath(scope.steps[ref.id]!.value, ref.path);
  };
}

/** How a value reads inside text: a string as it is, nothing as "", anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The one placeholder a template consists of, or undefined when it is text (or holds several). */
export function lonePlaceholder(template: string): string | undefined {
  const found = findPlaceholders(template);
  return found.length === 1 && found[0]!.start === 0 && found[0]!.end === template.length ? found[0]!.name : undefined;
}

/** A template made ready to fill many times (a pipeline's steps run again and again). */
export type CompiledTemplate = (scope: TemplateScope) => unknown;

export function compileTemplate(template: unknown): CompiledTemplate {
  if (typeof template === 'string') {
    const found = findPlaceholders(template);
    if (found.length === 0) return () => template;
    if (found.length === 1 && found[0]!.start === 0 && found[0]!.end === template.length) return reader(found[0]!.name);
    const parts: (string | CompiledTemplate)[] = [];
    let at = 0;
    for (const p of found) {
      if (p.start > at) parts.push(template.slice(at, p.start));
      parts.push(reader(p.name));
      at = p.end;
    }
    if (at < template.length) parts.push(template.slice(at));
    return (scope) => parts.map((part) => (typeof part === 'string' ? part : textOf(part(scope)))).join('');
  }
  if (Array.isArray(template)) {
    const items = template.map(compileTemplate);
    return (scope) => items.map((item) => item(scope) ?? null);
  }
  if (template !== null && typeof template === 'object') {
    const entries = Object.entries(template).map(([k, t]) => [k, compileTemplate(t)] as const);
    return (scope) => {
      const out: Record<string, unknown> = {};
      for (const [k, fill] of entries) {
        const v = fill(scope);
        if (v !== undefined) out[k] = v;
      }
      return out;
    };
  }
  return () => template;
}

/** Fills a template (see the top of this file). Throws TemplateError for a placeholder that cannot be read. */
export function fillTemplate(template: unknown, scope: TemplateScope): unknown {
  return compileTemplate(template)(scope);
}

/** Every placeholder inside a template, with the field it sits in (`impl.output.summary`, …). */
export function templatePlaceholders(template: unknown, field: string): { field: string; expr: string }[] {
  const out: { field: string; expr: string }[] = [];
  const walk = (t: unknown, at: string, depth: number) => {
    if (depth > 64) return;
    if (typeof t === 'string') for (const p of findPlaceholders(t)) out.push({ field: at, expr: p.name });
    else if (Array.isArray(t)) t.forEach((x, i) => walk(x, joinField(at, String(i)), depth + 1));
    else if (t !== null && typeof t === 'object') for (const [k, x] of Object.entries(t)) walk(x, joinField(at, k), depth + 1);
  };
  walk(template, field, 0);
  return out;
}

/** What a placeholder may read at one point of a pipeline. */
export interface RefScope {
  /** The pipeline's argument names (argSchema properties). */
  inputNames: readonly string[];
  /** Every step ID, in order. */
  stepIDs: readonly string[];
  /** Index of the step whose arguments hold the placeholder; undefined for the output (which may read every step). */
  at?: number;
}

/** Why a placeholder is wrong at this point, or undefined when it reads something that will be there. */
export function refProblem(expr: string, scope: RefScope): string | undefined {
  const ref = parseRef(expr);
  if (ref.kind === 'invalid') return ref.reason;
  const shown = `\${${expr.trim()}}`;
  if (ref.kind === 'input') {
    if (scope.inputNames.includes(ref.name)) return undefined;
    const known = scope.inputNames.length ? `its arguments: ${scope.inputNames.join(', ')}` : 'it has none yet';
    return `${shown} names no argument of this pipeline (${known}); add '${ref.name}' to the argument schema or correct the name`;
  }
  const index = scope.stepIDs.indexOf(ref.id);
  if (index < 0) {
    const known = scope.stepIDs.length ? `the steps are ${scope.stepIDs.map((s) => `"${s}"`).join(', ')}` : 'there are no steps';
    return `${shown} names no step "${ref.id}" (${known})`;
  }
  if (scope.at !== undefined && index === scope.at) return `${shown} reads this step's own value; a step can only read the steps before it`;
  if (scope.at !== undefined && index > scope.at)
    return `${shown} reads step "${ref.id}", which runs after this one (step ${index + 1}); a step can only read the steps before it`;
  return undefined;
}

interface StepShape {
  id: string;
  args?: Record<string, unknown>;
}

/**
 * The checks that need nothing but the pipeline itself: step IDs well-formed and unique, and
 * every placeholder reading an argument of the pipeline or an earlier step. Fields are named
 * as the server names them (`impl.steps[1].args.city`).
 */
export function checkPipelineStructure(impl: { steps: readonly StepShape[]; output?: unknown }, inputNames: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stepIDs = impl.steps.map((s) => s.id);
  impl.steps.forEach((step, i) => {
    const field = `impl.steps[${i}]`;
    if (!STEP_ID.test(step.id)) {
      issues.push({
        field: `${field}.id`,
        message: step.id
          ? `"${step.id}" is not a step ID: start with a letter, then letters, digits, '_' or '-' (at most 64)`
          : 'give the step an ID (it names the step in ${steps.<id>.value})',
      });
    } else {
      const first = stepIDs.indexOf(step.id);
      if (first < i) issues.push({ field: `${field}.id`, message: `"${step.id}" is also the ID of step ${first + 1}; step IDs must be unique` });
    }
    for (const [name, template] of Object.entries(step.args ?? {})) {
      for (const p of templatePlaceholders(template, joinField(`${field}.args`, name))) {
        const problem = refProblem(p.expr, { inputNames, stepIDs, at: i });
        if (problem) issues.push({ field: p.field, message: problem });
      }
    }
  });
  if (impl.output !== undefined) {
    for (const p of templatePlaceholders(impl.output, 'impl.output')) {
      const problem = refProblem(p.expr, { inputNames, stepIDs });
      if (problem) issues.push({ field: p.field, message: problem });
    }
  }
  return issues;
}

function schemaObject(schema: unknown): Record<string, unknown> | undefined {
  return isPlainObject(schema) ? schema : undefined;
}

/** The argument names a tool's argSchema lists, in order. */
export function schemaPropertyNames(schema: unknown): string[] {
  const props = schemaObject(schemaObject(schema)?.['properties']);
  return props ? Object.keys(props) : [];
}

/** How a step's arguments meet the argSchema of the tool it calls. */
export function stepArgFit(args: Record<string, unknown> | undefined, argSchema: unknown): { missing: string[]; unknown: string[] } {
  const s = schemaObject(argSchema);
  const given = new Set(Object.keys(args ?? {}));
  const required = Array.isArray(s?.['required']) ? (s['required'] as unknown[]).filter((r): r is string => typeof r === 'string') : [];
  const names = schemaPropertyNames(argSchema);
  const closed = s?.['additionalProperties'] === false;
  return {
    missing: required.filter((r) => !given.has(r)),
    unknown: closed ? [...given].filter((g) => !names.includes(g)) : [],
  };
}

export const SAFETY_LEVELS: readonly Safety[] = ['readOnly', 'sideEffecting', 'privileged'];

/** The more dangerous of two safety levels. */
export function moreDangerous(a: Safety, b: Safety): Safety {
  return SAFETY_LEVELS.indexOf(b) > SAFETY_LEVELS.indexOf(a) ? b : a;
}

/** `geocode v1`, or `tools/geocode v1` when the bundle's slug is known: how messages name a step's tool. */
export function stepToolLabel(ref: { slug: string; version: string }, bundleSlug?: string): string {
  return `${bundleSlug ? `${bundleSlug}/` : ''}${ref.slug} ${ref.version}`;
}
