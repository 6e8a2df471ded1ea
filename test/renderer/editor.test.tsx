// @vitest-environment jsdom
/**
 * The tool editor's rules as you type (slug/version, schemas, placeholders, http fields), the
 * draft ↔ tool conversion, routing of server issues to fields, and placeholder highlighting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { EditorState } from '@codemirror/state';
import { json } from '@codemirror/lang-json';
import { ensureSyntaxTree } from '@codemirror/language';
import { draftFromTool, emptyDraft, localIssues, toToolInput, type ToolDraft } from '../../renderer/src/features/tools/editor/draft.js';
import { newHeaderRow, type HttpDraft } from '../../renderer/src/tool-types/http/draft.js';
import { hostOfTemplate } from '../../renderer/src/tool-types/http/parts.js';
import { TemplateInput, placeholderProblems, classifyPlaceholder } from '../../renderer/src/features/tools/editor/TemplateInput.js';
import { issuesByField, fieldFor, FormErrors } from '../../renderer/src/components/Field.js';
import { checkArgSchema, checkJsonSchema } from '../../renderer/src/features/tools/editor/schema/schemaChecks.js';
import { rangeOfPath, jsonProblems } from '../../renderer/src/components/code/JsonEditor.js';
import { exampleArgs } from '../../renderer/src/features/tools/editor/CardSettings.js';
import { highlight } from '../../renderer/src/features/search/highlight.js';
import { ApiCallError } from '../../renderer/src/api/errors.js';
import type { ToolView } from '../../shared/types.js';

afterEach(() => cleanup());

function httpDraft(patch: Partial<ToolDraft> = {}, http: Partial<HttpDraft> = {}): ToolDraft {
  const d = emptyDraft();
  return {
    ...d,
    slug: 'weather',
    version: 'v1',
    argSchemaText: JSON.stringify({ type: 'object', properties: { city: { type: 'string' } } }),
    ...patch,
    impls: { ...d.impls, http: { ...d.impls.http, urlTemplate: 'https://api.example.com/w?q=${city}', ...http } },
  };
}

describe('rules checked as you type', () => {
  it('accepts a valid http draft', () => {
    expect([...localIssues(httpDraft())]).toEqual([]);
  });

  it('checks slug and version with the shared rules', () => {
    expect(localIssues(httpDraft({ slug: 'météo' })).has('slug')).toBe(false);
    expect(localIssues(httpDraft({ slug: 'my tool' })).get('slug')).toMatch(/whitespace/);
    expect(localIssues(httpDraft({ slug: 'a.b' })).get('slug')).toMatch(/'\.'/);
    expect(localIssues(httpDraft({ version: '2.1.0' })).has('version')).toBe(false);
    expect(localIssues(httpDraft({ version: '' })).get('version')).toMatch(/empty/);
    expect(localIssues(httpDraft({ slug: 'x'.repeat(65) })).get('slug')).toMatch(/at most 64/);
  });

  it('flags unknown placeholders but not secrets that are not set yet', () => {
    expect(localIssues(httpDraft({}, { urlTemplate: 'https://api.example.com/${town}' })).get('impl.urlTemplate')).toMatch(/\$\{town\}/);
    expect(localIssues(httpDraft({}, { urlTemplate: 'https://api.example.com/?k=${API_KEY}' })).has('impl.urlTemplate')).toBe(false);
    expect(localIssues(httpDraft({}, { headers: [newHeaderRow('X-Key', '${nope}')] })).get('impl.headers')).toMatch(/nope/);
    expect(localIssues(httpDraft({}, { headers: [newHeaderRow('Bad Header', 'x')] })).get('impl.headers')).toMatch(/not a valid HTTP token/);
  });

  it('requires a literal host and a valid scheme', () => {
    expect(localIssues(httpDraft({}, { urlTemplate: 'https://${host}/x' })).get('impl.urlTemplate')).toMatch(/host literally/);
    expect(localIssues(httpDraft({}, { urlTemplate: 'ftp://x' })).get('impl.urlTemplate')).toMatch(/http/);
    expect(hostOfTemplate('https://API.Example.com:8443/x')).toEqual({ host: 'api.example.com' });
    expect(hostOfTemplate('https://${h}/').problem).toMatch(/literally/);
  });

  it('checks numbers, colours, schemas and the function pick', () => {
    expect(localIssues(httpDraft({}, { timeoutMs: '12.5' })).get('impl.timeoutMs')).toMatch(/whole number/);
    expect(localIssues(httpDraft({}, { maxRetries: '11' })).get('impl.maxRetries')).toMatch(/between 0 and 10/);
    expect(localIssues(httpDraft({ card: { enabled: true, title: '', accentColor: 'url(x)', backgroundColor: '' } })).get('card.accentColor')).toBeTruthy();
    expect(localIssues(httpDraft({ argSchemaText: '{"type": "object",' })).get('argSchema')).toMatch(/not valid JSON/);
    expect(localIssues({ ...httpDraft(), type: 'function', impls: { ...httpDraft().impls, function: { functionName: '' } } }).get('impl.function')).toMatch(
      /pick/,
    );
  });
});

describe('draft conversion', () => {
  const tool: ToolView = {
    schemaVersion: '1',
    toolID: '0190a000-0000-7000-8000-0000000000aa',
    bundleID: '0190a000-0000-7000-8000-0000000000bb',
    slug: 'weather',
    version: 'v2',
    displayName: 'Weather',
    description: 'Current weather',
    type: 'http',
    isEnabled: true,
    isBuiltIn: false,
    tags: ['weather', 'geo'],
    safety: 'readOnly',
    argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: {},
    impl: {
      method: 'POST',
      urlTemplate: 'https://api.example.com/w',
      headers: { 'X-Key': '${API_KEY}' },
      bodyTemplate: '{"q":"${city}"}',
      successCodes: [200, 201],
      maxRetries: 2,
      auth: { type: 'hmac', secret: 'SIGN_KEY', algorithm: 'sha512' },
      serialization: { city: { style: 'pipeDelimited', explode: false } },
    },
    card: { enabled: true, title: 'Weather in {{city}}', accentColor: '#4a90d4', backgroundColor: 'rgba(74,144,212,0.10)' },
    limits: { maxCallsPerMinute: 30 },
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-02T00:00:00.000Z',
    availability: { ok: true },
    metrics: { callCount: 0, errorCount: 0, lastCalledAt: null },
  };

  it('round-trips a tool through the draft', () => {
    const input = toToolInput(draftFromTool(tool));
    expect(input).toMatchObject({
      slug: 'weather',
      version: 'v2',
      type: 'http',
      tags: ['weather', 'geo'],
      safety: 'readOnly',
      argSchema: tool.argSchema,
      card: tool.card,
      limits: { maxCallsPerMinute: 30 },
    });
    // As stored: no responseEncoding or errorMode written in for the defaults the form shows.
    expect(input.impl).toEqual(tool.impl);
  });

  it('flags an argument style whose argument is gone', () => {
    const d = draftFromTool({ ...tool, argSchema: { type: 'object', properties: { town: { type: 'string' } } } });
    expect(localIssues(d).get('impl.serialization')).toMatch(/city is no longer an argument/);
    expect(localIssues(draftFromTool(tool)).get('impl.serialization')).toBeUndefined();
  });

  it('omits safety when left automatic and normalises slugs to NFC', () => {
    const d = httpDraft({ safety: 'auto', slug: 'cafe\u0301' });
    const input = toToolInput(d);
    expect('safety' in input).toBe(false);
    expect(input.slug).toBe('caf\u00e9');
  });

  it('builds container impls from text fields', () => {
    const d: ToolDraft = {
      ...httpDraft(),
      type: 'container',
      impls: {
        ...httpDraft().impls,
        container: { source: 'image', image: 'alpine:3.20', memory: '256', network: 'none', writable: false, cpus: '0.5', timeoutSeconds: '30' },
      },
    };
    expect(toToolInput(d).impl).toEqual({ image: 'alpine:3.20', sandbox: { memory: 256, network: 'none', writable: false, cpus: 0.5 }, timeoutSeconds: 30 });
    expect(toToolInput({ ...d, impls: { ...d.impls, container: { ...d.impls.container, source: 'build', memory: '1g' } } }).impl).toMatchObject({
      build: '.',
      sandbox: { memory: '1g' },
    });
  });

  it('derives preview arguments from defaults and examples', () => {
    expect(exampleArgs(JSON.stringify({ properties: { city: { default: 'Lyon' }, n: { examples: [3] }, x: {} } }))).toEqual({ city: 'Lyon', n: 3, x: '‹x›' });
  });
});

describe('server issues at their field', () => {
  const fields = ['slug', 'argSchema', 'impl.urlTemplate', 'impl.headers', 'card', 'card.accentColor'];

  it('routes each issue to the closest registered field', () => {
    expect(fieldFor('impl.headers.Authorization', fields)).toBe('impl.headers');
    expect(fieldFor('argSchema/properties/x', fields)).toBe('argSchema');
    expect(fieldFor('card.accentColor', fields)).toBe('card.accentColor');
    expect(fieldFor('card.title', fields)).toBe('card');
    expect(fieldFor('limits.maxOutputBytes', fields)).toBeUndefined();
    const map = issuesByField(
      [
        { field: 'slug', message: 'taken' },
        { field: 'impl.headers.X-Key', message: 'bad value' },
        { field: 'impl.headers.X-Other', message: 'also bad' },
      ],
      fields,
    );
    expect(map.get('slug')).toBe('taken');
    expect(map.get('impl.headers')).toBe('X-Key: bad value; X-Other: also bad');
  });

  it('lists the issues no field shows, in the form-level alert', () => {
    const err = new ApiCallError({
      code: 'INVALID_INPUT',
      message: 'invalid tool',
      details: {
        issues: [
          { field: 'slug', message: 'taken' },
          { field: 'limits.maxOutputBytes', message: 'too big' },
        ],
      },
    });
    render(<FormErrors error={err} shownFields={fields} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('too big');
    expect(alert.textContent).not.toContain('taken');
  });
});

describe('placeholders', () => {
  const ctx = { args: ['city'], secrets: ['API_KEY'] };

  it('classifies arguments, secrets (set or not) and unknown names', () => {
    expect(classifyPlaceholder('city', ctx, 'dollar')).toBe('arg');
    expect(classifyPlaceholder('API_KEY', ctx, 'dollar')).toBe('secret');
    expect(classifyPlaceholder('OTHER_KEY', ctx, 'dollar')).toBe('secret-missing');
    expect(classifyPlaceholder('town', ctx, 'dollar')).toBe('unknown');
    expect(classifyPlaceholder('API_KEY', ctx, 'mustache')).toBe('unknown');
    expect(placeholderProblems('${town} ${OTHER_KEY} ${city}', ctx, 'dollar').map((p) => [p.name, p.severity])).toEqual([
      ['town', 'error'],
      ['OTHER_KEY', 'warning'],
    ]);
  });

  it('highlights each placeholder in place and lists the problems under the field', () => {
    render(<TemplateInput label="URL" value="https://x.test/${city}?k=${API_KEY}&t=${town}" onChange={() => undefined} ctx={ctx} testId="url" />);
    const marks = [...document.querySelectorAll('mark.ph')].map((m) => [m.textContent, m.className]);
    expect(marks).toEqual([
      ['${city}', 'ph ph-arg'],
      ['${API_KEY}', 'ph ph-secret'],
      ['${town}', 'ph ph-unknown'],
    ]);
    expect(screen.getByTestId('url-problems').textContent).toMatch(/\$\{town\} is neither/);
    expect((screen.getByLabelText('URL') as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('JSON schema editing', () => {
  it('finds misspelt types, bad regexes and required names missing from properties', () => {
    const issues = checkJsonSchema({ type: 'object', properties: { a: { type: 'strng' }, b: { type: 'string', pattern: '([' } }, required: ['a', 'c'] });
    expect(issues.map((i) => [i.path.join('/'), i.severity ?? 'error'])).toEqual([
      ['properties/a/type', 'error'],
      ['properties/b/pattern', 'error'],
      ['required/1', 'warning'],
    ]);
    expect(checkArgSchema({ type: 'string' }).map((i) => i.message)).toEqual([expect.stringMatching(/one JSON object/)]);
    expect(jsonProblems('')).toEqual([expect.stringMatching(/empty/)]);
  });

  it('places a semantic error on the exact key in the text', () => {
    const doc = '{\n  "type": "object",\n  "properties": {\n    "city": { "type": "strng" }\n  }\n}';
    const state = EditorState.create({ doc, extensions: [json()] });
    // The parse has a time budget; a loaded machine needs more than a second of it.
    expect(ensureSyntaxTree(state, doc.length, 30_000)).not.toBeNull();
    const r = rangeOfPath(state, ['properties', 'city', 'type']);
    expect(doc.slice(r.from, r.to)).toBe('"type"');
    expect(doc.lastIndexOf('"type"')).toBe(r.from);
  });
});

describe('search highlighting', () => {
  it('marks matched words case-insensitively and leaves the rest', () => {
    const { container } = render(<p>{highlight('Weather in Lyon, weather now', ['weather', 'ly'])}</p>);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Weather', 'Ly', 'weather']);
    expect(container.textContent).toBe('Weather in Lyon, weather now');
  });

  it('matches the folded words the search answers against accented text', () => {
    const { container } = render(<p>{highlight('Météo à Zürich — METEO', ['meteo', 'zurich'])}</p>);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Météo', 'Zürich', 'METEO']);
    expect(container.textContent).toBe('Météo à Zürich — METEO');
  });

  it('treats regex characters in matches literally', () => {
    const { container } = render(<p>{highlight('a+b (c)', ['a+b', '(c)'])}</p>);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['a+b', '(c)']);
  });
});
