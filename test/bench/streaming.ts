/**
 * Time to the first streamed chunk of a container tool (a line printed at once, more later)
 * against a raw `docker run --rm` of the same image with the same sandbox flags, timed to its
 * first stdout byte; side by side, interleaved, so both see the same engine load. The tool is
 * measured twice: through the engine (tools.invoke with a stream listener) and through the
 * REST host (`POST …/invoke?stream=true`, first `chunk` event). Goal: ≤ 1.2× docker run at p50.
 *
 * Run alone: npm run bench -- streaming   (BENCH_STREAMING_RUNS=N, default 15)
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import Dockerode from 'dockerode';
import { v7 as uuidv7 } from 'uuid';
import { encodePayload } from '../../electron/core/tool-types/container/payload.js';
import { containerTool, dockerAvailable, ensureProbeImage, runContext } from '../helpers/docker.js';
import { startHost } from '../helpers/host.js';
import { postSse } from '../helpers/sse.js';
import { SANDBOX_FLAGS } from './container.js';
import { quantile } from './util.js';
import { APP_CALLER } from '../../shared/caller.js';

const ARGS = { mode: 'stream' };

/** ms until the first stdout byte of `docker run`, after which it runs to the end. */
function dockerRunFirstByte(image: string, payload: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let first: number | undefined;
    const child = spawn('docker', ['run', '--rm', ...SANDBOX_FLAGS, image, payload], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => (first ??= performance.now() - started));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && first !== undefined ? resolve(first) : reject(new Error(`docker run exited with ${code}`))));
  });
}

export async function run(): Promise<void> {
  const docker = new Dockerode();
  if (!(await dockerAvailable(docker))) {
    console.log('streaming: skipped — no Docker engine is reachable (start dockerd or set DOCKER_HOST)');
    return;
  }
  const image = await ensureProbeImage(docker);
  const payload = encodePayload(runContext(containerTool({ image }), ARGS), {});
  const host = await startHost({ docker: true });
  try {
    const bundleID = uuidv7();
    await host.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'bench' });
    await host.api('PUT', `/tools/bundles/${bundleID}/tools/probe/version/v1`, {
      type: 'container',
      impl: { image },
      argSchema: { type: 'object', properties: { mode: { type: 'string' } } },
      limits: { maxCallsPerMinute: 100000 },
    });
    const ref = { bundleID, slug: 'probe', version: 'v1' };

    const viaEngine = async (): Promise<number> => {
      const started = performance.now();
      let first: number | undefined;
      const env = await host.core.dispatch(
        'tools.invoke',
        { ...ref, args: ARGS },
        { caller: APP_CALLER, stream: { onEvent: () => (first ??= performance.now() - started) } },
      );
      if (!env.ok || !env.data.ok || first === undefined) throw new Error(`engine: ${JSON.stringify(env)}`);
      return first;
    };
    const viaRest = async (): Promise<number> => {
      const started = performance.now();
      let first: number | undefined;
      const answer = await postSse(
        `${host.url}/tools/bundles/${bundleID}/tools/probe/version/v1/invoke?stream=true`,
        host.token,
        { args: ARGS },
        {
          onEvent: (e) => {
            if (e.event === 'chunk') first ??= performance.now() - started;
          },
        },
      );
      if (answer.events.at(-1)?.data?.ok !== true || first === undefined) throw new Error(`REST: ${JSON.stringify(answer.events.at(-1))}`);
      return first;
    };
    const viaDocker = () => dockerRunFirstByte(image, payload);

    const contenders = [
      { name: 'container tool, REST ?stream=true', work: viaRest, samples: [] as number[] },
      { name: 'container tool, engine stream listener', work: viaEngine, samples: [] as number[] },
      { name: 'docker run --rm, same sandbox flags', work: viaDocker, samples: [] as number[] },
    ];
    for (let i = 0; i < 2; i++) for (const c of contenders) await c.work();
    const runs = Number(process.env.BENCH_STREAMING_RUNS ?? 15);
    for (let i = 0; i < runs; i++) {
      // Rotate who goes first, so none always runs right after the same neighbour.
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(i + k) % contenders.length]!;
        c.samples.push(await c.work());
      }
    }
    console.log(`streaming: time to the first chunk (${runs} runs each, interleaved; image ${image}, mode "stream")`);
    for (const c of contenders) {
      console.log(
        `  ${c.name.padEnd(40)} p50 ${quantile(c.samples, 0.5).toFixed(1).padStart(7)} ms   p90 ${quantile(c.samples, 0.9).toFixed(1).padStart(7)} ms`,
      );
    }
    const [rest, engine, raw] = contenders.map((c) => quantile(c.samples, 0.5)) as [number, number, number];
    console.log(`  ratio REST / docker run at p50:   ${(rest / raw).toFixed(2)}x   goal <= 1.20x   ${rest / raw <= 1.2 ? 'met' : 'NOT MET'}`);
    console.log(`  ratio engine / docker run at p50: ${(engine / raw).toFixed(2)}x`);
  } finally {
    await host.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
