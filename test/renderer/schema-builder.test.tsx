// @vitest-environment jsdom
/**
 * The argument-schema builder: its model of a JSON Schema, and edits that keep the JSON the truth
 * (unknown keywords, key order and formatting untouched, only the edited part rewritten), plus the
 * component driving the same text the JSON editor shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import {
  addProperty,
  formatEnum,
  freshName,
  parseDefault,
  parseEnum,
  readSchema,
  removeProperty,
  renameProperty,
  setClosed,
  setDefault,
  setDescription,
  setEnum,
  setRequired,
  setType,
} from '../../renderer/src/features/tools/editor/schema/schemaModel.js';
import { SchemaBuilder } from '../../renderer/src/features/tools/editor/schema/SchemaBuilder.js';

afterEach(() => cleanup());

// Hand-formatted, with keywords the builder does not know at every level.
const SCHEMA = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "title": "Weather query",
  "properties": {
    "city": { "type": "string", "minLength": 2, "pattern": "^[A-Z]", "x-ui": { "widget": "city" } },
    "days": { "type": "integer", "minimum": 1, "maximum": 14, "default": 3 },
    "units": { "oneOf": [{ "const": "metric" }, { "const": "imperial" }] },
    "where": {
      "type": "object",
      "properties": { "lat": { "type": "number", "examples": [52.5] } },
      "required": ["lat"],
      "dependentRequired": { "lat": ["lon"] }
    },
    "tags": { "type": "array", "items": { "type": "string", "format": "hostname" }, "uniqueItems": true }
  },
  "required": ["city"],
  "additionalProperties": false
}`;

const parse = (t: string) => JSON.parse(t) as Record<string, any>;

describe('reading a schema', () => {
  it('shows properties with type, required, description, enum and default, and names what it keeps but does not show', () => {
    const m = readSchema(SCHEMA);
    if (!m.ok) throw new Error(m.reason);
    expect(m.root.extras).toEqual(['$schema', 'title']);
    expect(m.root.object.additional).toBe(false);
    const [city, days, units, where, tags] = m.root.object.properties;
    expect(city).toMatchObject({ name: 'city', type: 'string', required: true, extras: ['minLength', 'pattern', 'x-ui'], blocked: null });
    expect(days).toMatchObject({ name: 'days', type: 'integer', required: false, hasDefault: true, defaultValue: 3, extras: ['minimum', 'maximum'] });
    expect(units).toMatchObject({ name: 'units', type: null, blocked: 'uses oneOf' });
    expect(where!.object!.properties[0]).toMatchObject({ name: 'lat', type: 'number', required: true, extras: ['examples'] });
    expect(where!.extras).toEqual(['dependentRequired']);
    expect(tags!.items).toMatchObject({ type: 'string', extras: ['format'], path: ['properties', 'tags', 'items'] });
  });

  it('says why when it cannot show a schema: bad JSON, not an object, a top-level $ref, a list of types', () => {
    expect(readSchema('{ "type": ').ok).toBe(false);
    expect(readSchema('true')).toMatchObject({ ok: false, reason: expect.stringMatching(/not an object schema/) });
    expect(readSchema('{"type":"string"}')).toMatchObject({ ok: false, reason: expect.stringMatching(/type is string/) });
    const ref = readSchema('{"$ref":"#/$defs/q","properties":{"a":{"type":["string","null"]}}}');
    if (!ref.ok) throw new Error(ref.reason);
    expect(ref.notes[0]).toMatch(/uses \$ref at the top/);
    expect(ref.root.object.properties[0]).toMatchObject({ type: null, typeText: 'string | null', blocked: 'its type is string | null' });
  });
});

describe('edits keep the JSON the truth', () => {
  it('round-trips: every edit leaves unknown keywords, other properties and formatting as written', () => {
    let t = SCHEMA;
    t = addProperty(t, [], 'country');
    t = setType(t, ['properties', 'country'], 'string');
    t = setRequired(t, [], 'country', true);
    t = setDescription(t, ['properties', 'country'], 'ISO code');
    t = setEnum(t, ['properties', 'country'], ['DE', 'FR']);
    t = setDefault(t, ['properties', 'country'], 'DE');
    t = setDescription(t, ['properties', 'city'], 'City name');
    t = addProperty(t, ['properties', 'where'], 'lon', 'number');
    const v = parse(t);
    const before = parse(SCHEMA);
    // What the builder did not touch is exactly as before…
    expect(v['$schema']).toBe(before['$schema']);
    expect(v['title']).toBe(before['title']);
    expect(v['properties'].units).toEqual(before['properties'].units);
    expect(v['properties'].days).toEqual(before['properties'].days);
    expect(v['properties'].tags).toEqual(before['properties'].tags);
    expect(v['properties'].where.dependentRequired).toEqual({ lat: ['lon'] });
    expect(v['properties'].city).toEqual({ ...before['properties'].city, description: 'City name' });
    // …and so is its text: hand-formatted lines away from the edits are still there, character for
    // character (jsonc-parser re-indents only the lines an edit touches).
    for (const line of SCHEMA.split('\n').filter((l) => /"(days|units|\$schema|title)"/.test(l))) expect(t).toContain(line);
    // What it did is there too.
    expect(v['properties'].country).toEqual({ type: 'string', description: 'ISO code', enum: ['DE', 'FR'], default: 'DE' });
    expect(v['required']).toEqual(['city', 'country']);
    expect(v['properties'].where.properties.lon).toEqual({ type: 'number' });
    // The builder reads back what it wrote.
    const m = readSchema(t);
    if (!m.ok) throw new Error(m.reason);
    expect(m.root.object.properties.find((p) => p.name === 'country')).toMatchObject({ required: true, description: 'ISO code', enumValues: ['DE', 'FR'] });
  });

  it('renames in place, keeping position, schema and required', () => {
    const t = renameProperty(SCHEMA, [], 'city', 'town');
    const v = parse(t);
    expect(Object.keys(v['properties'])).toEqual(['town', 'days', 'units', 'where', 'tags']);
    expect(v['properties'].town).toEqual(parse(SCHEMA)['properties'].city);
    expect(v['required']).toEqual(['town']);
    expect(() => renameProperty(SCHEMA, [], 'city', 'days')).toThrow(/already a property named days/);
    expect(() => renameProperty(SCHEMA, [], 'city', '')).toThrow(/needs a name/);
    // Nested, and a name that looks like a prototype key stays plain data.
    const nested = parse(renameProperty(SCHEMA, ['properties', 'where'], 'lat', '__proto__'));
    expect(Object.keys(nested['properties'].where.properties)).toEqual(['__proto__']);
    expect(nested['properties'].where.required).toEqual(['__proto__']);
  });

  it('removes a property and its required entry (and an emptied required)', () => {
    const v = parse(removeProperty(SCHEMA, [], 'city'));
    expect(Object.keys(v['properties'])).toEqual(['days', 'units', 'where', 'tags']);
    expect('required' in v).toBe(false);
    expect(v['additionalProperties']).toBe(false);
  });

  it('changes a type: its own keywords go with the old type, keywords it does not manage stay', () => {
    const toNumber = parse(setType(setEnum(SCHEMA, ['properties', 'city'], ['Berlin']), ['properties', 'city'], 'number'));
    expect(toNumber['properties'].city).toEqual({ type: 'number', minLength: 2, pattern: '^[A-Z]', 'x-ui': { widget: 'city' } });
    const toArray = parse(setType(SCHEMA, ['properties', 'where'], 'array'));
    expect(toArray['properties'].where).toEqual({ type: 'array', dependentRequired: { lat: ['lon'] }, items: { type: 'string' } });
    const toObject = parse(setType(SCHEMA, ['properties', 'tags'], 'object'));
    expect(toObject['properties'].tags).toEqual({ type: 'object', uniqueItems: true });
  });

  it('opens and closes an object, and finds free names', () => {
    expect('additionalProperties' in parse(setClosed(SCHEMA, [], false))).toBe(false);
    expect(parse(setClosed('{"type":"object"}', [], true))['additionalProperties']).toBe(false);
    expect(freshName(SCHEMA, [])).toBe('argument');
    expect(freshName(addProperty(SCHEMA, [], 'argument'), [])).toBe('argument2');
    expect(() => addProperty(SCHEMA, [], 'city')).toThrow(/already/);
    // An empty schema gets its properties object created.
    expect(parse(addProperty('{}', [], 'q'))).toEqual({ properties: { q: { type: 'string' } } });
  });
});

describe('values as typed', () => {
  it('reads allowed values by type, comma-separated or as JSON', () => {
    expect(parseEnum('a, b ,c', 'string')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(parseEnum('1, 2.5', 'number')).toEqual({ ok: true, value: [1, 2.5] });
    expect(parseEnum('1, 2.5', 'integer')).toMatchObject({ ok: false, message: expect.stringMatching(/whole number/) });
    expect(parseEnum('["a, b", "c"]', 'string')).toEqual({ ok: true, value: ['a, b', 'c'] });
    expect(parseEnum('[oops', 'string')).toMatchObject({ ok: false });
    expect(parseEnum('', 'string')).toEqual({ ok: true, value: undefined });
    expect(formatEnum(['a', 'b'])).toBe('a, b');
    expect(formatEnum(['a, b', 'c'])).toBe('["a, b","c"]');
  });
  it('reads a default by type; empty means none', () => {
    expect(parseDefault('', 'string')).toEqual({ ok: true, value: undefined });
    expect(parseDefault(' x ', 'string')).toEqual({ ok: true, value: ' x ' });
    expect(parseDefault('3', 'integer')).toEqual({ ok: true, value: 3 });
    expect(parseDefault('yes', 'boolean')).toMatchObject({ ok: false });
    expect(parseDefault('{"a":1}', 'object')).toEqual({ ok: true, value: { a: 1 } });
  });
});

function Harness({ initial }: { initial: string }) {
  const [text, setText] = useState(initial);
  return (
    <>
      <SchemaBuilder text={text} onChange={setText} />
      <pre data-testid="json">{text}</pre>
    </>
  );
}

describe('the builder component', () => {
  it('edits the same text the JSON editor shows, and says what it leaves alone', () => {
    render(<Harness initial={SCHEMA} />);
    expect(
      screen
        .getAllByTestId('sb-note')
        .map((n) => n.textContent)
        .join(' '),
    ).toMatch(/uses oneOf/);
    fireEvent.click(screen.getByTestId('sb-required-days'));
    fireEvent.change(screen.getByTestId('sb-description-days'), { target: { value: 'How many days' } });
    const name = screen.getByTestId('sb-name-days');
    fireEvent.change(name, { target: { value: 'nights' } });
    fireEvent.blur(name);
    fireEvent.change(screen.getByTestId('sb-enum-nights'), { target: { value: '1, 7, x' } });
    fireEvent.blur(screen.getByTestId('sb-enum-nights'));
    expect(screen.getByRole('alert').textContent).toMatch(/"x" is not a number/);
    fireEvent.change(screen.getByTestId('sb-enum-nights'), { target: { value: '1, 7' } });
    fireEvent.keyDown(screen.getByTestId('sb-enum-nights'), { key: 'Enter' });
    const v = parse(screen.getByTestId('json').textContent!);
    expect(v['properties'].nights).toEqual({ type: 'integer', minimum: 1, maximum: 14, default: 3, description: 'How many days', enum: [1, 7] });
    expect(v['required']).toEqual(['city', 'nights']);
    expect(Object.keys(v['properties'])[1]).toBe('nights');
    // The oneOf property cannot change type here.
    expect((screen.getByTestId('sb-type-units') as HTMLSelectElement).disabled).toBe(true);
  });

  it('is read-only for built-ins and explains JSON it cannot read', () => {
    render(<SchemaBuilder text={SCHEMA} onChange={() => undefined} readOnly />);
    expect((screen.getByTestId('sb-name-city') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('sb-add-arguments')).toBeNull();
    cleanup();
    render(<SchemaBuilder text="{ nope" onChange={() => undefined} />);
    expect(screen.getByTestId('sb-unavailable').textContent).toMatch(/does not parse yet/);
  });
});
