/** The small helpers every layer shares (one each: they had twins in core, host, shared and the renderer). */
import { describe, expect, it } from 'vitest';
import { plural } from '../../shared/format.js';
import { escapeHtml } from '../../shared/html.js';
import { isPlainObject } from '../../shared/plain-object.js';

describe('plural', () => {
  it('writes the count as it is unless told how, and picks the word by the count', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(0, 'call')).toBe('0 calls');
    expect(plural(12345, 'entry', 'entries')).toBe('12345 entries');
    expect(plural(12345, 'tool', undefined, (n) => `<${n}>`)).toBe('<12345> tools');
  });
});

describe('isPlainObject', () => {
  it('is true for objects of keys only: not null, arrays or other values', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const v of [null, undefined, [], [1], 'x', 1, true]) expect(isPlainObject(v), String(v)).toBe(false);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain — text ✓')).toBe('plain — text ✓');
  });
});
