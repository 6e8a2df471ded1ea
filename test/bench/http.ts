/**
 * http tool through the runner vs a raw fetch of the same loopback URL, side by side in one
 * run (interleaved, so both see the same machine state). Goal: runner ≤ 1.2× raw fetch at p50.
 * Run alone: npx tsx test/bench/http.ts
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createHttpRunner } from '../../electron/core/tool-types/http/runner.js';
import { sendJson, startLoopbackServer } from '../helpers/loopback-http.js';
import { httpTool, MemorySecrets, runContext, testConfig } from '../helpers/http-tools.js';
import { quantile, row } from './util.js';

const WARMUP = 300;
const ITERATIONS = Number(process.env['BENCH_HTTP_ITERATIONS'] ?? 3000);

export async function run(): Promise<void> {
  const srv = await startLoopbackServer();
  srv.route('/weather', (req, res) => sendJson(res, 200, { city: req.query.get('city'), current: { temp: 21.5, wind: 3 } }));
  const runner = createHttpRunner();
  const secrets = new MemorySecrets({ WEATHER_API_KEY: 'bench-key-0123456789' });
  const tool = httpTool(
    { urlTemplate: `http://127.0.0.1:${srv.port}/weather?city=\${city}`, headers: { 'X-Api-Key': '${WEATHER_API_KEY}' }, extractExpr: '$.current.temp' },
    { args: { city: {} } },
  );
  const config = testConfig();
  const rawUrl = `http://127.0.0.1:${srv.port}/weather?city=Paris`;

  const viaRunner = async () => {
    const out = await runner.run(runContext(tool, { city: 'Paris' }, { config, secrets }));
    if (out.value !== 21.5) throw new Error(`unexpected value ${JSON.stringify(out.value)}`);
  };
  const viaFetch = async () => {
    const res = await fetch(rawUrl, { headers: { 'X-Api-Key': 'bench-key-0123456789' } });
    const json = (await res.json()) as { current: { temp: number } };
    if (json.current.temp !== 21.5) throw new Error('unexpected value');
  };

  try {
    for (let i = 0; i < WARMUP; i++) {
      await viaRunner();
      await viaFetch();
    }
    srv.requests.length = 0;
    const runnerTimes: number[] = [];
    const fetchTimes: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      // Alternate which goes first so neither always runs on a warmer connection.
      const order = i % 2 === 0 ? [viaRunner, viaFetch] : [viaFetch, viaRunner];
      for (const fn of order) {
        const t0 = performance.now();
        await fn();
        (fn === viaRunner ? runnerTimes : fetchTimes).push(performance.now() - t0);
      }
      if (srv.requests.length > 1000) srv.requests.length = 0;
    }
    const [rp50, fp50] = [quantile(runnerTimes, 0.5), quantile(fetchTimes, 0.5)];
    const [rp95, fp95] = [quantile(runnerTimes, 0.95), quantile(fetchTimes, 0.95)];
    console.log(
      `  ${ITERATIONS} calls each, interleaved, loopback keep-alive; the tool expands a secret header, checks the allow-list, extracts $.current.temp, redacts`,
    );
    console.log(row('http tool vs raw fetch, p50', rp50, fp50));
    console.log(row('http tool vs raw fetch, p95', rp95, fp95));
    console.log(`  goal ≤ 1.2x at p50: ${rp50 / fp50 <= 1.2 ? 'met' : 'NOT met'}`);
  } finally {
    await runner.close();
    await srv.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
