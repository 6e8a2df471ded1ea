/**
 * Turns ajv errors for a tool's arguments (or output) into sentences a model can act on:
 * "missing required property 'city'", "'days' must be ≤ 14", "'unit' must be one of "c", "f"",
 * "unexpected property 'foo'". anyOf/oneOf branches are folded into one sentence per
 * alternative instead of ajv's one error per failed keyword of every branch.
 */
import type { ErrorObject } from 'ajv';
import type { FieldIssue } from '../../../shared/errors.js';

export interface SchemaIssue extends FieldIssue {
  /** The whole sentence, naming the field: what goes into the error message. */
  sentence: string;
}

function unescapePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

function pointerParts(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(unescapePointer);
}

function joinField(base: string, part: string): string {
  if (/^\d+$/.test(part)) return `${base}[${part}]`;
  return base ? `${base}.${part}` : part;
}

function fieldOf(pointer: string): string {
  return pointerParts(pointer).reduce(joinField, '');
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur = root;
  for (const part of pointerParts(pointer)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
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

function typesPhrase(types: string[]): string {
  return types.map(withArticle).join(' or ');
}

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

interface Issue {
  field: string;
  message: string;
  /** Sentences like "missing required property 'city'" name the field themselves. */
  sentence?: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describe(e: ErrorObject, data: unknown): Issue | undefined {
  const p = e.params as Record<string, unknown>;
  const field = fieldOf(e.instancePath);
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
      return { field, message: `has an invalid property name '${String(p['propertyName'])}'` };
    case 'type': {
      const types = String(p['type']).split(',');
      return { field, message: `must be ${typesPhrase(types)} (got ${kindOf(valueAt(data, e.instancePath))})` };
    }
    case 'enum':
      return { field, message: `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'const':
      return { field, message: `must be ${JSON.stringify(p['allowedValue'])}` };
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
      return { field, message: `must match the pattern ${String(p['pattern'])}` };
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
      return { field, message: `must have at least ${plural(Number(p['limit']), 'property')}`.replace('propertys', 'properties') };
    case 'maxProperties':
      return { field, message: `must have at most ${plural(Number(p['limit']), 'property')}`.replace('propertys', 'properties') };
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

function subject(field: string, rootName: string): string {
  return field ? `'${field}'` : rootName;
}

function finish(issue: Issue, rootName: string): SchemaIssue {
  return { field: issue.field, message: issue.message, sentence: issue.sentence ?? `${subject(issue.field, rootName)} ${issue.message}` };
}

const isComposite = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

function describeComposite(c: ErrorObject, branchErrors: Map<string, ErrorObject[]>, data: unknown, rootName: string): SchemaIssue {
  const field = fieldOf(c.instancePath);
  const passing = (c.params as { passingSchemas?: unknown }).passingSchemas;
  if (c.keyword === 'oneOf' && Array.isArray(passing)) {
    const message = `must match exactly one of the allowed forms, but it matches forms ${passing.map((i) => Number(i) + 1).join(' and ')}`;
    return finish({ field, message }, rootName);
  }
  const branches = [...branchErrors.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, errs]) => errs);
  const singleAtSelf = (keyword: string) =>
    branches.length > 0 && branches.every((errs) => errs.length === 1 && errs[0]!.keyword === keyword && errs[0]!.instancePath === c.instancePath);
  if (singleAtSelf('type')) {
    const types = branches.flatMap((errs) => String((errs[0]!.params as { type: unknown }).type).split(','));
    return finish({ field, message: `must be ${typesPhrase([...new Set(types)])} (got ${kindOf(valueAt(data, c.instancePath))})` }, rootName);
  }
  if (singleAtSelf('const') || singleAtSelf('enum')) {
    const values = branches.flatMap((errs) => {
      const p = errs[0]!.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      return p.allowedValues ?? [p.allowedValue];
    });
    return finish({ field, message: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` }, rootName);
  }
  const forms = branches.map((errs, i) => `(${i + 1}) ${schemaIssues(errs, data, rootName).map((s) => s.sentence).join(' and ') || 'its own rules'}`);
  return finish({ field, message: `must match one of the allowed forms: ${forms.join('; or ')}` }, rootName);
}

/**
 * One issue per problem, deduplicated. `data` is the validated value (ajv runs without
 * `verbose`, so the offending value is looked up by path); `rootName` names the value itself
 * when the problem is at its root ("the arguments", "the output").
 */
export function schemaIssues(errors: readonly ErrorObject[] | null | undefined, data: unknown, rootName: string): SchemaIssue[] {
  if (!errors?.length) return [];
  // Outermost composites first, so a branch error is attributed to the outermost anyOf/oneOf.
  const composites = errors.filter(isComposite).sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  const ownerOf = (e: ErrorObject) => composites.find((c) => c !== e && e.schemaPath.startsWith(c.schemaPath + '/'));
  const groups = new Map<ErrorObject, Map<string, ErrorObject[]>>();
  const out: SchemaIssue[] = [];
  const ordered: Array<ErrorObject | SchemaIssue> = [];
  for (const e of errors) {
    const owner = ownerOf(e);
    if (owner) {
      const branch = e.schemaPath.slice(owner.schemaPath.length + 1).split('/')[0]!;
      const byBranch = groups.get(owner) ?? new Map<string, ErrorObject[]>();
      groups.set(owner, byBranch);
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
      continue;
    }
    if (isComposite(e)) {
      if (!groups.has(e)) groups.set(e, new Map());
      ordered.push(e);
      continue;
    }
    const issue = describe(e, data);
    if (issue) ordered.push(finish(issue, rootName));
  }
  for (const item of ordered) {
    out.push('keyword' in item ? describeComposite(item, groups.get(item)!, data, rootName) : item);
  }
  const seen = new Set<string>();
  return out.filter((i) => !seen.has(i.sentence) && !!seen.add(i.sentence));
}

/** "a; b; c; and 4 more" */
export function summarise(issues: readonly SchemaIssue[], max = 8): string {
  const shown = issues.slice(0, max).map((i) => i.sentence);
  const rest = issues.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}
