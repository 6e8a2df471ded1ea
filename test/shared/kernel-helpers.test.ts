/** The small helpers every layer shares (one each: they had twins in core, host, shared and the renderer). */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('no twin comes back', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const files = (dir: string, ext: RegExp): string[] =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => ext.test(name) && !name.split(sep).includes('node_modules'))
      .map((name) => join(dir, name));
  const sources = ['electron', 'shared', 'renderer/src'].flatMap((dir) => files(dir, /\.tsx?$/));

  it('defines each helper once, in its home, and writes no plain-object test inline', () => {
    const homes: Record<string, string[]> = {
      isPlainObject: ['shared/plain-object.ts'],
      escapeHtml: ['shared/html.ts'],
      // The renderer's passes its locale's count writer to shared/format.ts's.
      plural: ['shared/format.ts', 'renderer/src/lib/format.ts'],
    };
    const twins: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/(?:function|const|let)\s+(isPlainObject|isObject|isRecord|isObj|escapeHtml|plural|pluralize)\b\s*[=(<]/g)) {
        if (!homes[m[1]!]?.includes(file)) twins.push(`${file} defines ${m[1]}`);
      }
      for (const m of text.matchAll(/typeof (\w+) === 'object' && \1 !== null && !Array\.isArray\(\1\)/g)) {
        if (file !== 'shared/plain-object.ts') twins.push(`${file} tests ${m[1]} for a plain object inline: use isPlainObject`);
      }
    }
    expect(twins).toEqual([]);
  });

  it('cites no design document outside the repo (docs/ are self-contained)', () => {
    const outside = 'DESIGN' + '.md';
    const citing = [...sources, ...files('docs', /\.md$/), ...files('test', /\.tsx?$/), 'README.md'].filter((file) =>
      readFileSync(join(ROOT, file), 'utf8').includes(outside),
    );
    expect(citing).toEqual([]);
  });
});
