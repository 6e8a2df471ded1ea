/**
 * The save-conflict merge: a three-way merge of JSON (features/tools/editor/merge.ts) and its use on a tool
 * draft (SaveConflict.tsx beside it): what only one side changed wins, objects merge key by key,
 * values both sides changed differently are conflicts the person settles.
 */
import { describe, expect, it } from 'vitest';
import { changedKeys, jsonEqual, pathKey, resolveConflicts, setAt, threeWayMerge, type Json } from '../../renderer/src/features/tools/editor/merge.js';
import { draftOfMerge, fieldLabel, mergeDraft } from '../../renderer/src/features/tools/editor/SaveConflict.js';
import { draftFromTool, toToolInput } from '../../renderer/src/features/tools/editor/draft.js';
import type { ToolView } from '../../shared/types.js';

describe('threeWayMerge', () => {
  it('takes the side that changed, and either when both made the same change', () => {
    expect(threeWayMerge('a', 'a', 'b')).toEqual({ merged: 'b', conflicts: [] });
    expect(threeWayMerge('a', 'b', 'a')).toEqual({ merged: 'b', conflicts: [] });
    expect(threeWayMerge('a', 'c', 'c')).toEqual({ merged: 'c', conflicts: [] });
    expect(threeWayMerge(1, 1, 1)).toEqual({ merged: 1, conflicts: [] });
  });

  it('merges objects key by key: additions, removals and edits on different keys all survive', () => {
    const base = { a: 1, b: { x: 1, y: 2 }, gone: true, kept: 'k' };
    const mine = { a: 2, b: { x: 1, y: 2 }, kept: 'k', mineNew: 'm' };
    const theirs = { a: 1, b: { x: 1, y: 3, z: 4 }, gone: true, kept: 'k', theirsNew: 't' };
    const r = threeWayMerge(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.merged).toEqual({ a: 2, b: { x: 1, y: 3, z: 4 }, kept: 'k', theirsNew: 't', mineNew: 'm' });
    // Their key order first (the file's), then what only I added.
    expect(Object.keys(r.merged as object)).toEqual(['a', 'b', 'kept', 'theirsNew', 'mineNew']);
  });

  it('reports values both sides changed differently, with the path and all three values, and keeps mine until chosen', () => {
    const base = { schema: { properties: { city: { type: 'string' } } }, tags: ['a'] };
    const mine = { schema: { properties: { city: { type: 'number' } } }, tags: ['a', 'b'] };
    const theirs = { schema: { properties: { city: { type: 'integer' } } }, tags: ['a', 'c'] };
    const r = threeWayMerge(base, mine, theirs);
    expect(r.conflicts).toEqual([
      { path: ['schema', 'properties', 'city', 'type'], base: 'string', mine: 'number', theirs: 'integer' },
      { path: ['tags'], base: ['a'], mine: ['a', 'b'], theirs: ['a', 'c'] },
    ]);
    expect(resolveConflicts(r, new Map())).toEqual(mine);
    expect(resolveConflicts(r, new Map([[pathKey(['tags']), 'theirs']]))).toEqual({ ...mine, tags: ['a', 'c'] });
  });

  it('treats a removal against an edit as a conflict, and settles it either way', () => {
    const r = threeWayMerge({ d: 'old', k: 1 }, { k: 1 }, { d: 'new', k: 1 });
    expect(r.conflicts).toEqual([{ path: ['d'], base: 'old', mine: undefined, theirs: 'new' }]);
    expect(resolveConflicts(r, new Map())).toEqual({ k: 1 });
    expect(resolveConflicts(r, new Map([[pathKey(['d']), 'theirs']]))).toEqual({ d: 'new', k: 1 });
  });

  it('keeps a key named __proto__ as data, never as a prototype', () => {
    const base = JSON.parse('{"p":{"__proto__":{"x":1}}}') as Json;
    const mine = JSON.parse('{"p":{"__proto__":{"x":2}}}') as Json;
    const theirs = JSON.parse('{"p":{"__proto__":{"x":1}},"q":1}') as Json;
    const merged = threeWayMerge(base, mine, theirs).merged as { p: object };
    expect(JSON.stringify(merged)).toBe('{"p":{"__proto__":{"x":2}},"q":1}');
    expect(Object.getPrototypeOf(merged.p)).toBe(Object.prototype);
    const set = setAt({}, ['__proto__', 'polluted'], true) as object;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(set)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('compares JSON by value and lists changed top-level keys', () => {
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined as unknown as Json })).toBe(false);
    expect(changedKeys({ a: 1, b: 2, c: 3 }, { a: 1, b: 5, d: 4 })).toEqual(['b', 'c', 'd']);
  });
});

const tool: ToolView = {
  schemaVersion: '1',
  toolID: '0190a000-0000-7000-8000-0000000000aa',
  bundleID: '0190a000-0000-7000-8000-0000000000bb',
  slug: 'weather',
  version: 'v1',
  displayName: 'Weather',
  description: 'Current weather',
  type: 'http',
  isEnabled: true,
  isBuiltIn: false,
  tags: ['weather'],
  safety: 'readOnly',
  argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: {},
  impl: { method: 'GET', urlTemplate: 'https://api.example.com/w?q=${city}' },
  card: { enabled: false },
  limits: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  modifiedAt: '2026-01-02T00:00:00.000Z',
  availability: { ok: true },
  metrics: { callCount: 0, errorCount: 0, lastCalledAt: null },
};

describe('merging a tool draft onto a newer file', () => {
  it('puts my edit on top of theirs: fields I did not touch take the new value', () => {
    const fresh: ToolView = {
      ...tool,
      modifiedAt: '2026-01-03T00:00:00.000Z',
      description: 'Weather now, from the new API',
      argSchema: { ...(tool.argSchema as object), properties: { city: { type: 'string' }, days: { type: 'integer', default: 1 } } },
      isEnabled: false,
    };
    const mine = { ...draftFromTool(tool), displayName: 'Weather report' };
    mine.argSchemaText = JSON.stringify({ ...(tool.argSchema as object), properties: { city: { type: 'string', description: 'City name' } } }, null, 2);
    const r = mergeDraft(tool, fresh, mine)!;
    expect(r.conflicts).toEqual([]);
    const merged = toToolInput(draftOfMerge(fresh, r.merged));
    expect(merged.displayName).toBe('Weather report');
    expect(merged.description).toBe('Weather now, from the new API');
    expect(merged.isEnabled).toBe(false);
    expect(merged.argSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', default: 1 } },
      required: ['city'],
    });
  });

  it('names what both changed, and the choice decides', () => {
    const fresh: ToolView = { ...tool, modifiedAt: '2026-01-03T00:00:00.000Z', displayName: 'Weather (theirs)' };
    const mine = { ...draftFromTool(tool), displayName: 'Weather (mine)' };
    const r = mergeDraft(tool, fresh, mine)!;
    expect(r.conflicts.map((c) => fieldLabel(c.path))).toEqual(['Display name']);
    expect(toToolInput(draftOfMerge(fresh, resolveConflicts(r, new Map([[pathKey(['displayName']), 'theirs']])))).displayName).toBe('Weather (theirs)');
    expect(toToolInput(draftOfMerge(fresh, resolveConflicts(r, new Map()))).displayName).toBe('Weather (mine)');
    expect(fieldLabel(['argSchema', 'properties', 'city'])).toBe('Argument schema › properties › city');
  });

  it('gives up (null) while the draft cannot be sent', () => {
    expect(mergeDraft(tool, tool, { ...draftFromTool(tool), argSchemaText: '{ not json' })).toBeNull();
  });
});
