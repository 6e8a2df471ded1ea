/**
 * Invocation, end to end through the operations dispatcher (contract validation, the engine's
 * gates, argument and output validation, redaction, metrics, history): a function tool against
 * a direct call of the same function, and an http tool against a raw fetch of the same
 * loopback URL. Interleaved in one run; each side's p50/p95 and the ratio.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { createCore } from '../../electron/core/app-core.js';
import { calculate } from '../../electron/core/functions/calc.js';
import { tempDir } from '../helpers/store.js';
import { quantile } from './util.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const us = (ns: number) => `${(ns / 1000).toFixed(1).padStart(8)} µs`;

async function compare(label: string, n: number, ours: () => Promise<unknown>, base: () => Promise<unknown>): Promise<void> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n + 200; i++) {
    for (const side of i % 2 ? ['ours', 'base'] : ['base', 'ours']) {
      const t0 = process.hrtime.bigint();
      await (side === 'ours' ? ours() : base());
      const dt = Number(process.hrtime.bigint() - t0);
      if (i >= 200) (side === 'ours' ? a : b).push(dt);
    }
  }
  const [a50, a95, b50, b95] = [quantile(a, 0.5), quantile(a, 0.95), quantile(b, 0.5), quantile(b, 0.95)];
  console.log(`  ${label} (${n} calls each)`);
  console.log(`    ours     p50 ${us(a50)}  p95 ${us(a95)}`);
  console.log(`    baseline p50 ${us(b50)}  p95 ${us(b95)}   ratio p50 ${(a50 / b50).toFixed(2)}x  p95 ${(a95 / b95).toFixed(2)}x`);
}

export async function run(): Promise<void> {
  const dataDir = await tempDir('tw-bench-invoke-');
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"temp":21,"city":"Oslo"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const core = await createCore({ dataDir, docker: false });
  try {
    await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const expression = '2 * (3 + 4) ^ 2 / sqrt(16)';
    await compare(
      'function tool core.calc via tools.invoke vs calculate()',
      3000,
      async () => {
        const r = await core.dispatch('tools.invoke', { bundleID: CORE, slug: 'calc', version: 'v1', args: { expression } });
        if (!r.ok || !r.data.ok) throw new Error(JSON.stringify(r));
      },
      async () => calculate(expression),
    );
    const bundleID = uuidv7();
    await core.bundles.put(bundleID, { slug: 'bench' });
    await core.tools.create(
      { bundleID, slug: 'weather', version: 'v1' },
      {
        type: 'http',
        impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${port}/w?q=\${city}` },
        argSchema: { type: 'object', properties: { city: { type: 'string' } } },
        limits: { maxCallsPerMinute: 100000 },
      },
    );
    await compare(
      'http tool via tools.invoke vs raw fetch (loopback)',
      2000,
      async () => {
        const r = await core.dispatch('tools.invoke', { bundleID, slug: 'weather', version: 'v1', args: { city: 'Oslo' } });
        if (!r.ok || !r.data.ok) throw new Error(JSON.stringify(r));
      },
      async () => (await fetch(`http://127.0.0.1:${port}/w?q=Oslo`)).json(),
    );
    console.log('  goals (issue 3): http ≤ 1.2x raw fetch at p50; container ≤ 0.9x docker run --rm (see the container part)');
  } finally {
    await core.close();
    server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
