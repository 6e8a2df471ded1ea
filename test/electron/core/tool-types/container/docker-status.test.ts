/**
 * The Docker probe on a busy process: a host starting under load blocks its event loop for
 * seconds (modules loading, the search index building); a healthy engine must not be declared
 * unreachable for that, while an engine that does not answer still is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import Dockerode from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import { DockerStatus } from '../../../../../electron/core/tool-types/container/docker-status.js';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/**
 * A stand-in engine in a process of its own (so it answers while this one is blocked): `/info`
 * answered after `delayMs`, or never.
 */
async function engine(delayMs: number | 'never'): Promise<Dockerode> {
  const script = `
    const delay = ${JSON.stringify(delayMs)};
    const server = require('node:http').createServer((req, res) => {
      if (delay === 'never') return;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ NCPU: 3, ServerVersion: '27.0.0' })), delay);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return new Dockerode({ host: '127.0.0.1', port: Number(chunk.toString().trim()), protocol: 'http' });
}

function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // this process is busy: the engine is not the one keeping it waiting
  }
}

describe('the Docker probe', () => {
  it('hears an engine that answered while this process was busy for longer than the probe waits', async () => {
    const docker = await engine(150);
    const status = new DockerStatus(() => Promise.resolve(docker), 60_000, docker, undefined, 300);
    const probe = status.refresh();
    // Let the request go out, then stall the loop past the probe's 300 ms; the answer comes meanwhile.
    // (Blocked from the check phase: the next turn runs its timers before it reads the socket.)
    await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setImmediate(r));
    blockFor(1000);
    const snapshot = await probe;
    expect(snapshot.reason).toBeUndefined();
    expect(snapshot).toMatchObject({ ok: true, cpus: 3, serverVersion: '27.0.0' });
  });

  it('hears it too when the stall comes before the request is even sent', async () => {
    const docker = await engine(20);
    const status = new DockerStatus(() => Promise.resolve(docker), 60_000, docker, undefined, 300);
    const probe = status.refresh();
    // The probe's clock is running; the request waits for the loop.
    await new Promise((r) => setImmediate(r));
    blockFor(1000);
    expect((await probe).ok).toBe(true);
  });

  it('still gives up on an engine that does not answer, and says so', async () => {
    const docker = await engine('never');
    const status = new DockerStatus(() => Promise.resolve(docker), 60_000, docker, undefined, 300);
    const snapshot = await status.refresh();
    expect(snapshot.ok).toBe(false);
    expect(snapshot.reason).toMatch(/^Docker is not reachable at tcp:\/\/127\.0\.0\.1:\d+: no answer within 0\.3 s\./);
  });
});
