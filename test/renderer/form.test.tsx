// @vitest-environment jsdom
/**
 * The tester's form generator: rjsf with the CSP-safe validator (renderer/src/lib/schemaValidator.ts)
 * on hard schemas — nested objects, arrays, nullable, oneOf/anyOf, enums, defaults, $ref — driven
 * through the DOM like a person would, checking what the form submits and which errors it shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, act } from '@testing-library/react';
import { createRef } from 'react';
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { cspSafeValidator, validateArgs, draftOf } from '../../renderer/src/lib/schemaValidator.js';

afterEach(() => cleanup());

const UI = { 'ui:submitButtonOptions': { norender: true } };

function renderForm(schema: RJSFSchema, formData?: unknown) {
  const submitted: unknown[] = [];
  const errors: unknown[] = [];
  const ref = createRef<Form>();
  const utils = render(
    <Form
      ref={ref}
      schema={schema}
      uiSchema={UI}
      validator={cspSafeValidator}
      formData={formData}
      onSubmit={(e) => submitted.push(e.formData)}
      onError={(e) => errors.push(e)}
      showErrorList={false}
      noHtml5Validate
      idPrefix="arg"
    />,
  );
  const submit = () => act(() => ref.current!.submit());
  return { ...utils, submitted, errors, submit };
}

function input(id: string): HTMLInputElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}; ids present: ${[...document.querySelectorAll('[id]')].map((e) => e.id).join(', ')}`);
  return el as HTMLInputElement;
}

describe('form generator on hard schemas', () => {
  it('fills defaults, including nested objects, and submits them', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        city: { type: 'string', default: 'Lyon' },
        units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
        opts: { type: 'object', properties: { days: { type: 'integer', default: 3, minimum: 1 }, hourly: { type: 'boolean', default: true } } },
      },
    };
    const f = renderForm(schema);
    expect(input('arg_city').value).toBe('Lyon');
    expect(input('arg_opts_days').value).toBe('3');
    await f.submit();
    expect(f.submitted).toEqual([{ city: 'Lyon', units: 'metric', opts: { days: 3, hourly: true } }]);
  });

  it('validates nested values before submitting and shows the error at the field', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['opts'],
      properties: { opts: { type: 'object', required: ['days'], properties: { days: { type: 'integer', minimum: 1, maximum: 14 } } } },
    };
    const f = renderForm(schema);
    fireEvent.change(input('arg_opts_days'), { target: { value: '40' } });
    await f.submit();
    expect(f.submitted).toEqual([]);
    expect(f.errors).toHaveLength(1);
    expect(screen.getByText('must be at most 14')).toBeTruthy();
    fireEvent.change(input('arg_opts_days'), { target: { value: '7' } });
    await f.submit();
    expect(f.submitted).toEqual([{ opts: { days: 7 } }]);
  });

  it('reports a missing required property at that property', async () => {
    const f = renderForm({ type: 'object', required: ['q'], properties: { q: { type: 'string', title: 'Query' } } });
    await f.submit();
    expect(f.submitted).toEqual([]);
    const err = document.querySelector('#arg_q')!.closest('.form-group')!.querySelector('.error-detail');
    expect(err?.textContent).toContain("must have required property 'q'");
  });

  it('renders enums as a select and submits the chosen option', async () => {
    const f = renderForm({ type: 'object', properties: { level: { type: 'string', enum: ['low', 'mid', 'high'] } } });
    const select = input('arg_level') as unknown as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect([...select.options].map((o) => o.textContent)).toEqual(expect.arrayContaining(['low', 'mid', 'high']));
    const high = [...select.options].find((o) => o.textContent === 'high')!;
    fireEvent.change(select, { target: { value: high.value } });
    await f.submit();
    expect(f.submitted).toEqual([{ level: 'high' }]);
  });

  it('adds array items and validates each one', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: { tags: { type: 'array', minItems: 1, items: { type: 'string', minLength: 2 } } },
    };
    const f = renderForm(schema, { tags: [] });
    fireEvent.click(document.querySelector('.array-item-add button, button.btn-add')!);
    fireEvent.change(input('arg_tags_0'), { target: { value: 'x' } });
    await f.submit();
    expect(f.submitted).toEqual([]);
    expect(screen.getByText('must have at least 2 characters')).toBeTruthy();
    fireEvent.change(input('arg_tags_0'), { target: { value: 'xy' } });
    await f.submit();
    expect(f.submitted).toEqual([{ tags: ['xy'] }]);
  });

  it('accepts null for a nullable field and rejects the wrong type', () => {
    const schema = { type: 'object', properties: { note: { type: ['string', 'null'] } }, required: ['note'] };
    expect(validateArgs(schema, { note: null })).toEqual([]);
    expect(validateArgs(schema, { note: 'hi' })).toEqual([]);
    expect(validateArgs(schema, { note: 3 })).toEqual(['note must be string or null']);
    // The form renders the non-null type as a text input.
    renderForm(schema as RJSFSchema);
    expect(input('arg_note').tagName).toBe('INPUT');
  });

  it('switches oneOf branches and validates against the chosen one', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        target: {
          oneOf: [
            { title: 'By city', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            { title: 'By coordinates', type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'] },
          ],
        },
      },
    };
    const f = renderForm(schema);
    const selector = document.querySelector('select[id$="__oneof_select"], .form-group select') as HTMLSelectElement;
    expect([...selector.options].map((o) => o.textContent)).toEqual(['By city', 'By coordinates']);
    fireEvent.change(selector, { target: { value: '1' } });
    fireEvent.change(input('arg_target_lat'), { target: { value: '45.76' } });
    fireEvent.change(input('arg_target_lon'), { target: { value: '4.83' } });
    await f.submit();
    expect(f.submitted).toEqual([{ target: { lat: 45.76, lon: 4.83 } }]);
  });

  it('picks the matching anyOf branch for existing data', () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        id: {
          anyOf: [
            { title: 'Number', type: 'integer' },
            { title: 'Name', type: 'string', pattern: '^[a-z]+$' },
          ],
        },
      },
    };
    renderForm(schema, { id: 'abc' });
    const selector = document.querySelector('.form-group select') as HTMLSelectElement;
    expect(selector.options[selector.selectedIndex]?.textContent).toBe('Name');
    expect(validateArgs(schema, { id: 'ABC' })).toEqual(['id must match one of the allowed shapes (anyOf)']);
    expect(validateArgs(schema, { id: 12 })).toEqual([]);
  });

  it('resolves $ref to root definitions, in the form and in isValid', () => {
    const root = { type: 'object', $defs: { pos: { type: 'integer', minimum: 1 } }, properties: { n: { $ref: '#/$defs/pos' } } } as RJSFSchema;
    expect(cspSafeValidator.isValid({ $ref: '#/$defs/pos' }, 2, root)).toBe(true);
    expect(cspSafeValidator.isValid({ $ref: '#/$defs/pos' }, 0, root)).toBe(false);
    // The root schema object is not annotated by the validator (it is given copies).
    expect(JSON.stringify(root)).not.toContain('__absolute');
    expect(validateArgs(root, { n: 0 })).toEqual(['n must be at least 1']);
  });

  it('picks the draft from $schema (tuple items differ between draft 7 and 2020-12)', () => {
    expect(draftOf({})).toBe('7');
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    const draft7 = { type: 'array', items: [{ type: 'string' }], additionalItems: false };
    expect(validateArgs(draft7, ['a'])).toEqual([]);
    expect(validateArgs(draft7, ['a', 'b'])).not.toEqual([]);
  });

  it('treats argSchema false as "no arguments accepted"', () => {
    expect(validateArgs(false, {})).toEqual(['this tool accepts no arguments (argSchema is false)']);
    expect(validateArgs(true, { anything: 1 })).toEqual([]);
  });
});
