/**
 * OpenAPI parameter styles, checked against the examples of the OpenAPI 3.1 specification's
 * "Style Examples" table (color = ["blue","black","brown"], color = {R:100, G:200, B:150}),
 * and through buildRequest as an http tool sends them.
 */
import { describe, expect, it } from 'vitest';
import { serializePairs, serializeSegment } from '../../../../../electron/core/tool-types/http/styles.js';
import { buildRequest } from '../../../../../electron/core/tool-types/http/request.js';
import type { HttpImpl } from '../../../../../shared/schemas.js';
import type { ParamSerialization } from '../../../../../shared/tool-types/http.js';
import { MemorySecrets } from '../../../../helpers/http-tools.js';

const array = ['blue', 'black', 'brown'];
const object = { R: 100, G: 200, B: 150 };
const enc = encodeURIComponent;
const q = (value: unknown, style: ParamSerialization['style'], explode: boolean) => serializePairs('color', value, { style, explode }, enc).join('&');
const seg = (value: unknown, style: ParamSerialization['style'], explode: boolean) => serializeSegment('color', value, { style, explode }, enc);

describe('the specification examples', () => {
  it.each([
    ['form', false, 'blue', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'blue', 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    ['spaceDelimited', false, 'blue', 'color=blue', 'color=blue%20black%20brown', 'color=R%20100%20G%20200%20B%20150'],
    ['pipeDelimited', false, 'blue', 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
    ['deepObject', true, 'blue', 'color=blue', 'color=blue&color=black&color=brown', 'color[R]=100&color[G]=200&color[B]=150'],
  ] as const)('query %s explode=%s', (style, explode, primitive, primitiveOut, arrayOut, objectOut) => {
    expect(q(primitive, style, explode)).toBe(primitiveOut);
    expect(q(array, style, explode)).toBe(arrayOut);
    expect(q(object, style, explode)).toBe(objectOut);
  });

  it.each([
    ['simple', false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
    ['label', false, '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['matrix', false, ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ] as const)('path %s explode=%s', (style, explode, primitiveOut, arrayOut, objectOut) => {
    expect(seg('blue', style, explode)).toBe(primitiveOut);
    expect(seg(array, style, explode)).toBe(arrayOut);
    expect(seg(object, style, explode)).toBe(objectOut);
  });

  it('leaves an absent value or an empty array out of the query, and encodes items and keys', () => {
    expect(q(undefined, 'form', false)).toBe('');
    expect(q([], 'pipeDelimited', false)).toBe('');
    expect(q({}, 'deepObject', true)).toBe('');
    expect(q(['a,b', 'c&d'], 'form', false)).toBe('color=a%2Cb,c%26d');
    expect(q({ 'k[1]': 'v w' }, 'deepObject', true)).toBe('color[k%5B1%5D]=v%20w');
    expect(seg(['a/b', '?'], 'simple', false)).toBe('a%2Fb,%3F');
  });
});

describe('an http tool with impl.serialization', () => {
  const argSchema = {
    type: 'object',
    properties: { ids: { type: 'array' }, filter: { type: 'object' }, tags: { type: 'array' }, point: { type: 'object' }, h: { type: 'array' } },
  };
  const build = (impl: Partial<HttpImpl>, args: Record<string, unknown>) =>
    buildRequest({ method: 'GET', urlTemplate: 'https://api.example/x', ...impl } as HttpImpl, { argSchema }, args, new MemorySecrets({}));

  it('writes query, path and header parameters by their styles', () => {
    const req = build(
      {
        urlTemplate: 'https://api.example/points/${point}/items?ids=${ids}&filter=${filter}&tags=${tags}&limit=5',
        headers: { 'X-Ids': '${h}' },
        serialization: {
          ids: { style: 'pipeDelimited', explode: false },
          filter: { style: 'deepObject', explode: true },
          tags: { style: 'form', explode: false },
          point: { style: 'matrix', explode: true },
          h: { style: 'simple' },
        },
      },
      { ids: [1, 2, 3], filter: { status: 'open now', owner: 'me' }, tags: ['a', 'b'], point: { x: 1, y: 2 }, h: ['p', 'q'] },
    );
    expect(req.url.pathname).toBe('/points/;x=1;y=2/items');
    expect(req.url.search).toBe('?ids=1|2|3&filter[status]=open%20now&filter[owner]=me&tags=a,b&limit=5');
    expect(req.headers['x-ids']).toBe('p,q');
  });

  it('leaves out a styled parameter the call does not give', () => {
    const req = build(
      {
        urlTemplate: 'https://api.example/x?ids=${ids}&filter=${filter}',
        serialization: { ids: { style: 'spaceDelimited' }, filter: { style: 'deepObject' } },
      },
      {},
    );
    expect(req.url.search).toBe('');
  });

  it('refuses a styled header value with a line break', () => {
    expect(() => build({ headers: { 'X-Ids': '${h}' }, serialization: { h: { style: 'simple' } } }, { h: ['a\r\nInjected: 1'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGS' }) as Error,
    );
  });
});
