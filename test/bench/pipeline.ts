/**
 * Pipeline overhead: a pipeline of N steps run through the engine against the same N tools
 * called one by one through the engine (each call's value fed to the next, as the pipeline
 * does), in one process, interleaved. Two kinds of steps: in-process function tools (where
 * the pipeline's own bookkeeping weighs most) and http tools on a loopback server. Prints each
 * side's p50/p95 and their ratio; and, with a one-step pipeline measured alongside, what one
 * more step costs inside a pipeline against one call on its own (the per-step ratio, without
 * the pipeline's own call, which every run pays once). Goal (issue 13): ≤ 1.2× at p50.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { createCore, type Core } from '../../electron/core/app-core.js';
import { silentLogger } from '../../electron/core/log.js';
import { tempDir } from '../helpers/store.js';
import { quantile } from './util.js';

const STEPS = 5;
const us = (ns: number) => `${(ns / 1000).toFixed(1).padStart(8)} µs`;

async function compare(label: string, n: number, ours: () => Promise<unknown>, oneStep: () => Promise<unknown>, base: () => Promise<unknown>): Promise<void> {
  const sides = { ours, oneStep, base };
  const times: Record<keyof typeof sides, number[]> = { ours: [], oneStep: [], base: [] };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const warm = Math.min(200, Math.floor(n / 5));
  for (let i = 0; i < n + warm; i++) {
    // A different order each round, so no side always runs after another.
    for (let k = 0; k < names.length; k++) {
      const side = names[(i + k) % names.length]!;
      const t0 = process.hrtime.bigint();
      await sides[side]();
      const dt = Number(process.hrtime.bigint() - t0);
      if (i >= warm) times[side].push(dt);
    }
  }
  const p = (side: keyof typeof sides, q: number) => quantile(times[side], q);
  const [a50, a95, b50, b95] = [p('ours', 0.5), p('ours', 0.95), p('base', 0.5), p('base', 0.95)];
  const marginal = (a50 - p('oneStep', 0.5)) / (STEPS - 1);
  const single = b50 / STEPS;
  console.log(`  ${label} (${n} runs each)`);
  console.log(`    pipeline    p50 ${us(a50)}  p95 ${us(a95)}`);
  console.log(`    one by one  p50 ${us(b50)}  p95 ${us(b95)}   ratio p50 ${(a50 / b50).toFixed(2)}x  p95 ${(a95 / b95).toFixed(2)}x`);
  console.log(`    per step: one more step in a pipeline ${us(marginal)}, one call alone ${us(single)}   ratio ${(marginal / single).toFixed(2)}x`);
}

async function chainOf(core: Core, bundleID: string, slug: string, args: (prev: unknown) => Record<string, unknown>, first: Record<string, unknown>) {
  let prev: unknown;
  for (let i = 0; i < STEPS; i++) {
    // Without a card, as the pipeline's steps run: the same work, so the difference is the pipeline's own.
    const r = await core.invocations.invoke({ bundleID, slug, version: 'v1' }, { args: i === 0 ? first : args(prev), card: false });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    prev = r.value;
  }
  return prev;
}

export async function run(): Promise<void> {
  const dataDir = await tempDir('tw-bench-pipeline-');
  const server = createServer((req, res) => {
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ n: n + 1 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const core = await createCore({ dataDir, docker: false, reapIntervalMs: 0, logger: silentLogger });
  try {
    await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const bundleID = uuidv7();
    await core.bundles.put(bundleID, { slug: 'bench' });
    const limits = { maxCallsPerMinute: 100000 };
    await core.tools.create(
      { bundleID, slug: 'calc', version: 'v1' },
      { type: 'function', impl: { function: 'core.calc' }, argSchema: { type: 'object', properties: { expression: { type: 'string' } } }, limits },
    );
    await core.tools.create(
      { bundleID, slug: 'inc', version: 'v1' },
      {
        type: 'http',
        impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${port}/inc?n=\${n}` },
        argSchema: { type: 'object', properties: { n: { type: 'number' } } },
        limits,
      },
    );
    const steps = (slug: string, args: (i: number) => Record<string, unknown>) =>
      Array.from({ length: STEPS }, (_, i) => ({ id: `s${i}`, tool: { slug, version: 'v1' }, args: args(i) }));
    for (const [slug, tool, arg] of [
      ['calc-one', 'calc', { expression: '${input.expression}' }],
      ['inc-one', 'inc', { n: '${input.n}' }],
    ] as const) {
      await core.tools.create(
        { bundleID, slug, version: 'v1' },
        {
          type: 'pipeline',
          impl: { steps: [{ id: 's0', tool: { slug: tool, version: 'v1' }, args: arg }] },
          argSchema: { type: 'object', properties: { expression: { type: 'string' }, n: { type: 'number' } } },
          limits,
        },
      );
    }
    await core.tools.create(
      { bundleID, slug: 'calc-chain', version: 'v1' },
      {
        type: 'pipeline',
        impl: { steps: steps('calc', (i) => ({ expression: i === 0 ? '${input.expression}' : `\${steps.s${i - 1}.value.value} + 1` })) },
        argSchema: { type: 'object', properties: { expression: { type: 'string' } } },
        limits,
      },
    );
    await core.tools.create(
      { bundleID, slug: 'inc-chain', version: 'v1' },
      {
        type: 'pipeline',
        impl: { steps: steps('inc', (i) => ({ n: i === 0 ? '${input.n}' : `\${steps.s${i - 1}.value.n}` })) },
        argSchema: { type: 'object', properties: { n: { type: 'number' } } },
        limits,
      },
    );

    const pipeline = (slug: string, args: Record<string, unknown>) => async () => {
      const r = await core.invocations.invoke({ bundleID, slug, version: 'v1' }, { args });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    };
    await compare(
      `${STEPS} function steps (core.calc): a pipeline vs the same calls one by one, through the engine`,
      1500,
      pipeline('calc-chain', { expression: '2 * 21' }),
      pipeline('calc-one', { expression: '2 * 21' }),
      () => chainOf(core, bundleID, 'calc', (prev) => ({ expression: `${(prev as { value: number }).value} + 1` }), { expression: '2 * 21' }),
    );
    await compare(
      `${STEPS} http steps (loopback): a pipeline vs the same calls one by one, through the engine`,
      400,
      pipeline('inc-chain', { n: 1 }),
      pipeline('inc-one', { n: 1 }),
      () => chainOf(core, bundleID, 'inc', (prev) => ({ n: (prev as { n: number }).n }), { n: 1 }),
    );
    console.log('  goal (issue 13): a pipeline ≤ 1.2x the same tools called one by one, at p50');
    console.log('  (a pipeline is itself one more call through the engine: with tools that take microseconds, that call alone is 1/N of the whole)');
  } finally {
    await core.close();
    server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
