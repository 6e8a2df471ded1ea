/**
 * Container tool through the runner versus `docker run --rm` of the same image (the CLI,
 * spawned), side by side in one run, interleaved so both see the same engine load.
 * Goal: runner p50 <= 0.9x the CLI's p50.
 *
 * Run alone: npx tsx test/bench/container.ts   (BENCH_CONTAINER_RUNS=N, default 20)
 */
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Dockerode from 'dockerode';
import { createContainerRunner } from '../../electron/core/tool-types/container/runner.js';
import { encodePayload } from '../../electron/core/tool-types/container/payload.js';
import { containerTool, dockerAvailable, ensureProbeImage, runContext } from '../helpers/docker.js';

const execFileAsync = promisify(execFile);

/** The runner's default sandbox as CLI flags, so the baseline does the same work. */
export const SANDBOX_FLAGS = [
  '--network',
  'none',
  '--memory',
  '256m',
  '--memory-swap',
  '256m',
  '--pids-limit',
  '64',
  '--cpus',
  '1',
  '--cap-drop',
  'ALL',
  '--security-opt',
  'no-new-privileges',
  '--read-only',
  '--tmpfs',
  '/tmp:rw,noexec,nosuid,nodev,size=16m,mode=1777',
  '--log-driver',
  'none',
  '--user',
  '65534:65534',
];

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export async function run(): Promise<void> {
  const docker = new Dockerode();
  if (!(await dockerAvailable(docker))) {
    console.log('container: skipped — no Docker engine is reachable (start dockerd or set DOCKER_HOST)');
    return;
  }
  const image = await ensureProbeImage(docker);
  const runner = createContainerRunner({ docker });
  await runner.refreshDockerStatus();
  const tool = containerTool({ image });
  const args = { mode: 'echo', city: 'Zürich' };
  const payload = encodePayload(runContext(tool, args), {});

  const viaRunner = async () => {
    const output = await runner.run(runContext(tool, args));
    if (!(output.value as { text?: string }).text) throw new Error('runner: unexpected output');
  };
  const viaCli = (flags: string[]) => async () => {
    const { stdout } = await execFileAsync('docker', ['run', '--rm', ...flags, image, payload]);
    if (!(JSON.parse(stdout) as { text?: string }).text) throw new Error('docker run: unexpected output');
  };
  const contenders = [
    { name: 'container tool via runner', work: viaRunner, samples: [] as number[] },
    { name: 'docker run --rm, same sandbox flags', work: viaCli(SANDBOX_FLAGS), samples: [] as number[] },
    { name: 'docker run --rm, plain', work: viaCli([]), samples: [] as number[] },
  ];

  try {
    for (let i = 0; i < 3; i++) for (const c of contenders) await c.work();
    const runs = Number(process.env.BENCH_CONTAINER_RUNS ?? 20);
    for (let i = 0; i < runs; i++) for (const c of contenders) c.samples.push(await timed(c.work));

    console.log(`container (${runs} runs each, interleaved; image ${image})`);
    for (const c of contenders) {
      console.log(
        `  ${c.name.padEnd(38)} p50 ${percentile(c.samples, 50).toFixed(1).padStart(7)} ms   p90 ${percentile(c.samples, 90).toFixed(1).padStart(7)} ms`,
      );
    }
    const [mine, same, plain] = contenders.map((c) => percentile(c.samples, 50)) as [number, number, number];
    const ratio = mine / same;
    console.log(`  ratio runner / docker run --rm (same sandbox) at p50: ${ratio.toFixed(2)}x   goal <= 0.90x   ${ratio <= 0.9 ? 'met' : 'NOT MET'}`);
    console.log(`  ratio runner / docker run --rm (plain)        at p50: ${(mine / plain).toFixed(2)}x`);
  } finally {
    await runner.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
