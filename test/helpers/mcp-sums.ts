/**
 * The 'sums' bundle the MCP fast-path tests compare against the SDK: the calculator as a tool with
 * a card, without one, with an output schema, and privileged (which the fast paths leave to the SDK).
 */
import { expect } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { TestHost } from './host.js';

/** Puts the bundle and its four tools; returns the bundle's ID. */
export async function putSumsBundle(h: TestHost): Promise<string> {
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'sums', displayName: 'Sums' });
  const calc = {
    type: 'function',
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
  };
  const put = async (slug: string, body: Record<string, unknown>) => {
    const r = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, { ...calc, displayName: slug, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  await put('carded', { card: { enabled: true, title: 'Sum' } });
  await put('bare', { card: { enabled: false } });
  await put('shaped', { card: { enabled: false }, outputSchema: { type: 'object', properties: { value: { type: 'number' } } } });
  await put('guarded', { card: { enabled: false }, safety: 'privileged' });
  return bundleID;
}

/** The calls both byte comparisons make (tool, arguments, request id): a card, no card, structured content, a refused call, a failed run. */
export const SUMS_CALL_CASES: readonly [string, unknown, string | number][] = [
  ['carded', { expression: '2 * (3 + 4)' }, 7],
  ['bare', { expression: '1 + 1' }, 'id-"quoted"'],
  ['shaped', { expression: '6 / 3' }, 0],
  ['bare', {}, 8], // refused by the argument check: an error result
  ['bare', undefined, 9],
  ['carded', { expression: '1 +' }, 10], // the run fails
];
