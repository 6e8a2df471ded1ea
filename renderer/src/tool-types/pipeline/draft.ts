/**
 * The pipeline editor's working copy and what can be judged in it without the server: steps
 * keep their arguments as text while typed (a JSON literal for arguments that are not strings),
 * converted once on save. The rules themselves are shared with the core (shared/tool-types/pipeline-templates.ts).
 */
import { checkPipelineStructure, lonePlaceholder, parseRef, refProblem, schemaPropertyNames } from '../../../../shared/tool-types/pipeline-templates.js';
import { findPlaceholders } from '../../../../shared/template.js';
import { STEP_ID_PATTERN } from '../../../../shared/tool-types/constants.js';
import type { StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import type { PlaceholderKind, PlaceholderProblem, PlaceholderRules } from '../../features/tools/editor/TemplateInput.js';
import { compact, numberIssue, str, type SetIssue } from '../editor-type.js';

export interface StepArgDraft {
  text: string;
  /** Sent as JSON when it parses (a number, a boolean, an array…); otherwise as a template string. */
  json: boolean;
}

export interface StepDraft {
  /** Stable across edits and moves (React's key); never sent. */
  key: string;
  id: string;
  tool: StepToolRef | null;
  args: Record<string, StepArgDraft>;
}

export interface PipelineDraft {
  steps: StepDraft[];
  output: string;
  timeoutSeconds: string;
}

let keys = 0;
export function newStepKey(): string {
  keys += 1;
  return `step-${keys}`;
}

export function emptyPipeline(): PipelineDraft {
  return { steps: [], output: '', timeoutSeconds: '' };
}

function argFromValue(value: unknown): StepArgDraft {
  return typeof value === 'string' ? { text: value, json: false } : { text: JSON.stringify(value), json: true };
}

export function pipelineFromImpl(impl: Record<string, unknown>): PipelineDraft {
  const steps = Array.isArray(impl['steps']) ? (impl['steps'] as Record<string, unknown>[]) : [];
  const output = impl['output'];
  return {
    steps: steps.map((s) => ({
      key: newStepKey(),
      id: str(s['id']),
      tool: s['tool'] && typeof s['tool'] === 'object' ? ({ ...(s['tool'] as StepToolRef) } as StepToolRef) : null,
      args: Object.fromEntries(Object.entries((s['args'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, argFromValue(v)])),
    })),
    output: output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output, null, 2),
    timeoutSeconds: str(impl['timeoutSeconds']),
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** An argument as sent: a literal when it is marked JSON and parses, else its text as a template. */
export function argValue(arg: StepArgDraft): unknown {
  if (!arg.json) return arg.text;
  const parsed = parseJson(arg.text.trim());
  return parsed.ok ? parsed.value : arg.text;
}

/** The output as sent: nothing when empty; JSON (whose strings are templates) when it reads as an object or array; else a template string. */
export function outputValue(text: string): unknown {
  const t = text.trim();
  if (!t) return undefined;
  if (t.startsWith('{') || t.startsWith('[')) {
    const parsed = parseJson(t);
    if (parsed.ok) return parsed.value;
  }
  return text;
}

export function pipelineToImpl(d: PipelineDraft): Record<string, unknown> {
  return compact({
    steps: d.steps.map((s) => ({
      id: s.id.trim(),
      tool: s.tool ? compact({ ...s.tool }) : { slug: '', version: '' },
      args: Object.fromEntries(Object.entries(s.args).flatMap(([k, a]) => (a.text.trim() === '' ? [] : [[k, argValue(a)]]))),
    })),
    output: outputValue(d.output),
    timeoutSeconds: d.timeoutSeconds.trim() === '' ? undefined : Number(d.timeoutSeconds.trim()),
  });
}

export function checkPipeline(d: PipelineDraft, ctx: { argNames: readonly string[] }, set: SetIssue): void {
  if (d.steps.length === 0) set('impl.steps', 'add at least one step: pick the tool it calls');
  d.steps.forEach((s, i) => {
    if (!s.tool) set(`impl.steps[${i}].tool`, 'pick the tool this step calls');
    for (const [name, arg] of Object.entries(s.args)) {
      // A `${` not closed yet is a placeholder being typed, not a broken literal.
      if (arg.json && arg.text.trim() && !arg.text.includes('${') && !parseJson(arg.text.trim()).ok) {
        set(`impl.steps[${i}].args.${name}`, 'is not a JSON value: write a number, true/false, [..] or {..}, or a ${…} placeholder');
      }
    }
  });
  const impl = pipelineToImpl(d) as { steps: { id: string; args?: Record<string, unknown> }[]; output?: unknown };
  for (const issue of checkPipelineStructure(impl, ctx.argNames)) set(issue.field, issue.message);
  set('impl.timeoutSeconds', numberIssue(d.timeoutSeconds, 0, 900));
}

/** A free step ID made from a tool's slug: `geocode`, `geocode-2`… */
export function stepIDFor(slug: string, taken: readonly string[]): string {
  let base = slug
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 56);
  if (!base) base = 'step';
  if (!new RegExp(STEP_ID_PATTERN).test(base)) base = 'step';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/** What a step's tool looks like to the editor, once fetched. */
export interface StepToolInfo {
  argSchema: unknown;
  outputSchema: unknown;
}

/** The placeholders a field may use at one point: the pipeline's arguments, then earlier steps' values (and their output properties). */
export function placeholderSuggestions(inputNames: readonly string[], steps: readonly { id: string; tool?: StepToolInfo }[], at?: number): string[] {
  const out = inputNames.map((n) => `input.${n}`);
  const visible = at === undefined ? steps : steps.slice(0, at);
  for (const s of visible) {
    if (!s.id) continue;
    out.push(`steps.${s.id}.value`);
    for (const p of schemaPropertyNames(s.tool?.outputSchema)) out.push(`steps.${s.id}.value.${p}`);
  }
  return out;
}

/** A message for a template field unless the field's own rules already say it (the editor's checks and the field's share wording). */
export function unlessShown(message: string | undefined, rules: PlaceholderRules, template: string): string | undefined {
  return message && !rules.problems(template).some((p) => p.message === message) ? message : undefined;
}

/** The placeholder rules of one field: what it may read, with the shared wording of problems. */
export function pipelineRules(inputNames: readonly string[], stepIDs: readonly string[], at?: number): PlaceholderRules {
  const scope = { inputNames, stepIDs, ...(at === undefined ? {} : { at }) };
  return {
    classify(name): PlaceholderKind {
      if (refProblem(name, scope)) return 'unknown';
      return parseRef(name).kind === 'input' ? 'arg' : 'step';
    },
    problems(template): PlaceholderProblem[] {
      const seen = new Set<string>();
      const out: PlaceholderProblem[] = [];
      for (const p of findPlaceholders(template)) {
        if (seen.has(p.name)) continue;
        seen.add(p.name);
        const message = refProblem(p.name, scope);
        if (message) out.push({ name: p.name, kind: 'unknown', severity: 'error', message });
      }
      return out;
    },
  };
}

/** The JSON type an argument's schema asks for, when it is one type. */
export function argType(schema: unknown): string | undefined {
  const t = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)['type'] : undefined;
  return typeof t === 'string' ? t : undefined;
}

/** Whether an argument of this schema is typed as JSON (anything but a string). */
export function wantsJson(schema: unknown): boolean {
  const t = argType(schema);
  return t !== undefined && t !== 'string';
}

/** How a mapped argument will arrive, for the hint under it. */
export function argPreview(arg: StepArgDraft): string {
  const text = arg.text;
  if (!text.trim()) return 'left out';
  if (lonePlaceholder(text) !== undefined) return 'keeps the type of what it reads';
  if (findPlaceholders(text).length) return 'text with the values filled in';
  return arg.json && parseJson(text.trim()).ok ? 'a fixed JSON value' : 'a fixed string';
}
