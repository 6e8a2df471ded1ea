/** Request building of the http runner: the JSON-body rule and encodings, without a network. */
import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../../../../electron/core/tool-types/http/request.js';
import type { HttpImpl } from '../../../../../shared/schemas.js';
import { MemorySecrets } from '../../../../helpers/http-tools.js';

const tool = { argSchema: { type: 'object', properties: { x: {}, y: {}, obj: {} } } };
const build = (impl: Partial<HttpImpl>, args: Record<string, unknown> = {}, secrets = new MemorySecrets({ TOKEN: 't"o\\k' })) =>
  buildRequest({ method: 'POST', urlTemplate: 'https://api.example/x', ...impl } as HttpImpl, tool, args, secrets);

describe('JSON bodies', () => {
  it('tracks string context across escaped quotes', () => {
    const req = build({ bodyTemplate: '{"a": "say \\"${x}\\" now", "b": ${y}}' }, { x: 'q"uote', y: 5 });
    expect(JSON.parse(req.body!)).toEqual({ a: 'say "q"uote" now', b: 5 });
  });

  it('writes a bare secret as a JSON string and an in-string secret escaped', () => {
    const req = build({ bodyTemplate: '{"bare": ${TOKEN}, "inside": "Bearer ${TOKEN}"}' });
    expect(JSON.parse(req.body!)).toEqual({ bare: 't"o\\k', inside: 'Bearer t"o\\k' });
  });

  it('detects JSON from the template when no Content-Type is given, and sets it', () => {
    expect(build({ bodyTemplate: '[${x}, ${y}]' }, { x: 1, y: 'two' }).headers['content-type']).toBe('application/json');
    const text = build({ bodyTemplate: 'x=${x}' }, { x: '"a"' });
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.body).toBe('x="a"');
  });

  it('a JSON Content-Type (also +json) forces JSON escaping', () => {
    const req = build(
      { headers: { 'Content-Type': 'application/merge-patch+json' }, bodyTemplate: '{"o": ${obj}, "s": "${x}"}' },
      { obj: { k: [1] }, x: 'l\nf' },
    );
    expect(JSON.parse(req.body!)).toEqual({ o: { k: [1] }, s: 'l\nf' });
  });

  it('refuses a JSON template that cannot give JSON, without quoting the body', () => {
    expect(() => build({ headers: { 'Content-Type': 'application/json' }, bodyTemplate: '{"a": ${TOKEN} "b"}' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.not.stringContaining('t"o') as string }) as Error,
    );
  });
});

describe('URL and headers', () => {
  it('encodes object arguments as JSON text in the URL', () => {
    const req = build({ method: 'GET', urlTemplate: 'https://api.example/x?f=${obj}' }, { obj: { a: 'b c' } });
    expect(req.url.searchParams.get('f')).toBe('{"a":"b c"}');
  });

  it('an argument cannot change the host', () => {
    const req = build({ method: 'GET', urlTemplate: 'https://api.example/${x}' }, { x: '@evil.example/' });
    expect(req.url.hostname).toBe('api.example');
  });

  it('marks headers that carry a secret', () => {
    const req = build({ method: 'GET', headers: { Authorization: 'Bearer ${TOKEN}', 'X-Plain': '${x}' } }, { x: 'p' });
    expect([...req.secretHeaders]).toEqual(['authorization']);
    expect(req.headers['x-plain']).toBe('p');
  });

  it('names an unknown placeholder', () => {
    expect(() => build({ method: 'GET', urlTemplate: 'https://api.example/${nope}' })).toThrow(/\$\{nope\} is neither an argument/);
  });
});
