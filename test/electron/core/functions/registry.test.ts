import { describe, it, expect, afterAll } from 'vitest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFunctionRegistry, CORE_FUNCTIONS } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { defineFunction } from '../../../../electron/core/functions/types.js';
import { FunctionRegistry } from '../../../../electron/core/functions/registry.js';
import { defaultRegexSandbox } from '../../../../electron/core/functions/regex.js';
import { BundleFile, ToolFile, TOOL_KEY_ORDER, BUNDLE_KEY_ORDER, type ToolFile as ToolFileT } from '../../../../shared/schemas.js';
import { canonicalJson } from '../../../../shared/canonical.js';
import { checkSlug, checkVersion } from '../../../../shared/slug.js';
import { isUuid } from '../../../../shared/ids.js';
import { checkAgainst, makeUserAjv } from '../../../../electron/core/validation.js';
import { contextFor, coreErrorOf, functionTool, noSecrets } from '../../../helpers/functions-context.js';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const CORE_BUNDLE_ID = '0190a000-0000-7000-8000-00000000c0e0';
const coreDir = path.join(repoRoot, 'data', 'builtin', CORE_BUNDLE_ID);
const SCHEDULES_BUNDLE_ID = '0190a000-0000-7000-8000-00000000c1e0';
const schedulesDir = path.join(repoRoot, 'data', 'builtin', SCHEDULES_BUNDLE_ID);

afterAll(() => defaultRegexSandbox.close());

describe('function registry', () => {
  it('registers every core function and lists them sorted with their schemas and safety', () => {
    const registry = createFunctionRegistry();
    const list = registry.list();
    expect(list.map((f) => f.name)).toEqual([
      'core.calc',
      'core.convertTime',
      'core.fileDelete',
      'core.fileEdit',
      'core.fileSearch',
      'core.fileWrite',
      'core.glob',
      'core.jsonpath',
      'core.listDir',
      'core.now',
      'core.readFile',
      'core.regexTest',
      'core.scheduleCreate',
      'core.scheduleDelete',
      'core.scheduleEdit',
      'core.scheduleRunOutput',
      'core.scheduleRuns',
      'core.scheduleSearch',
      'core.shellExec',
      'core.textStats',
      'core.uuid',
      'core.webFetch',
      'core.webSearch',
    ]);
    for (const info of list) {
      expect(Object.keys(info).sort()).toEqual(['argSchema', 'description', 'name', 'outputSchema', 'safety']);
      expect(info.description.length).toBeGreaterThan(20);
      expect(['readOnly', 'sideEffecting', 'privileged']).toContain(info.safety);
      expect(registry.has(info.name)).toBe(true);
      expect(registry.get(info.name)?.argSchema).toBe(info.argSchema);
    }
    expect(registry.has('core.xyz')).toBe(false);
    expect(registry.get('core.xyz')).toBeUndefined();
  });

  it('every argument and output property carries a description', () => {
    const missing: string[] = [];
    const walk = (schema: Record<string, unknown>, where: string) => {
      const props = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
      for (const [name, prop] of Object.entries(props ?? {})) {
        if (typeof prop['description'] !== 'string' || prop['description'] === '') missing.push(`${where}.${name}`);
        walk(prop, `${where}.${name}`);
        if (prop['items'] && typeof prop['items'] === 'object') walk(prop['items'] as Record<string, unknown>, `${where}.${name}[]`);
      }
    };
    for (const def of CORE_FUNCTIONS) {
      walk(def.argSchema, `${def.name} args`);
      walk(def.outputSchema, `${def.name} output`);
    }
    expect(missing).toEqual([]);
  });

  it("every built-in function's argSchema and outputSchema compile (the registry compiles an argSchema on its first call)", () => {
    const ajv = makeUserAjv();
    for (const def of CORE_FUNCTIONS) {
      expect(() => ajv.compile(def.argSchema), `${def.name} argSchema`).not.toThrow();
      expect(() => ajv.compile(def.outputSchema), `${def.name} outputSchema`).not.toThrow();
    }
  });

  it('refuses a duplicate, a malformed name and an argSchema that does not compile', () => {
    const registry = new FunctionRegistry();
    const def = defineFunction({
      name: 'test.echo',
      description: 'echo',
      argSchema: { type: 'object' },
      outputSchema: {},
      safety: 'readOnly',
      run: (args) => ({ value: args }),
    });
    registry.register(def);
    expect(() => registry.register(def)).toThrow(/already registered/);
    expect(() => registry.register({ ...def, name: 'noDot' })).toThrow(/invalid/);
    expect(() => registry.register({ ...def, name: 'x.y; rm -rf' })).toThrow(/invalid/);
    expect(() => registry.register({ ...def, name: 'test.bad', argSchema: { type: 'no-such-type' } })).toThrow(/test\.bad: its argSchema is not a JSON Schema/);
    expect(() => registry.register({ ...def, name: 'test.bad', outputSchema: { required: 'x' } })).toThrow(/outputSchema is not a JSON Schema/);
    expect(registry.has('test.bad')).toBe(false);
  });
});

describe('function runner', () => {
  const registry = createFunctionRegistry();
  registry.register(
    defineFunction<{ n: number }, { doubled: number }>({
      name: 'test.double',
      description: 'doubles n',
      argSchema: { type: 'object', properties: { n: { type: 'number', maximum: 10 } }, required: ['n'], additionalProperties: false },
      outputSchema: { type: 'object' },
      safety: 'readOnly',
      run: ({ n }) => ({ value: { doubled: n * 2 }, card: { title: `double ${n}`, html: '<b>x</b>', text: String(n * 2) } }),
    }),
  );
  registry.register(
    defineFunction({
      name: 'test.throws',
      description: 'throws a plain error',
      argSchema: { type: 'object' },
      outputSchema: {},
      safety: 'readOnly',
      run: () => {
        throw new TypeError('boom');
      },
    }),
  );
  const runner = createFunctionRunner(registry);

  it('is the runner for type function', () => {
    expect(runner.type).toBe('function');
  });

  it('returns the value and the card of the function', async () => {
    const out = await runner.run(contextFor('test.double', { n: 4 }));
    expect(out.value).toEqual({ doubled: 8 });
    expect(out.card).toEqual({ title: 'double 4', html: '<b>x</b>', text: '8' });
  });

  it("validates arguments against the function's own argSchema, naming the field", async () => {
    const missing = await coreErrorOf(() => runner.run(contextFor('test.double', {})));
    expect(missing.code).toBe('INVALID_ARGS');
    expect(missing.message).toMatch(/missing required field 'n'/);
    const tooBig = await coreErrorOf(() => runner.run(contextFor('test.double', { n: 11 })));
    expect(tooBig.details?.issues).toEqual([{ field: 'args.n', message: 'must be ≤ 10' }]);
    const extra = await coreErrorOf(() => runner.run(contextFor('test.double', { n: 1, m: 2 })));
    expect(extra.message).toMatch(/unknown field 'm'/);
  });

  it("a user's tool with a looser argSchema around core.calc still gets the function's checks", async () => {
    const tool = functionTool('core.calc', { argSchema: {} });
    const err = await coreErrorOf(() => runner.run(contextFor('core.calc', { expression: 42 }, { tool })));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.details?.issues?.[0]?.field).toBe('args.expression');
  });

  it('turns an unexpected exception into INTERNAL naming the function', async () => {
    const err = await coreErrorOf(() => runner.run(contextFor('test.throws', {})));
    expect(err.code).toBe('INTERNAL');
    expect(err.message).toBe('function test.throws failed: boom');
  });

  it('does not start a function when the invocation is already cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await coreErrorOf(() => runner.run(contextFor('test.double', { n: 1 }, { signal: ac.signal })));
    expect(err.code).toBe('CANCELLED');
  });

  it('reports an unknown function as unavailable, and refuses to run it', async () => {
    expect(runner.availability(functionTool('core.xyz'), '/x', noSecrets)).toEqual({ ok: false, reason: 'function core.xyz is not registered' });
    expect(runner.availability(functionTool('core.calc'), '/x', noSecrets)).toEqual({ ok: true });
    const noImpl = functionTool('core.calc', { impl: {} as ToolFileT['impl'] });
    expect(runner.availability(noImpl, '/x', noSecrets).ok).toBe(false);
    const err = await coreErrorOf(() => runner.run(contextFor('core.xyz', {})));
    expect(err.code).toBe('TOOL_UNAVAILABLE');
    expect(err.message).toBe('function core.xyz is not registered');
  });

  it('never touches a stored tool.json that names an unknown function', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tw-fn-'));
    try {
      const source = JSON.parse(await fsp.readFile(path.join(coreDir, 'tools', '0190a000-0000-7000-8000-00000000c001', 'tool.json'), 'utf8'));
      const file = path.join(dir, 'tool.json');
      const text = canonicalJson({ ...source, isBuiltIn: false, impl: { function: 'core.xyz' } }, TOOL_KEY_ORDER);
      await fsp.writeFile(file, text);
      await fsp.utimes(file, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
      const before = await fsp.stat(file);
      const tool = JSON.parse(await fsp.readFile(file, 'utf8')) as ToolFileT;
      expect(runner.availability(tool, dir, noSecrets)).toEqual({ ok: false, reason: 'function core.xyz is not registered' });
      await expect(runner.run({ ...contextFor('core.xyz', { expression: '1' }, { tool }), toolDir: dir })).rejects.toMatchObject({ code: 'TOOL_UNAVAILABLE' });
      const after = await fsp.stat(file);
      expect(await fsp.readFile(file, 'utf8')).toBe(text);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(await fsp.readdir(dir)).toEqual(['tool.json']);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('built-in core bundle on disk', () => {
  const registry = createFunctionRegistry();

  it('bundle.json is valid, canonical, enabled and built-in', async () => {
    const text = await fsp.readFile(path.join(coreDir, 'bundle.json'), 'utf8');
    const bundle = JSON.parse(text);
    expect(checkAgainst(BundleFile, bundle)).toEqual([]);
    expect(text).toBe(canonicalJson(bundle, BUNDLE_KEY_ORDER));
    expect(bundle).toMatchObject({ bundleID: CORE_BUNDLE_ID, slug: 'core', displayName: 'Core', isBuiltIn: true, isEnabled: true });
  });

  it('the schedules bundle is valid, canonical, built-in and ships switched off (a person lets agents manage schedules)', async () => {
    const text = await fsp.readFile(path.join(schedulesDir, 'bundle.json'), 'utf8');
    const bundle = JSON.parse(text);
    expect(checkAgainst(BundleFile, bundle)).toEqual([]);
    expect(text).toBe(canonicalJson(bundle, BUNDLE_KEY_ORDER));
    expect(bundle).toMatchObject({ bundleID: SCHEDULES_BUNDLE_ID, slug: 'schedules', isBuiltIn: true, isEnabled: false });
  });

  it('has one valid, canonical tool.json per core function (the core and schedules bundles), matching the registered schemas', async () => {
    const ajv = makeUserAjv();
    const slugs = new Set<string>();
    const functions = new Set<string>();
    let count = 0;
    for (const [dir, bundleID, idPattern] of [
      [coreDir, CORE_BUNDLE_ID, /^0190a000-0000-7000-8000-00000000c0[0-9a-f]{2}$/],
      [schedulesDir, SCHEDULES_BUNDLE_ID, /^0190a000-0000-7000-8000-00000000c1[0-9a-f]{2}$/],
    ] as const)
      for (const toolID of (await fsp.readdir(path.join(dir, 'tools'))).sort()) {
        count++;
        expect(toolID).toMatch(idPattern);
        expect(isUuid(toolID)).toBe(true);
        const text = await fsp.readFile(path.join(dir, 'tools', toolID, 'tool.json'), 'utf8');
        const tool = JSON.parse(text) as ToolFileT & { impl: { function: string } };
        expect(checkAgainst(ToolFile, tool), `${toolID} against the ToolFile schema`).toEqual([]);
        expect(text, `${toolID} is canonical JSON`).toBe(canonicalJson(tool as unknown as Record<string, unknown>, TOOL_KEY_ORDER));
        expect(tool).toMatchObject({ toolID, bundleID, type: 'function', isBuiltIn: true, isEnabled: true, limits: {} });
        expect(checkSlug(tool.slug)).toMatchObject({ ok: true, value: tool.slug });
        expect(checkVersion(tool.version).ok).toBe(true);
        expect(tool.impl.function).toMatch(/^core\./);
        const def = registry.get(tool.impl.function);
        expect(def, `${tool.impl.function} is registered`).toBeDefined();
        expect(tool.argSchema).toEqual(def!.argSchema);
        expect(tool.outputSchema).toEqual(def!.outputSchema);
        expect(tool.safety).toBe(def!.safety);
        expect(tool.description).toBe(def!.description);
        expect(() => ajv.compile(tool.argSchema as object)).not.toThrow();
        expect(tool.card.enabled).toBe(true);
        expect(tool.card.title).toBeTruthy();
        expect(tool.card.accentColor).toBeTruthy();
        expect(tool.tags.length).toBeGreaterThan(0);
        expect(createFunctionRunner(registry).availability(tool, '', noSecrets)).toEqual({ ok: true });
        slugs.add(tool.slug);
        functions.add(tool.impl.function);
      }
    expect(count).toBe(CORE_FUNCTIONS.length);
    expect(slugs.size).toBe(count);
    expect([...functions].sort()).toEqual(CORE_FUNCTIONS.map((f) => f.name).sort());
  });
});
