/**
 * Property-based tests (fast-check) of the REST contract and of the tool.json reader: random and
 * hostile JSON never yields a 500, an answer slower than a second, an error over 64 KB, or a
 * change on disk from a refused request; a broken file never has its content quoted back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { REST_ROUTES } from '../../../../shared/rest.js';
import type { OpName } from '../../../../shared/operations.js';
import { startHost, type TestHost } from '../../../helpers/host.js';

let h: TestHost;
const bundleID = uuidv7();

beforeAll(async () => {
  h = await startHost();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'prop', displayName: 'Prop' });
  await h.api('PUT', `/tools/bundles/${bundleID}/tools/calc/version/v1`, {
    type: 'function',
    displayName: 'Calc',
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expression: { type: 'string', pattern: '^[0-9+*/ ()-]+$' } }, required: ['expression'] },
  });
});
afterAll(async () => {
  await h.close();
});

/** Routes that take JSON (imports take bytes and are property-tested by the transfer suites). */
const JSON_ROUTES = (Object.keys(REST_ROUTES) as OpName[]).filter((n) => !REST_ROUTES[n].binary);

/** Hostile strings: long, unicode, control characters, prototype names, traversal. */
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    '../../etc/passwd',
    '%2e%2e%2f',
    '\u0000',
    '\r\nX-Injected: 1',
    '${SECRET}',
    '{{x}}',
    'a'.repeat(5000),
    '(a+)+$',
  ),
);

const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** A body shaped like what a route wants, with fields swapped for hostile values. */
const bodyFor = fc.oneof(
  hostileJson,
  fc.record(
    {
      slug: hostileString,
      displayName: hostileString,
      type: fc.constantFrom('http', 'function', 'container', 'pipeline', 'nope'),
      impl: hostileJson,
      argSchema: hostileJson,
      outputSchema: hostileJson,
      args: hostileJson,
      isEnabled: hostileJson,
      value: hostileJson,
    },
    { requiredKeys: [] },
  ),
);

const PARAM_VALUES: Record<string, fc.Arbitrary<string>> = {
  bundleID: fc.oneof(fc.constant(bundleID), fc.uuid(), hostileString),
  slug: fc.oneof(fc.constant('calc'), hostileString),
  version: fc.oneof(fc.constant('v1'), hostileString),
  invocationID: fc.oneof(fc.uuid(), hostileString),
  name: fc.oneof(fc.constantFrom('API_KEY', 'X'), hostileString),
};

function pathFor(name: OpName, params: Record<string, string>, query: Record<string, string>): string {
  const route = REST_ROUTES[name];
  let path = route.path;
  for (const p of route.params ?? []) path = path.replace(`:${p}`, encodeURIComponent(params[p] ?? 'x'));
  const qs = (route.query ?? []).filter((q) => q in query).map((q) => `${q}=${encodeURIComponent(query[q]!)}`);
  return qs.length ? `${path}?${qs.join('&')}` : path;
}

const request = fc.record({
  name: fc.constantFrom(...JSON_ROUTES),
  params: fc.record(Object.fromEntries(Object.keys(PARAM_VALUES).map((k) => [k, PARAM_VALUES[k]!]))),
  query: fc.dictionary(fc.constantFrom('pageSize', 'pageToken', 'q', 'bundleIDs', 'includeDisabled', 'deleted', 'tags', 'limit'), hostileString, {
    maxKeys: 4,
  }),
  body: bodyFor,
});

const MAX_ERROR_BYTES = 64 * 1024;
const statuses = new Map<number, number>();

async function send(method: string, path: string, body: unknown): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
}

/** Every file of the data folder a refused request must not touch, with a hash of its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const path = join(d, entry.name);
      const rel = relative(dir, path);
      // History and metrics record calls (refused ones included) by design; the audit log gets earlier calls' batches at any time.
      if (/^(history|metrics|logs|audit)(\/|$)/.test(rel) || entry.name.endsWith('.lock')) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile())
        out.set(
          rel,
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        );
    }
  };
  await walk(dir);
  return out;
}

describe('REST contract under random and hostile input', () => {
  it('never answers 500, never takes a second, keeps errors in the contract shape under 64 KB, and changes nothing on disk when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ name, params, query, body }) => {
        const route = REST_ROUTES[name];
        const path = pathFor(name, params, query);
        const before = route.method === 'GET' ? undefined : await snapshot(h.dataDir);
        const res = await send(route.method, path, body);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${route.method} ${path}: ${res.text.slice(0, 300)}`).not.toBe(500);
        expect(res.ms, `${route.method} ${path}`).toBeLessThan(1000);
        if (res.status >= 400) {
          expect(res.text.length).toBeLessThanOrEqual(MAX_ERROR_BYTES);
          const parsed = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
          expect(typeof parsed.error?.code).toBe('string');
          expect(typeof parsed.error?.message).toBe('string');
          if (before && res.status !== 404)
            expect(await snapshot(h.dataDir), `${route.method} ${path} was refused but changed the data folder`).toEqual(before);
        }
      }),
      { numRuns: 300 },
    );
    // The generator reaches past the validators: some requests succeed, most are refused.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

describe('the tool.json reader under random and hostile files', () => {
  const MARKER = 'CONTENT-MARKER-7f3a';
  const fileText = fc.oneof(
    hostileJson.map((v) => JSON.stringify(v)),
    hostileJson.map((v) => JSON.stringify({ slug: MARKER, impl: v, argSchema: v })),
    fc.string({ maxLength: 200 }).map((s) => `{"slug": "${MARKER}", ${s}`),
    fc.constantFrom('', '\uFEFF{}', '[', '{"a": 1,}', `root:x:0:0:${MARKER}:/root:/bin/bash`, '['.repeat(50_000) + ']'.repeat(50_000)),
  );

  it('never throws, never leaves a tool half-read, and never quotes the file in a problem', async () => {
    const toolID = uuidv7();
    const dir = join(h.dataDir, 'bundles', bundleID, 'tools', toolID);
    await mkdir(dir, { recursive: true });
    await fc.assert(
      fc.asyncProperty(fileText, async (text) => {
        await writeFile(join(dir, 'tool.json'), text);
        await h.core.store.syncTool(bundleID, toolID);
        const problems = h.core.store.problems().filter((p) => p.path.includes(toolID));
        const tools = (await h.api('GET', `/tools/tools?bundleIDs=${bundleID}&includeDisabled=true&pageSize=200`)).body.items as { toolID: string }[];
        const listed = tools.some((t) => t.toolID === toolID);
        // Either the file is a valid tool (listed, no problem) or it is a problem (not listed).
        expect(listed !== problems.length > 0).toBe(true);
        for (const p of problems) {
          expect(p.reason).not.toContain(MARKER);
          expect(p.reason.length).toBeLessThan(4096);
        }
      }),
      { numRuns: 150 },
    );
    expect((await stat(dir)).isDirectory()).toBe(true);
  }, 120_000);
});
