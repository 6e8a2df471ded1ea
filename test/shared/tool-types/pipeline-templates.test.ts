/**
 * A pipeline's template semantics (shared/tool-types/pipeline-templates.ts): what `${input.…}` and
 * `${steps.<id>.value…}` read, types kept for a lone placeholder and stringified inside text,
 * and the structural checks the core runs at save and the editor runs as you type.
 */
import { describe, expect, it } from 'vitest';
import {
  checkPipelineStructure,
  fillTemplate,
  lonePlaceholder,
  moreDangerous,
  parsePath,
  parseRef,
  refProblem,
  stepArgFit,
  TemplateError,
  type TemplateScope,
} from '../../../shared/tool-types/pipeline-templates.js';

const scope: TemplateScope = {
  input: { city: 'Oslo', days: 3, metric: true, tags: ['a', 'b'], where: { lat: 59.9, lon: 10.7 }, nothing: null },
  steps: {
    geo: { value: { results: [{ lat: 59.91, name: 'Oslo' }, { lat: 1 }], count: 2 } },
    temp: { value: 21.5 },
    label: { value: 'cold' },
  },
};

describe('filling templates', () => {
  it('keeps the JSON type of what a lone placeholder reads', () => {
    expect(fillTemplate('${input.days}', scope)).toBe(3);
    expect(fillTemplate('${input.metric}', scope)).toBe(true);
    expect(fillTemplate('${input.nothing}', scope)).toBeNull();
    expect(fillTemplate('${input.tags}', scope)).toEqual(['a', 'b']);
    expect(fillTemplate('${input.where}', scope)).toEqual({ lat: 59.9, lon: 10.7 });
    expect(fillTemplate('${steps.temp.value}', scope)).toBe(21.5);
    expect(fillTemplate('${steps.geo.value}', scope)).toEqual(scope.steps['geo']!.value);
    expect(fillTemplate('${ steps.geo.value.results[0].lat }', scope)).toBe(59.91);
    expect(fillTemplate('${steps.geo.value.results.1.lat}', scope)).toBe(1);
  });

  it('stringifies inside text: strings as they are, anything else as JSON', () => {
    expect(fillTemplate('${input.city} in ${input.days} days', scope)).toBe('Oslo in 3 days');
    expect(fillTemplate('it is ${steps.temp.value}°', scope)).toBe('it is 21.5°');
    expect(fillTemplate('at ${input.where}', scope)).toBe('at {"lat":59.9,"lon":10.7}');
    expect(fillTemplate('${input.tags}!', scope)).toBe('["a","b"]!');
    expect(fillTemplate('${input.nothing}/${input.metric}', scope)).toBe('null/true');
    // Two placeholders, nothing else: text, not one value.
    expect(fillTemplate('${input.days}${input.days}', scope)).toBe('33');
    expect(fillTemplate(' ${input.days}', scope)).toBe(' 3');
  });

  it('leaves out what is absent: a lone placeholder gives nothing, text gives ""', () => {
    expect(fillTemplate('${input.missing}', scope)).toBeUndefined();
    expect(fillTemplate('${steps.geo.value.results[5].lat}', scope)).toBeUndefined();
    expect(fillTemplate('[${input.missing}]', scope)).toBe('[]');
    expect(fillTemplate({ a: '${input.missing}', b: '${input.city}' }, scope)).toEqual({ b: 'Oslo' });
    expect(fillTemplate(['${input.missing}', 1], scope)).toEqual([null, 1]);
  });

  it('fills objects and arrays, keeps other values literal', () => {
    expect(fillTemplate({ place: { name: '${steps.geo.value.results[0].name}', n: '${steps.geo.value.count}' }, list: ['${input.days}', 'x'] }, scope)).toEqual(
      {
        place: { name: 'Oslo', n: 2 },
        list: [3, 'x'],
      },
    );
    expect(fillTemplate(42, scope)).toBe(42);
    expect(fillTemplate(false, scope)).toBe(false);
    expect(fillTemplate(null, scope)).toBeNull();
    expect(fillTemplate('no placeholders', scope)).toBe('no placeholders');
  });

  it('reads own properties only, never a prototype', () => {
    expect(fillTemplate('${input.constructor}', scope)).toBeUndefined();
    expect(fillTemplate('${input.city.length}', scope)).toBeUndefined();
    expect(fillTemplate('${steps.geo.value.__proto__}', scope)).toBeUndefined();
    expect(fillTemplate('${input.tags.length}', scope)).toBeUndefined();
  });

  it('refuses placeholders that are no pipeline reference, or steps that have not run', () => {
    expect(() => fillTemplate('${city}', scope)).toThrow(TemplateError);
    expect(() => fillTemplate('${city}', scope)).toThrow(/not a pipeline placeholder/);
    expect(() => fillTemplate('${steps.geo.output}', scope)).toThrow(/write \$\{steps\.geo\.value…\}/);
    expect(() => fillTemplate('x ${steps.later.value}', scope)).toThrow(/step "later", which has not run/);
    expect(() => fillTemplate('${input}', scope)).toThrow(/names no argument/);
  });
});

describe('references', () => {
  it('parses paths with dots and indices, and nothing malformed', () => {
    expect(parsePath('steps.geo.value.results[0].lat')).toEqual(['steps', 'geo', 'value', 'results', '0', 'lat']);
    expect(parsePath('input.a-b')).toEqual(['input', 'a-b']);
    expect(parsePath('input..a')).toBeUndefined();
    expect(parsePath('input.a b')).toBeUndefined();
    expect(parsePath('')).toBeUndefined();
    expect(parseRef('input.city')).toEqual({ kind: 'input', name: 'city', path: [] });
    expect(parseRef('steps.geo.value.a[2]')).toEqual({ kind: 'step', id: 'geo', path: ['a', '2'] });
    expect(parseRef('API_KEY').kind).toBe('invalid');
    expect(lonePlaceholder('${input.a}')).toBe('input.a');
    expect(lonePlaceholder('${input.a} ')).toBeUndefined();
  });

  it('says what is wrong with a placeholder at each point of a pipeline', () => {
    const at1 = { inputNames: ['city'], stepIDs: ['geo', 'weather', 'summary'], at: 1 };
    expect(refProblem('input.city', at1)).toBeUndefined();
    expect(refProblem('steps.geo.value.lat', at1)).toBeUndefined();
    expect(refProblem('input.town', at1)).toMatch(/names no argument of this pipeline \(its arguments: city\)/);
    expect(refProblem('steps.summary.value', at1)).toMatch(/runs after this one \(step 3\)/);
    expect(refProblem('steps.weather.value', at1)).toMatch(/this step's own value/);
    expect(refProblem('steps.nope.value', at1)).toMatch(/no step "nope" \(the steps are "geo", "weather", "summary"\)/);
    // The output may read every step.
    expect(refProblem('steps.summary.value', { inputNames: [], stepIDs: ['geo', 'summary'] })).toBeUndefined();
  });
});

describe('structural checks', () => {
  it('accepts a well-formed pipeline', () => {
    expect(
      checkPipelineStructure(
        {
          steps: [
            { id: 'geo', args: { q: '${input.city}' } },
            { id: 'weather', args: { lat: '${steps.geo.value.lat}', note: { city: 'at ${input.city}' } } },
          ],
          output: { t: '${steps.weather.value}' },
        },
        ['city'],
      ),
    ).toEqual([]);
  });

  it('names each field with what is wrong', () => {
    const issues = checkPipelineStructure(
      {
        steps: [
          { id: 'geo', args: { q: '${steps.weather.value}' } },
          { id: 'geo', args: {} },
          { id: '9lives', args: { deep: { list: ['${input.nope}'] } } },
          { id: '' },
        ],
        output: '${steps.missing.value}',
      },
      ['city'],
    );
    const byField = Object.fromEntries(issues.map((i) => [i.field, i.message]));
    expect(byField['impl.steps[0].args.q']).toMatch(/no step "weather"/);
    expect(byField['impl.steps[1].id']).toMatch(/also the ID of step 1/);
    expect(byField['impl.steps[2].id']).toMatch(/not a step ID/);
    expect(byField['impl.steps[2].args.deep.list[0]']).toMatch(/\$\{input\.nope\}/);
    expect(byField['impl.steps[3].id']).toMatch(/give the step an ID/);
    expect(byField['impl.output']).toMatch(/no step "missing"/);
  });

  it('judges how arguments fit a tool and orders safety', () => {
    const schema = { type: 'object', properties: { city: {}, days: {} }, required: ['city'], additionalProperties: false };
    expect(stepArgFit({ days: 1, town: 'x' }, schema)).toEqual({ missing: ['city'], unknown: ['town'] });
    expect(stepArgFit({ town: 'x', city: 'y' }, { ...schema, additionalProperties: true })).toEqual({ missing: [], unknown: [] });
    expect(moreDangerous('readOnly', 'privileged')).toBe('privileged');
    expect(moreDangerous('sideEffecting', 'readOnly')).toBe('sideEffecting');
  });
});
