/**
 * The container runner against a real dockerd: sandbox limits, output contract, builds,
 * cancellation and cleanup. Images come from test/fixtures/containers (FROM scratch + busybox).
 * Without Docker these tests are skipped by name; with CI=true they run and fail instead.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { CoreError } from '../../../../../electron/core/errors.js';
import { createContainerRunner, type ContainerRunner } from '../../../../../electron/core/tool-types/container/runner.js';
import { LABEL_DEADLINE, LABEL_INVOCATION, LABEL_MANAGED, LABEL_OWNER, LABEL_TOOL } from '../../../../../electron/core/tool-types/container/labels.js';
import { ownerLabel } from '../../../../../electron/core/tool-types/container/orphans.js';
import type { ContainerImpl } from '../../../../../shared/schemas.js';
import {
  containerTool,
  dockerAvailable,
  dockerCli,
  dockerTestsEnabled,
  ensureProbeImage,
  FIXTURES,
  leftoverContainers,
  removeImagesByLabel,
  runContext,
} from '../../../../helpers/docker.js';

const dockerOn = await dockerTestsEnabled();
/** Any image name will do where no engine is reached. */
const SOME_IMAGE = 'toolwright-test/probe:any';

async function failure(promise: Promise<unknown>): Promise<CoreError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error('expected the run to fail, it succeeded');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('container runner when Docker is not reachable', () => {
  it('reports the socket and the error in availability, and run() fails with TOOL_UNAVAILABLE', async () => {
    const socketPath = path.join(os.tmpdir(), `tw-no-docker-${process.pid}.sock`);
    const runner = createContainerRunner({ docker: new Dockerode({ socketPath }) });
    try {
      await runner.refreshDockerStatus();
      const tool = containerTool({ image: SOME_IMAGE });
      const availability = runner.availability(tool, FIXTURES, runContext(tool, {}).secrets);
      expect(availability.ok).toBe(false);
      expect(availability.reason).toContain(`Docker is not reachable at ${socketPath}`);
      expect(availability.reason).toMatch(/ENOENT|ECONNREFUSED/);
      const error = await failure(runner.run(runContext(tool, { mode: 'echo' })));
      expect(error.code).toBe('TOOL_UNAVAILABLE');
      expect(error.message).toContain(socketPath);
    } finally {
      await runner.close();
    }
  });

  it('honours DOCKER_HOST when built without a client', async () => {
    const port = await closedPort();
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `tcp://127.0.0.1:${port}`;
    const runner = createContainerRunner();
    try {
      const status = await runner.refreshDockerStatus();
      expect(status.ok).toBe(false);
      expect(status.endpoint).toBe(`tcp://127.0.0.1:${port}`);
      expect(status.reason).toContain(`Docker is not reachable at tcp://127.0.0.1:${port}: `);
      const error = await failure(runner.run(runContext(containerTool({ image: SOME_IMAGE }), {})));
      expect(error.code).toBe('TOOL_UNAVAILABLE');
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
      await runner.close();
    }
  });

  it('a malformed DOCKER_HOST makes container tools unavailable instead of throwing', async () => {
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'tcp://[not a host';
    try {
      const runner = createContainerRunner();
      const tool = containerTool({ image: SOME_IMAGE });
      // The client is built on the first probe (dockerode loads then); the host probes at start.
      expect((await runner.refreshDockerStatus()).ok).toBe(false);
      const availability = runner.availability(tool, FIXTURES, runContext(tool, {}).secrets);
      expect(availability.ok).toBe(false);
      expect(availability.reason).toContain('DOCKER_HOST');
      expect((await failure(runner.run(runContext(tool, {})))).code).toBe('TOOL_UNAVAILABLE');
      await runner.close();
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });
});

describe.skipIf(!dockerOn)('container runner on a real dockerd (requires Docker)', () => {
  const docker = new Dockerode();
  let runner: ContainerRunner;
  let probeImage = '';
  const builtToolIDs: string[] = [];
  const scratchDirs: string[] = [];

  const probe = (impl: Partial<ContainerImpl> = {}) => containerTool({ image: probeImage, ...impl });

  async function scratchToolDir(fixture: string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tw-container-tool-'));
    scratchDirs.push(dir);
    await cp(path.join(FIXTURES, fixture), dir, { recursive: true });
    await writeFile(path.join(dir, 'tool.json'), '{"note":"excluded from the build context"}\n');
    return dir;
  }

  function builtTool(): ReturnType<typeof containerTool> {
    const tool = containerTool({ build: '.' });
    builtToolIDs.push(tool.toolID);
    return tool;
  }

  let setupError: unknown;

  beforeAll(async () => {
    try {
      if (!(await dockerAvailable(docker))) {
        throw new Error('CI=true but no Docker engine answers at /var/run/docker.sock (or DOCKER_HOST): install docker.io and start dockerd before the tests.');
      }
      probeImage = await ensureProbeImage(docker);
      runner = createContainerRunner({ docker });
      expect((await runner.refreshDockerStatus()).ok).toBe(true);
    } catch (error) {
      // Fail every test by name rather than skipping them all under one setup error.
      setupError = error;
    }
  });

  beforeEach(() => {
    if (setupError) throw setupError;
  });

  afterEach(async () => {
    if (setupError) return;
    // Every test, whatever it did, must leave no container of ours behind (other test files may run containers meanwhile).
    expect(await leftoverContainers(`${LABEL_OWNER}=${ownerLabel()}`)).toEqual([]);
  });

  afterAll(async () => {
    await runner?.close();
    for (const toolID of builtToolIDs) await removeImagesByLabel(docker, `${LABEL_TOOL}=${toolID}`);
    for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
  });

  it('runs a tool: payload in, one JSON object out as value and card', async () => {
    const tool = probe();
    const ctx = runContext(tool, { mode: 'echo', city: 'Zürich "quoted" \n newline' });
    const output = await runner.run(ctx);
    const value = output.value as { title: string; text: string; html: string };
    expect(value.title).toBe('Echo');
    expect(output.card).toEqual({ title: 'Echo', html: '<b>echoed</b>', text: value.text });
    const payload = JSON.parse(Buffer.from(value.text, 'base64').toString('utf8'));
    expect(payload.params).toEqual({ mode: 'echo', city: 'Zürich "quoted" \n newline' });
    expect(payload.settings).toEqual({});
    expect(payload.telemetry).toMatchObject({ invocationID: ctx.invocationID, toolID: tool.toolID, bundleID: tool.bundleID });
    expect(runner.availability(tool, FIXTURES, ctx.secrets)).toEqual({ ok: true });
  });

  it('turns the error field of the JSON into an error with the tool message', async () => {
    const error = await failure(runner.run(runContext(probe(), { mode: 'error' })));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toBe('city not found: Atlantis');
    expect(error.details?.kind).toBe('tool-error');
  });

  it('reports a non-zero exit with the tail of stderr, terminal escapes removed', async () => {
    const error = await failure(runner.run(runContext(probe(), { mode: 'exit' })));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.details).toMatchObject({ kind: 'exit-code', exitCode: 3 });
    expect(error.message).toContain('exited with code 3');
    expect(error.message).toContain('fatal: the thing broke');
    expect(error.message).not.toContain('\u001b');
  });

  it('kills a container that outlives its timeout', async () => {
    const error = await failure(runner.run(runContext(probe({ timeoutSeconds: 1 }), { mode: 'sleep' })));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('within 1 s');
  });

  it('cancellation kills and removes the running container', async () => {
    const controller = new AbortController();
    const ctx = runContext(probe(), { mode: 'sleep' }, { signal: controller.signal });
    const pending = runner.run(ctx);
    // Wait until the container is really running, then cancel.
    for (let i = 0; i < 200; i++) {
      const running = await dockerCli(['ps', '--quiet', '--filter', `label=${LABEL_INVOCATION}=${ctx.invocationID}`, '--filter', 'status=running']);
      if (running.trim()) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe('CANCELLED');
  });

  it('caps memory: a process allocating beyond it is killed and reported as out of memory', async () => {
    const error = await failure(runner.run(runContext(probe({ sandbox: { memory: 32 } }), { mode: 'memory' })));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.details?.kind).toBe('out-of-memory');
    expect(error.message).toContain('ran out of memory (limit 32 MB)');
  });

  it('caps processes: a fork bomb stops at the pids limit', async () => {
    const output = await runner.run(runContext(probe(), { mode: 'forkbomb' }));
    const match = /started=(\d+) running=(\d+)/.exec((output.value as { text: string }).text);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeLessThan(1000);
    expect(Number(match![2])).toBeLessThanOrEqual(64);
  });

  it('has no network but loopback by default, and a bridge when the tool asks for one', async () => {
    const isolated = await runner.run(runContext(probe(), { mode: 'network' }));
    expect((isolated.value as { text: string }).text).toBe('/sys/class/net/lo');
    const bridged = await runner.run(runContext(probe({ sandbox: { network: 'bridge' } }), { mode: 'network' }));
    expect((bridged.value as { text: string }).text).toContain('/sys/class/net/eth0');
  });

  it('mounts the root read-only with a writable, non-executable /tmp unless the tool asks for writable', async () => {
    const locked = await runner.run(runContext(probe(), { mode: 'filesystem' }));
    expect((locked.value as { text: string }).text).toBe('root=readonly tmp=writable tmpexec=no');
    const writable = await runner.run(runContext(probe({ sandbox: { writable: true } }), { mode: 'filesystem' }));
    expect((writable.value as { text: string }).text).toBe('root=writable tmp=writable tmpexec=yes');
  });

  it('runs as nobody when the image declares no user', async () => {
    const output = await runner.run(runContext(probe(), { mode: 'user' }));
    expect((output.value as { text: string }).text).toBe('uid=65534');
  });

  it.each([
    ['flood', 'stdout'],
    ['flood-stderr', 'stderr'],
  ])('kills a container that floods %s at the 100 KB cap', async (mode, stream) => {
    const error = await failure(runner.run(runContext(probe({ timeoutSeconds: 30 }), { mode })));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.details?.kind).toBe('output-cap');
    expect(error.message).toContain(`more than 100 KB to ${stream}`);
  });

  it('answers with the last stdout line that is a JSON object', async () => {
    const output = await runner.run(runContext(probe(), { mode: 'several' }));
    expect(output.value).toEqual({ text: 'two' });
  });

  it('streams stdout line by line while the container runs; the last JSON line is still the answer', async () => {
    const seen: { text: string; settled: boolean }[] = [];
    let settled = false;
    const pending = runner.run(runContext(probe(), { mode: 'stream' }, { emit: (e) => e.type === 'chunk' && seen.push({ text: e.text, settled }) }));
    const output = await pending.finally(() => (settled = true));
    expect(seen.map((s) => s.text)).toEqual(['step 1 of 3\n', 'step 2 of 3\n', 'step 3 of 3\n', '{"text":"streamed"}\n']);
    // Each line arrived before the run ended, not all at once afterwards.
    expect(seen.every((s) => !s.settled)).toBe(true);
    expect(output.value).toEqual({ text: 'streamed' });
  });

  it('cancelled mid-stream: output stops and the container is gone', async () => {
    const controller = new AbortController();
    const ticks: string[] = [];
    let reached!: () => void;
    const third = new Promise<void>((resolve) => (reached = resolve));
    const ctx = runContext(
      probe({ timeoutSeconds: 60 }),
      { mode: 'ticker' },
      {
        signal: controller.signal,
        emit: (e) => {
          if (e.type !== 'chunk') return;
          ticks.push(e.text);
          if (ticks.length === 3) reached();
        },
      },
    );
    const pending = runner.run(ctx);
    await third;
    controller.abort();
    expect((await failure(pending)).code).toBe('CANCELLED');
    const after = ticks.length;
    expect(await dockerCli(['ps', '-a', '--quiet', '--filter', `label=${LABEL_INVOCATION}=${ctx.invocationID}`])).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ticks.length).toBe(after);
    expect(ticks[0]).toBe('tick 1\n');
  });

  it.each([
    ['garbage', /stdout is not JSON.*this is not json/],
    ['array', /printed an array, not an object/],
    ['bad-field', /"title" is object, it must be a string/],
    ['silent', /printed nothing on stdout/],
  ])('refuses output that breaks the contract: %s', async (mode, message) => {
    const error = await failure(runner.run(runContext(probe(), { mode })));
    expect(error.code).toBe('INVALID_OUTPUT');
    expect(error.details?.kind).toBe('bad-output');
    expect(error.message).toMatch(message);
  });

  it('refuses arguments too large for the command line before creating anything', async () => {
    const error = await failure(runner.run(runContext(probe(), { mode: 'echo', blob: 'x'.repeat(200 * 1024) })));
    expect(error.code).toBe('INVALID_ARGS');
    expect(error.message).toContain('too large for a container tool');
  });

  it('reports an image that is not there as unavailable, in run() and then in availability()', async () => {
    const tool = containerTool({ image: 'toolwright-test/does-not-exist:1' });
    const error = await failure(runner.run(runContext(tool, {})));
    expect(error.code).toBe('TOOL_UNAVAILABLE');
    expect(error.message).toContain('toolwright-test/does-not-exist:1" is not present');
    expect(runner.availability(tool, FIXTURES, runContext(tool, {}).secrets)).toMatchObject({ ok: false });
  });

  it('builds a tool folder once, rebuilds when a build file changes, not when tool.json does', async () => {
    const dir = await scratchToolDir('buildable');
    const tool = builtTool();
    const run = async () => {
      const progress: string[] = [];
      const output = await runner.run(runContext(tool, {}, { toolDir: dir, onProgress: (line) => progress.push(line) }));
      return { text: (output.value as { text: string }).text, built: progress.some((line) => line.startsWith('Building image')), progress };
    };

    const first = await run();
    expect(first).toMatchObject({ text: 'v1', built: true });
    expect(first.progress.some((line) => /Step \d+\/\d+/.test(line))).toBe(true);

    await writeFile(path.join(dir, 'tool.json'), '{"note":"edited metadata"}\n');
    expect(await run()).toMatchObject({ text: 'v1', built: false });

    // A fresh runner (a restarted app) finds the image by its tag instead of building again.
    const restarted = createContainerRunner({ docker });
    try {
      const progress: string[] = [];
      await restarted.run(runContext(tool, {}, { toolDir: dir, onProgress: (line) => progress.push(line) }));
      expect(progress.filter((line) => line.startsWith('Building image'))).toEqual([]);
    } finally {
      await restarted.close();
    }

    await writeFile(path.join(dir, 'reply.txt'), 'v2\n');
    expect(await run()).toMatchObject({ text: 'v2', built: true });
  });

  it('shares one build between concurrent runs of the same tool', async () => {
    const dir = await scratchToolDir('buildable');
    await writeFile(path.join(dir, 'reply.txt'), `concurrent-${uuidv7()}\n`);
    const tool = builtTool();
    // Count the builds the engine is asked for (every run that joins a build also gets its log).
    const counted = new Dockerode();
    let builds = 0;
    const buildImage = counted.buildImage.bind(counted);
    counted.buildImage = ((...args: Parameters<typeof buildImage>) => {
      builds++;
      return buildImage(...args);
    }) as typeof counted.buildImage;
    const sharing = createContainerRunner({ docker: counted });
    try {
      const logs: string[][] = [[], [], []];
      const outputs = await Promise.all(logs.map((log) => sharing.run(runContext(tool, {}, { toolDir: dir, onProgress: (line) => log.push(line) }))));
      expect(new Set(outputs.map((o) => (o.value as { text: string }).text)).size).toBe(1);
      expect(builds).toBe(1);
      expect(logs.filter((log) => log.some((line) => line.startsWith('Joining the build of'))).length).toBe(2);
    } finally {
      await sharing.close();
    }
  });

  it('keeps symbolic links out of the build context, so no file outside the tool folder leaks into the image', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'tw-outside-'));
    scratchDirs.push(outside);
    const secret = `host-secret-${uuidv7()}`;
    await writeFile(path.join(outside, 'secret.txt'), secret);
    await mkdir(path.join(outside, 'dir'));
    await writeFile(path.join(outside, 'dir', 'inner.txt'), secret);
    const dir = await scratchToolDir('context-probe');
    await writeFile(path.join(dir, 'inside.txt'), 'inside-ok');
    await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'leak-file'));
    await symlink(path.join(outside, 'dir'), path.join(dir, 'leak-dir'));
    await symlink('/etc/hostname', path.join(dir, 'leak-absolute'));
    await symlink('../../../../../../etc/passwd', path.join(dir, 'leak-relative'));

    const progress: string[] = [];
    const output = await runner.run(runContext(builtTool(), {}, { toolDir: dir, onProgress: (line) => progress.push(line) }));
    const { text: names, html: contents } = output.value as { text: string; html: string };
    expect(names).toContain('./inside.txt');
    expect(names).not.toContain('leak');
    expect(names).not.toContain('tool.json');
    expect(contents).toContain('inside-ok');
    expect(contents).not.toContain(secret);
    expect(contents).not.toContain('root:');
    expect(progress.filter((line) => line.includes('symbolic link, not followed'))).toHaveLength(4);
  });

  it('reports a Dockerfile that fails to build with the build error and the end of its log', async () => {
    const dir = await scratchToolDir('buildable');
    await writeFile(path.join(dir, 'Dockerfile'), 'FROM toolwright-test/busybox:1\nRUN echo preparing && exit 7\n');
    const progress: string[] = [];
    const error = await failure(runner.run(runContext(builtTool(), {}, { toolDir: dir, onProgress: (line) => progress.push(line) })));
    expect(error.code).toBe('TOOL_UNAVAILABLE');
    expect(error.message).toContain('Building the image of this tool failed');
    expect(error.message).toContain('returned a non-zero code: 7');
    expect(String(error.details?.buildLog)).toContain('preparing');
    expect(progress).toContain('preparing');
  });

  it('reports a folder without a Dockerfile as unavailable', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tw-no-dockerfile-'));
    scratchDirs.push(dir);
    const tool = builtTool();
    expect(runner.availability(tool, dir, runContext(tool, {}).secrets)).toMatchObject({ ok: false, reason: expect.stringContaining('no Dockerfile') });
    const error = await failure(runner.run(runContext(tool, {}, { toolDir: dir })));
    expect(error.code).toBe('TOOL_UNAVAILABLE');
  });

  it('sweepOrphans removes containers of a dead owner or past their deadline, and keeps live ones', async () => {
    const deadPid = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    const future = String(Date.now() + 3_600_000);
    const make = (owner: string, deadline: string) =>
      docker.createContainer({
        Image: probeImage,
        Cmd: ['x'],
        Labels: { [LABEL_MANAGED]: 'true', [LABEL_OWNER]: owner, [LABEL_DEADLINE]: deadline },
        HostConfig: { NetworkMode: 'none' },
      });
    const deadOwner = await make(`${os.hostname()}/${deadPid}`, future);
    const pastDeadline = await make('elsewhere.example/1', String(Date.now() - 1000));
    const liveOwner = await make(`${os.hostname()}/${process.pid}`, future);
    const otherHost = await make('elsewhere.example/1', future);
    try {
      const result = await runner.sweepOrphans();
      expect(result.failed).toEqual([]);
      const made = new Set([deadOwner, pastDeadline, liveOwner, otherHost].map((c) => c.id));
      // Test files running beside this one may leave real orphans (a killed CLI's container): those go too, and are not ours to count.
      expect(result.removed.filter((id) => made.has(id)).sort()).toEqual([deadOwner.id, pastDeadline.id].sort());
      const remaining = (await leftoverContainers()).filter((id) => made.has(id));
      expect(remaining.sort()).toEqual([liveOwner.id, otherHost.id].sort());
    } finally {
      for (const c of [deadOwner, pastDeadline, liveOwner, otherHost]) await c.remove({ force: true }).catch(() => undefined);
    }
  });

  it('leaves no container behind after all of the above', async () => {
    expect(await dockerCli(['ps', '-a', '--quiet', '--filter', `label=${LABEL_MANAGED}=true`, '--filter', `label=${LABEL_OWNER}=${ownerLabel()}`])).toBe('');
  });
});
