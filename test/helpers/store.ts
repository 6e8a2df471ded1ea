/** Opens a real store on a fresh temporary data directory, as the composition root does. */
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { ConfigStore } from '../../electron/core/config.js';
import { DataPaths } from '../../electron/core/data-paths.js';
import { Store } from '../../electron/core/store/store.js';
import { BundleService } from '../../electron/core/store/bundles.js';
import { prepareTool } from '../../electron/core/tool-types/prepare.js';
import { ToolService } from '../../electron/core/store/tools.js';
import { canonicalJson } from '../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type ToolFile } from '../../shared/schemas.js';
import type { ToolInput } from '../../shared/operations.js';

export interface TestStore {
  dataDir: string;
  store: Store;
  bundles: BundleService;
  tools: ToolService;
  config: ConfigStore;
  reopen(): Promise<TestStore>;
  cleanup(): Promise<void>;
}

/** A ToolService with the real save rules and no runners: every tool counts as available. */
export function plainToolService(store: Store): ToolService {
  return new ToolService(store, {
    prepare: prepareTool,
    availability: () => ({ ok: true }),
    metrics: () => ({ callCount: 0, errorCount: 0, lastCalledAt: null }),
  });
}

export async function tempDir(prefix = 'tw-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function openTestStore(opts: { dataDir?: string; builtinDir?: string; clock?: () => Date } = {}): Promise<TestStore> {
  const dataDir = opts.dataDir ?? (await tempDir());
  const paths = new DataPaths(dataDir);
  await mkdir(dataDir, { recursive: true });
  const config = await ConfigStore.open(paths);
  const store = await Store.open({ paths, config, ...(opts.builtinDir ? { builtinDir: opts.builtinDir } : {}), ...(opts.clock ? { clock: opts.clock } : {}) });
  const t: TestStore = {
    dataDir,
    store,
    bundles: new BundleService(store),
    tools: plainToolService(store),
    config,
    reopen: () => openTestStore({ ...opts, dataDir }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
  return t;
}

export function functionTool(overrides: Partial<ToolInput> = {}): ToolInput {
  return {
    type: 'function',
    displayName: 'Calculator',
    description: 'Evaluates arithmetic',
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] },
    ...overrides,
  };
}

export function httpTool(url: string, overrides: Partial<ToolInput> = {}): ToolInput {
  return {
    type: 'http',
    displayName: 'Weather',
    impl: { method: 'GET', urlTemplate: url },
    argSchema: { type: 'object', properties: { city: { type: 'string' } } },
    ...overrides,
  };
}

/** A fixed time for fixture files, so the bytes they are written as are the same on every run. */
export const FIXTURE_AT = '2026-02-03T04:05:06.000Z';

/** A core.echo function tool.json as it lies in a data folder; overrides say what a test is about. */
export function echoToolFile(bundleID: string, toolID: string, overrides: Partial<ToolFile> = {}): ToolFile {
  return {
    schemaVersion: '1',
    toolID,
    bundleID,
    slug: 'echo',
    version: 'v1',
    displayName: 'Echo',
    description: 'Echoes its input',
    type: 'function',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: { type: 'object', properties: { text: { type: 'string' } } },
    outputSchema: {},
    impl: { function: 'core.echo' },
    card: { enabled: true },
    limits: {},
    createdAt: FIXTURE_AT,
    modifiedAt: FIXTURE_AT,
    ...overrides,
  } as ToolFile;
}

/** Writes a built-in tree: one bundle with one tool, as data/builtin ships them. */
export async function makeBuiltinDir(): Promise<{ dir: string; bundleID: string; toolID: string }> {
  const dir = await tempDir('tw-builtin-');
  const bundleID = uuidv7();
  const toolID = uuidv7();
  const at = '2026-01-01T00:00:00.000Z';
  await mkdir(join(dir, bundleID, 'tools', toolID), { recursive: true });
  await writeFile(
    join(dir, bundleID, 'bundle.json'),
    canonicalJson(
      {
        schemaVersion: '1',
        bundleID,
        slug: 'builtin-test',
        displayName: 'Built-in',
        description: '',
        isEnabled: true,
        isBuiltIn: true,
        createdAt: at,
        modifiedAt: at,
      },
      BUNDLE_KEY_ORDER,
    ),
  );
  const tool = echoToolFile(bundleID, toolID, {
    description: 'Echoes',
    isBuiltIn: true,
    tags: ['util'],
    argSchema: { type: 'object' },
    createdAt: at,
    modifiedAt: at,
  });
  await writeFile(join(dir, bundleID, 'tools', toolID, 'tool.json'), canonicalJson(tool as unknown as Record<string, unknown>, TOOL_KEY_ORDER));
  return { dir, bundleID, toolID };
}

export async function expectCode(p: Promise<unknown>, code: string): Promise<Error & { code: string; details?: unknown }> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { code: string };
    if (err.code !== code) throw new Error(`expected error code ${code}, got ${err.code}: ${err.message}`);
    return err;
  }
  throw new Error(`expected error code ${code}, but the call succeeded`);
}
