/**
 * A real core (createCore, no Docker) on a fresh data folder with a few test functions
 * registered, and shorthands to make function and pipeline tools through the ToolService, as
 * the REST host or the editor would.
 */
import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { createCore, type Core } from '../../electron/core/app-core.js';
import { CoreError } from '../../electron/core/errors.js';
import { defineFunction } from '../../electron/core/functions/types.js';
import type { ToolInput } from '../../shared/operations.js';
import type { ToolView } from '../../shared/types.js';
import { tempDir } from './store.js';

export interface PipelineWorld {
  core: Core;
  bundleID: string;
  /** How many times test.count ran. */
  counts: { count: number };
  /** Signals test.sleep was given, to prove a stop reached the running step. */
  sleeps: AbortSignal[];
  fnTool(slug: string, fn: string, extra?: Partial<ToolInput>, bundleID?: string): Promise<ToolView>;
  pipeline(slug: string, impl: Record<string, unknown>, extra?: Partial<ToolInput>, bundleID?: string): Promise<ToolView>;
  close(): Promise<void>;
}

const NUMBER_ARGS = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false };

export async function pipelineWorld(opts: { dataDir?: string } = {}): Promise<PipelineWorld> {
  const dataDir = opts.dataDir ?? (await tempDir('tw-pipe-'));
  const core = await createCore({ dataDir, docker: false, reapIntervalMs: 0 });
  await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
  const counts = { count: 0 };
  const sleeps: AbortSignal[] = [];
  core.functions.register(
    defineFunction<{ n: number }, number>({
      name: 'test.double',
      description: 'n × 2',
      argSchema: NUMBER_ARGS,
      outputSchema: { type: 'number' },
      safety: 'readOnly',
      run: ({ n }) => ({ value: n * 2 }),
    }),
  );
  core.functions.register(
    defineFunction<{ a: number; b: number }, number>({
      name: 'test.add',
      description: 'a + b',
      argSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      outputSchema: { type: 'number' },
      safety: 'readOnly',
      run: ({ a, b }) => ({ value: a + b }),
    }),
  );
  core.functions.register(
    defineFunction<Record<string, unknown>, unknown>({
      name: 'test.echo',
      description: 'its arguments',
      argSchema: { type: 'object' },
      outputSchema: {},
      safety: 'readOnly',
      run: (args) => ({ value: args }),
    }),
  );
  core.functions.register(
    defineFunction<Record<string, unknown>, number>({
      name: 'test.count',
      description: 'counts its runs',
      argSchema: { type: 'object' },
      outputSchema: { type: 'number' },
      safety: 'readOnly',
      run: () => ({ value: ++counts.count }),
    }),
  );
  core.functions.register(
    defineFunction<Record<string, unknown>, never>({
      name: 'test.fail',
      description: 'always fails',
      argSchema: { type: 'object' },
      outputSchema: {},
      safety: 'readOnly',
      run: () => {
        throw new CoreError('UPSTREAM_ERROR', 'the backend said no');
      },
    }),
  );
  core.functions.register(
    defineFunction<{ ms: number }, string>({
      name: 'test.sleep',
      description: 'waits ms, or until stopped',
      argSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
      outputSchema: {},
      safety: 'readOnly',
      run: ({ ms }, ctx) => {
        sleeps.push(ctx.signal);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ value: 'slept' }), ms);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('stopped'));
          });
        });
      },
    }),
  );
  const bundleID = uuidv7();
  await core.bundles.put(bundleID, { slug: 'lab', displayName: 'Lab' });
  return {
    core,
    bundleID,
    counts,
    sleeps,
    fnTool: (slug, fn, extra = {}, bundle = bundleID) =>
      core.tools.create(
        { bundleID: bundle, slug, version: 'v1' },
        { type: 'function', impl: { function: fn }, argSchema: fn === 'test.double' ? NUMBER_ARGS : { type: 'object' }, ...extra },
      ),
    pipeline: (slug, impl, extra = {}, bundle = bundleID) =>
      core.tools.create({ bundleID: bundle, slug, version: 'v1' }, { type: 'pipeline', impl, argSchema: { type: 'object', properties: {} }, ...extra }),
    async close() {
      await core.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The refusal a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<CoreError> {
  try {
    await p;
  } catch (e) {
    return e as CoreError;
  }
  throw new Error('expected a refusal, but it succeeded');
}
