// Long on purpose: one wording module for three audiences (API, editor, import), so a message is worded in one place.
/**
 * Validation failures (./validator.ts) turned into issues someone can act on. One module, three
 * audiences with their own wording:
 * - `apiIssues`: callers of the operations contract (REST, IPC, CLI): "missing required field
 *   'type'", "unknown field 'slug' in tool; remove it or check its spelling".
 * - `modelIssues`: the model or person calling a tool: "missing required property 'city'",
 *   "'days' must be ≤ 14", anyOf/oneOf folded into one sentence per allowed form.
 * - `formIssues`: the tester's form, one message per input: "must be at most 14".
 */
import type { FieldIssue } from '../errors.js';
import type { SchemaError } from './validator.js';
import { quoteKey } from '../limits.js';
import { plural } from '../format.js';

// ---- paths ------------------------------------------------------------------------------------

function unescapePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointerParts(pointer: string): string[] {
  return pointer === '' || pointer === '#' ? [] : pointer.replace(/^#/, '').split('/').slice(1).map(unescapePointer);
}

/** A path with one more part; a key longer than an error may quote is cut (a 1 MB key is not echoed). */
export function joinField(base: string, part: string): string {
  if (/^\d+$/.test(part)) return `${base}[${part}]`;
  const key = quoteKey(part);
  return base ? `${base}.${key}` : key;
}

/** A list of allowed values or a pattern taken from a schema, cut to what an error may quote. */
function quoted(values: unknown[]): string {
  return quoteKey(values.map((v) => JSON.stringify(v)).join(', '));
}

/** "/opts/0/days" → "opts[0].days" (with a prefix: "args.opts[0].days"). */
export function fieldOfPointer(pointer: string, prefix = ''): string {
  return pointerParts(pointer).reduce(joinField, prefix);
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur = root;
  for (const part of pointerParts(pointer)) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function dedupe<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const isComposite = (e: SchemaError) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

// ---- api: callers of the contract ---------------------------------------------------------------

function apiMessage(e: SchemaError, field: string): string {
  const p = e.params;
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown field '${quoteKey(String(p['additionalProperty']))}'${field ? ` in ${field}` : ''}; remove it or check its spelling`;
    case 'required':
      return `missing required field '${quoteKey(String(p['missingProperty']))}'`;
    case 'type':
      return `must be ${String(p['type'])}`;
    case 'pattern':
      return `has an invalid format (must match ${quoteKey(String(p['pattern']))})`;
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'maxLength':
      return `must be at most ${String(p['limit'])} characters long`;
    case 'minLength':
      return Number(p['limit']) === 1 ? 'must not be empty' : `must be at least ${String(p['limit'])} characters long`;
    case 'maximum':
      return `must be ≤ ${String(p['limit'])}`;
    case 'minimum':
      return `must be ≥ ${String(p['limit'])}`;
    case 'exclusiveMinimum':
      return `must be > ${String(p['limit'])}`;
    case 'maxItems':
      return `must have at most ${String(p['limit'])} items`;
    case 'minItems':
      return `must have at least ${String(p['limit'])} items`;
    case 'enum':
      return `must be one of ${quoted(p['allowedValues'] as unknown[])}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/** One issue per field, without anyOf noise: what the contract's INVALID_INPUT carries. */
export function apiIssues(errors: readonly SchemaError[] | null | undefined, prefix = ''): FieldIssue[] {
  if (!errors?.length) return [];
  const byPath = new Map<string, SchemaError[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath);
    if (list) list.push(e);
    else byPath.set(e.instancePath, [e]);
  }
  const issues: FieldIssue[] = [];
  for (const [path, errs] of byPath) {
    const field = fieldOfPointer(path, prefix);
    const consts = errs.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params['allowedValue']));
    const specific = errs.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'const' && e.keyword !== 'oneOf');
    if (consts.length > 1 || (consts.length === 1 && specific.length === 0)) {
      issues.push({ field, message: `must be one of ${quoteKey(consts.join(', '))}` });
      continue;
    }
    for (const e of specific.length ? specific : errs) issues.push({ field, message: apiMessage(e, field) });
  }
  // An anyOf over types gives one issue per branch; keep the first per field+message.
  return dedupe(issues, (i) => i.field + '\u0000' + i.message);
}

// ---- model: whoever calls a tool ----------------------------------------------------------------

/** Errors of one validation that are worded; the rest are not read (an answer shows at most 20 issues). */
export const MAX_DESCRIBED_ERRORS = 500;

export interface SchemaIssue extends FieldIssue {
  /** The whole sentence, naming the field: what goes into the error message. */
  sentence: string;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'nothing';
  return `a ${typeof value}`;
}

function withArticle(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

const typesPhrase = (types: string[]): string => types.map(withArticle).join(' or ');

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-05-14T13:44:00Z',
  date: '2026-05-14',
  time: '13:44:00Z',
  email: 'name@example.com',
  uri: 'https://example.com/path',
  uuid: '0190a2b4-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
  ipv4: '192.0.2.1',
  hostname: 'example.com',
};

interface Described {
  field: string;
  message: string;
  /** Sentences like "missing required property 'city'" name the field themselves. */
  sentence?: string;
}

function modelDescribe(e: SchemaError, data: unknown): Described | undefined {
  const p = e.params;
  const field = fieldOfPointer(e.instancePath);
  switch (e.keyword) {
    case 'if':
      return undefined; // the failing then/else branch reports itself
    case 'required': {
      const f = joinField(field, String(p['missingProperty']));
      return { field: f, message: 'is required', sentence: `missing required property '${f}'` };
    }
    case 'dependentRequired':
    case 'dependencies': {
      const f = joinField(field, String(p['missingProperty']));
      const because = joinField(field, String(p['property']));
      return { field: f, message: `is required when '${because}' is given`, sentence: `missing property '${f}', required when '${because}' is given` };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const f = joinField(field, String(p['additionalProperty'] ?? p['unevaluatedProperty']));
      return { field: f, message: 'is not an allowed property; remove it or check its spelling', sentence: `unexpected property '${f}'` };
    }
    case 'propertyNames':
      return { field, message: `has an invalid property name '${quoteKey(String(p['propertyName']))}'` };
    case 'type':
      return { field, message: `must be ${typesPhrase(String(p['type']).split(','))} (got ${kindOf(valueAt(data, e.instancePath))})` };
    case 'enum':
      return { field, message: `must be one of ${quoted(p['allowedValues'] as unknown[])}` };
    case 'const':
      return { field, message: `must be ${quoted([p['allowedValue']])}` };
    case 'maximum':
      return { field, message: `must be ≤ ${String(p['limit'])}` };
    case 'minimum':
      return { field, message: `must be ≥ ${String(p['limit'])}` };
    case 'exclusiveMaximum':
      return { field, message: `must be < ${String(p['limit'])}` };
    case 'exclusiveMinimum':
      return { field, message: `must be > ${String(p['limit'])}` };
    case 'multipleOf':
      return { field, message: `must be a multiple of ${String(p['multipleOf'])}` };
    case 'minLength':
      return { field, message: Number(p['limit']) === 1 ? 'must not be empty' : `must be at least ${plural(Number(p['limit']), 'character')} long` };
    case 'maxLength':
      return { field, message: `must be at most ${plural(Number(p['limit']), 'character')} long` };
    case 'pattern':
      return { field, message: `must match the pattern ${quoteKey(String(p['pattern']))}` };
    case 'format': {
      const format = String(p['format']);
      const example = FORMAT_EXAMPLES[format];
      return { field, message: `must be a valid ${format}${example ? ` (e.g. ${example})` : ''}` };
    }
    case 'minItems':
      return { field, message: `must have at least ${plural(Number(p['limit']), 'item')}` };
    case 'maxItems':
      return { field, message: `must have at most ${plural(Number(p['limit']), 'item')}` };
    case 'uniqueItems':
      return { field, message: `must not contain duplicates (items ${String(p['j'])} and ${String(p['i'])} are equal)` };
    case 'minProperties':
      return { field, message: `must have at least ${plural(Number(p['limit']), 'property', 'properties')}` };
    case 'maxProperties':
      return { field, message: `must have at most ${plural(Number(p['limit']), 'property', 'properties')}` };
    case 'contains':
      return { field, message: `must contain at least ${plural(Number(p['minContains'] ?? 1), 'matching item')}` };
    case 'not':
      return { field, message: 'must not match the excluded form' };
    case 'false schema':
      return { field, message: 'is not allowed' };
    default:
      return { field, message: e.message ?? 'is invalid' };
  }
}

function finish(issue: Described, rootName: string): SchemaIssue {
  const subject = issue.field ? `'${issue.field}'` : rootName;
  return { field: issue.field, message: issue.message, sentence: issue.sentence ?? `${subject} ${issue.message}` };
}

function describeComposite(c: SchemaError, branchErrors: Map<string, SchemaError[]>, data: unknown, rootName: string): SchemaIssue {
  const field = fieldOfPointer(c.instancePath);
  const passing = c.params['passingSchemas'];
  if (c.keyword === 'oneOf' && Array.isArray(passing)) {
    const message = `must match exactly one of the allowed forms, but it matches forms ${passing.map((i) => Number(i) + 1).join(' and ')}`;
    return finish({ field, message }, rootName);
  }
  const branches = [...branchErrors.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, errs]) => errs);
  const singleAtSelf = (keyword: string) =>
    branches.length > 0 && branches.every((errs) => errs.length === 1 && errs[0]!.keyword === keyword && errs[0]!.instancePath === c.instancePath);
  if (singleAtSelf('type')) {
    const types = branches.flatMap((errs) => String(errs[0]!.params['type']).split(','));
    return finish({ field, message: `must be ${typesPhrase([...new Set(types)])} (got ${kindOf(valueAt(data, c.instancePath))})` }, rootName);
  }
  if (singleAtSelf('const') || singleAtSelf('enum')) {
    const values = branches.flatMap((errs) => {
      const p = errs[0]!.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      return p.allowedValues ?? [p.allowedValue];
    });
    return finish({ field, message: `must be one of ${quoted(values)}` }, rootName);
  }
  const forms = branches.map(
    (errs, i) =>
      `(${i + 1}) ${
        modelIssues(errs, data, rootName)
          .map((s) => s.sentence)
          .join(' and ') || 'its own rules'
      }`,
  );
  return finish({ field, message: `must match one of the allowed forms: ${forms.join('; or ')}` }, rootName);
}

/**
 * One issue per problem, deduplicated. `data` is the validated value (the offending value is
 * looked up by path); `rootName` names the value itself when the problem is at its root
 * ("the arguments", "the output").
 */
export function modelIssues(all: readonly SchemaError[] | null | undefined, data: unknown, rootName: string): SchemaIssue[] {
  if (!all?.length) return [];
  // Attributing errors to composites is quadratic; an answer shows 20 issues, so 500 errors are plenty.
  const errors = all.length > MAX_DESCRIBED_ERRORS ? all.slice(0, MAX_DESCRIBED_ERRORS) : all;
  // Outermost composites first, so a branch error is attributed to the outermost anyOf/oneOf.
  const composites = errors.filter(isComposite).sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  const ownerOf = (e: SchemaError) => composites.find((c) => c !== e && e.schemaPath.startsWith(c.schemaPath + '/'));
  const groups = new Map<SchemaError, Map<string, SchemaError[]>>();
  const ordered: Array<SchemaError | SchemaIssue> = [];
  for (const e of errors) {
    const owner = ownerOf(e);
    if (owner) {
      const branch = e.schemaPath.slice(owner.schemaPath.length + 1).split('/')[0]!;
      const byBranch = groups.get(owner) ?? new Map<string, SchemaError[]>();
      groups.set(owner, byBranch);
      const list = byBranch.get(branch);
      if (list) list.push(e);
      else byBranch.set(branch, [e]);
      continue;
    }
    if (isComposite(e)) {
      if (!groups.has(e)) groups.set(e, new Map());
      ordered.push(e);
      continue;
    }
    const issue = modelDescribe(e, data);
    if (issue) ordered.push(finish(issue, rootName));
  }
  const out = ordered.map((item) => ('keyword' in item ? describeComposite(item, groups.get(item)!, data, rootName) : item));
  return dedupe(out, (i) => i.sentence);
}

/** "a; b; c; and 4 more" */
export function summarise(issues: readonly SchemaIssue[], max = 8): string {
  const shown = issues.slice(0, max).map((i) => i.sentence);
  const rest = issues.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

// ---- form: the tester's inputs ----------------------------------------------------------------------

/** Keywords whose error only says "a child failed"; the child's own error is reported instead. */
const WRAPPER_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentSchemas',
  'dependencies',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

export interface FormIssue {
  /** rjsf's property path: ".opts.days" ("" for the root). */
  property: string;
  message: string;
  keyword: string;
  schemaPath: string;
  /** For `required`: the property that is missing (the issue is placed at it). */
  missingProperty?: string;
}

function formMessage(e: SchemaError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `must have required property '${String(p['missingProperty'])}'`;
    case 'type':
      return `must be ${String(p['type']).split(',').join(' or ')}`;
    case 'enum':
    case 'const':
      return `must be one of ${(p['allowedValues'] as unknown[] | undefined)?.map((v) => JSON.stringify(v)).join(', ') ?? JSON.stringify(p['allowedValue'])}`;
    case 'minLength':
      return `must have at least ${String(p['limit'])} characters`;
    case 'maxLength':
      return `must have at most ${String(p['limit'])} characters`;
    case 'pattern':
      return 'does not match the required pattern';
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'minItems':
      return `must have at least ${String(p['limit'])} items`;
    case 'maxItems':
      return `must have at most ${String(p['limit'])} items`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p['limit'])}`;
    case 'minimum':
      return `must be at least ${String(p['limit'])}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p['limit'])}`;
    case 'maximum':
      return `must be at most ${String(p['limit'])}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p['multipleOf'])}`;
    case 'anyOf':
      return 'must match one of the allowed shapes (anyOf)';
    case 'oneOf':
      return `must match exactly one of the allowed shapes (oneOf${p['passingCount'] !== undefined ? `; ${String(p['passingCount'])} match` : ''})`;
    default:
      return (e.message ?? 'is invalid').replace(/^Instance /, '').replace(/\.$/, '');
  }
}

/** One message per input; anyOf/oneOf report their summary, not each branch's failures. */
export function formIssues(errors: readonly SchemaError[] | null | undefined): FormIssue[] {
  if (!errors?.length) return [];
  const combinators = errors.filter(isComposite).map((e) => e.schemaPath);
  const out: FormIssue[] = [];
  for (const e of errors) {
    if (WRAPPER_KEYWORDS.has(e.keyword)) continue;
    if (combinators.some((c) => e.schemaPath !== c && e.schemaPath.startsWith(c + '/'))) continue;
    const missing = e.keyword === 'required' ? String(e.params['missingProperty']) : undefined;
    let property = pointerParts(e.instancePath)
      .map((p) => '.' + p)
      .join('');
    if (missing !== undefined) property = `${property}.${missing}`;
    const issue: FormIssue = { property, message: formMessage(e), keyword: e.keyword, schemaPath: e.schemaPath };
    if (missing !== undefined) issue.missingProperty = missing;
    out.push(issue);
  }
  return dedupe(out, (i) => `${i.property}\u0000${i.message}`);
}
