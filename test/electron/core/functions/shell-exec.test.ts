/**
 * core.shellExec against a real dockerd: the busybox image built FROM scratch (test/helpers/docker.ts),
 * the workspace mounted read-only, no network, hostile command lines. Without Docker the engine
 * tests are skipped by name (CI=true runs them); the command-line rules run everywhere.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Dockerode from 'dockerode';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { createContainerRunner, type ContainerRunner } from '../../../../electron/core/tool-types/container/runner.js';
import { shellExecFunction, type ShellExecValue } from '../../../../electron/core/functions/shell/shell-exec.js';
import { parseCommand } from '../../../../electron/core/functions/shell/command-line.js';
import { SHELL_DEFAULTS } from '../../../../shared/core-tools.js';
import { DEFAULT_CONFIG, type Config } from '../../../../shared/schemas.js';
import { dockerTestsEnabled, ensureBusyboxImage, leftoverContainers, BUSYBOX_IMAGE } from '../../../helpers/docker.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema, functionTool, noSecrets } from '../../../helpers/functions-context.js';
import type { Runner } from '../../../../electron/core/invoke/types.js';

const dockerOn = await dockerTestsEnabled();
const ALLOWED = [...SHELL_DEFAULTS.allowedCommands];

describe('the command line (seed syntax restrictions)', () => {
  it('splits words as a shell would, quotes and escapes included', () => {
    expect(parseCommand(`grep -rn "TODO: fix" 'src dir' a\\ b`, ALLOWED)).toEqual(['grep', '-rn', 'TODO: fix', 'src dir', 'a b']);
    expect(parseCommand(`echo '$HOME' "*.txt"`, ALLOWED)).toEqual(['echo', '$HOME', '*.txt']);
  });

  it.each([
    ['ls | sh', 'a pipe'],
    ['ls; rm -rf /', 'a list (;)'],
    ['ls && id', 'a list (&&)'],
    ['ls || id', 'a list (||)'],
    ['sleep 100 &', 'a background job'],
    ['cat < /etc/shadow', 'a redirection (<)'],
    ['echo x > /workspace/f', 'a redirection (>)'],
    ['echo $(id)', 'a variable or command substitution'],
    ['echo "$(id)"', 'a variable or command substitution'],
    ['echo `id`', 'command substitution (`…`)'],
    ['echo $HOME', 'a variable'],
    ['echo ${PATH}', 'a variable'],
    ['ls *.txt', 'an unquoted wildcard'],
    ['ls\nid', 'several lines'],
    ['echo hi # rm -rf /', 'a comment'],
    ['cat <(ls)', 'process substitution'],
    ['find . -exec sh -c id \\;', 'find -exec, which starts other programs'],
    ['find . -execdir id +', 'find -execdir'],
    ['/bin/sh -c id', 'a path to a program'],
    ['./ls', 'a path to a program'],
  ])('refuses %j', (command, why) => {
    let error: unknown;
    try {
      parseCommand(command, ALLOWED);
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string })?.code).toBe('INVALID_ARGS');
    expect((error as Error).message).toContain(why);
  });

  it.each(['sh -c id', 'bash', 'rm -rf /workspace', 'curl http://x', 'env id', 'X=1 ls', 'xargs id', `awk 'BEGIN{system("id")}'`])(
    'refuses %j: not an allowed command',
    (command) => {
      let error: unknown;
      try {
        parseCommand(command, ALLOWED);
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string })?.code).toBe('FORBIDDEN');
      expect((error as Error).message).toMatch(/is not an allowed command; allowed are basename, cat/);
    },
  );
});

describe('availability', () => {
  it('is unavailable without a container runner, and without Docker, saying why', () => {
    const bare = createFunctionRunner(createFunctionRegistry(), () => DEFAULT_CONFIG);
    expect(bare.availability(functionTool('core.shellExec'), '', noSecrets)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no container runner'),
    });
    const gone = createContainerRunner({ docker: new Dockerode({ socketPath: '/nonexistent/docker.sock' }) });
    const withGone = createFunctionRunner(createFunctionRegistry(), () => DEFAULT_CONFIG, { sandbox: () => gone.commands });
    expect(withGone.availability(functionTool('core.shellExec'), '', noSecrets)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^shell-exec runs commands in a container: Docker/),
    });
    expect(shellExecFunction.safety).toBe('privileged');
  });
});

describe.skipIf(!dockerOn)('core.shellExec on a real dockerd (requires Docker)', () => {
  let containers: ContainerRunner;
  let runner: Runner;
  let base: string;
  let root: string;
  let config: Config;

  beforeAll(async () => {
    const docker = new Dockerode();
    await ensureBusyboxImage(docker);
    containers = createContainerRunner({ docker });
    await containers.start();
    runner = createFunctionRunner(createFunctionRegistry(), () => config, { sandbox: () => containers.commands });
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'tw-shell-')));
    root = path.join(base, 'ws');
    await fsp.mkdir(path.join(root, 'src'), { recursive: true });
    await fsp.writeFile(path.join(root, 'src', 'a.txt'), 'one\ntwo TODO\nthree\n');
    await fsp.writeFile(path.join(root, 'my file.txt'), 'spaced\n');
    await fsp.writeFile(path.join(base, 'outside-secret.txt'), 'HOST-SECRET');
    await fsp.symlink(path.join(base, 'outside-secret.txt'), path.join(root, 'leak'));
    config = { ...DEFAULT_CONFIG, workspaceRoot: root, shell: { image: BUSYBOX_IMAGE, timeoutSeconds: 20 } };
  }, 120_000);

  afterAll(async () => {
    await runner?.close?.();
    await containers?.close();
    if (base) await fsp.rm(base, { recursive: true, force: true });
  });

  const exec = async (args: Record<string, unknown>, over: Partial<Config> = {}) => {
    const saved = config;
    config = { ...config, ...over };
    try {
      return (await runner.run(contextFor('core.shellExec', args, { config }))).value as ShellExecValue;
    } finally {
      config = saved;
    }
  };

  it('runs a command in the workspace, mounted read-only at /workspace, and answers exit code and output', async () => {
    expect(runner.availability(functionTool('core.shellExec'), '', noSecrets)).toEqual({ ok: true });
    const v = await exec({ command: 'grep -rn TODO .', cwd: 'src' });
    expectMatchesOutputSchema(shellExecFunction, v);
    expect(v).toMatchObject({ command: 'grep -rn TODO .', exitCode: 0, stdout: './a.txt:2:two TODO\n', stderr: '' });
    expect((await exec({ command: 'cat "my file.txt"' })).stdout).toBe('spaced\n');
    expect((await exec({ command: 'pwd' })).stdout).toBe('/workspace\n');
    const missing = await exec({ command: 'cat nope.txt' });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('nope.txt');
  }, 60_000);

  it('cannot write the workspace, reach the network, or read through a link to the host', async () => {
    config.shell = { ...config.shell, allowedCommands: [...ALLOWED, 'touch', 'wget', 'cat'] };
    const write = await exec({ command: 'touch /workspace/pwned' });
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toMatch(/Read-only file system/i);
    await expect(fsp.access(path.join(root, 'pwned'))).rejects.toThrow();
    const net = await exec({ command: 'wget -T 3 -q -O - http://1.1.1.1/' });
    expect(net.exitCode).not.toBe(0);
    const leak = await exec({ command: 'cat leak' });
    expect(leak.exitCode).not.toBe(0);
    expect(leak.stdout + leak.stderr).not.toContain('HOST-SECRET');
  }, 60_000);

  it('writes the workspace only when configured so, as the host user', async () => {
    const v = await exec({ command: 'touch made-here' }, { shell: { image: BUSYBOX_IMAGE, workspace: 'readWrite', allowedCommands: ['touch'] } });
    expect(v.exitCode).toBe(0);
    const st = await fsp.stat(path.join(root, 'made-here'));
    expect(st.uid).toBe(process.getuid!());
  }, 60_000);

  it('stops a command at its timeout and removes every container it made', async () => {
    const v = await exec({ command: 'sleep 30', timeoutSeconds: 1 });
    expect(v).toMatchObject({ exitCode: null, stopped: 'timeout' });
    expect(v.durationMs).toBeLessThan(15_000);
    expect(await leftoverContainers()).toEqual([]);
  }, 60_000);

  it('refuses before any container starts, and says when the image is missing', async () => {
    expect((await coreErrorOf(() => exec({ command: 'ls | sh' }))).code).toBe('INVALID_ARGS');
    expect((await coreErrorOf(() => exec({ command: 'rm -rf /' }))).code).toBe('FORBIDDEN');
    expect((await coreErrorOf(() => exec({ command: 'ls', cwd: '../' }))).code).toBe('FORBIDDEN');
    const missing = await coreErrorOf(() => exec({ command: 'ls' }, { shell: { image: 'toolwright-test/no-such-image:1' } }));
    expect(missing.code).toBe('TOOL_UNAVAILABLE');
    expect(missing.message).toContain('docker pull toolwright-test/no-such-image:1');
    config = { ...config, shell: { image: 'toolwright-test/no-such-image:1' } };
    expect(runner.availability(functionTool('core.shellExec'), '', noSecrets)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('is not on the Docker engine'),
    });
    config = { ...config, shell: { image: BUSYBOX_IMAGE, timeoutSeconds: 20 } };
  }, 60_000);
});
