/**
 * Docker for tests and benchmarks: whether an engine is there, and the test images, built
 * FROM scratch with the host's static busybox because no registry is reachable in CI.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Dockerode from 'dockerode';
import tar from 'tar-stream';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_CONFIG, type ContainerImpl, type ToolFile } from '../../shared/schemas.js';
import type { RunContext } from '../../electron/core/invoke/types.js';
import type { SecretsReader } from '../../electron/core/secrets/types.js';
import { contextTar, readBuildContext } from '../../electron/core/tool-types/container/build-context.js';
import { LABEL_MANAGED } from '../../electron/core/tool-types/container/labels.js';

const run = promisify(execFile);

export const BUSYBOX_IMAGE = 'toolwright-test/busybox:1';
export const FIXTURES = fileURLToPath(new URL('../fixtures/containers/', import.meta.url));
/** Label put on everything the tests create beyond the runner's own labels. */
export const TEST_LABEL = 'io.toolwright.test';

const BUSYBOX_CANDIDATES = ['/bin/busybox', '/usr/bin/busybox'];

/** True when an engine answers within two seconds. */
export async function dockerAvailable(docker = new Dockerode()): Promise<boolean> {
  try {
    await Promise.race([docker.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether Docker tests run: always in CI (CI=true), where a missing engine must fail them;
 * elsewhere only when an engine is reachable, and otherwise they are skipped by name.
 */
export async function dockerTestsEnabled(): Promise<boolean> {
  if (process.env.CI === 'true') return true;
  return dockerAvailable();
}

function findBusybox(): string {
  const found = BUSYBOX_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`No busybox at ${BUSYBOX_CANDIDATES.join(' or ')}; install Debian's busybox-static (apt-get install -y busybox-static).`);
  return found;
}

async function imageExists(docker: Dockerode, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect();
    return true;
  } catch {
    return false;
  }
}

async function buildFrom(docker: Dockerode, context: NodeJS.ReadableStream, tag: string): Promise<void> {
  const stream = await docker.buildImage(context, { t: tag, rm: true, forcerm: true, labels: { [TEST_LABEL]: 'true' } });
  const events = await new Promise<{ error?: string; stream?: string }[]>((resolve, reject) => {
    docker.modem.followProgress(stream, (error, output) => (error ? reject(error) : resolve(output as { error?: string }[])));
  });
  const failure = events.find((e) => e.error);
  if (failure) throw new Error(`Building ${tag} failed: ${failure.error}\n${events.map((e) => e.stream ?? '').join('')}`);
}

/** toolwright-test/busybox:1 — scratch plus busybox and its applet links. */
export async function ensureBusyboxImage(docker: Dockerode): Promise<string> {
  if (await imageExists(docker, BUSYBOX_IMAGE)) return BUSYBOX_IMAGE;
  const pack = tar.pack();
  pack.entry(
    { name: 'Dockerfile', mode: 0o644 },
    ['FROM scratch', 'COPY busybox /bin/busybox', 'RUN ["/bin/busybox", "--install", "-s", "/bin"]', 'CMD ["/bin/sh"]', ''].join('\n'),
  );
  pack.entry({ name: 'busybox', mode: 0o755 }, readFileSync(findBusybox()));
  pack.finalize();
  await buildFrom(docker, pack as unknown as NodeJS.ReadableStream, BUSYBOX_IMAGE);
  return BUSYBOX_IMAGE;
}

/** Debian's statically linked shells (bash-static, zsh-static), for images that must have a real bash or zsh. */
const STATIC_SHELLS = { bash: '/bin/bash-static', zsh: '/bin/zsh-static' } as const;

/**
 * toolwright-test/<shell>:1 — the busybox image plus a real bash or zsh at /bin/<shell>, from
 * Debian's bash-static or zsh-static (apt-get install -y bash-static zsh-static).
 */
export async function ensureShellImage(docker: Dockerode, shell: keyof typeof STATIC_SHELLS): Promise<string> {
  const tag = `toolwright-test/${shell}:1`;
  if (await imageExists(docker, tag)) return tag;
  await ensureBusyboxImage(docker);
  const binary = STATIC_SHELLS[shell];
  if (!existsSync(binary)) throw new Error(`No ${binary}; install Debian's ${shell}-static (apt-get install -y ${shell}-static).`);
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile', mode: 0o644 }, [`FROM ${BUSYBOX_IMAGE}`, `COPY ${shell} /bin/${shell}`, ''].join('\n'));
  pack.entry({ name: shell, mode: 0o755 }, readFileSync(binary));
  pack.finalize();
  await buildFrom(docker, pack as unknown as NodeJS.ReadableStream, tag);
  return tag;
}

/**
 * Builds a folder of test/fixtures/containers (on top of the busybox image) as
 * `toolwright-test/<fixture>:<hash of the folder>`, unless that tag exists: editing a fixture
 * gives a new image, an unchanged one is reused between runs.
 */
export async function ensureFixtureImage(docker: Dockerode, fixture: string): Promise<string> {
  await ensureBusyboxImage(docker);
  const context = await readBuildContext(path.join(FIXTURES, fixture));
  const tag = `toolwright-test/${fixture}:${context.hash.slice(0, 12)}`;
  if (await imageExists(docker, tag)) return tag;
  await buildFrom(docker, contextTar(context), tag);
  return tag;
}

/** The image of test/fixtures/containers/probe: one test tool, behaviour picked by params.mode. */
export async function ensureProbeImage(docker: Dockerode): Promise<string> {
  return ensureFixtureImage(docker, 'probe');
}

/** The docker CLI, as a person would use it (e.g. `docker ps -a --filter label=...`). */
export async function dockerCli(args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** IDs of containers the runner created that still exist, found by label with the CLI. */
export async function leftoverContainers(label = `${LABEL_MANAGED}=true`): Promise<string[]> {
  const out = await dockerCli(['ps', '-a', '--quiet', '--no-trunc', '--filter', `label=${label}`]);
  return out.split('\n').filter(Boolean);
}

/** Removes images carrying a label (e.g. the builds of one test tool). */
export async function removeImagesByLabel(docker: Dockerode, label: string): Promise<void> {
  const images = await docker.listImages({ filters: { label: [label] } });
  for (const image of images)
    await docker
      .getImage(image.Id)
      .remove({ force: true })
      .catch(() => undefined);
}

/** A container tool.json as the store would hand it to the runner. */
export function containerTool(impl: ContainerImpl, toolID: string = uuidv7()): ToolFile {
  const now = new Date().toISOString();
  return {
    schemaVersion: '1',
    toolID,
    bundleID: '01900000-0000-7000-8000-0000000000b1',
    slug: 'probe',
    version: 'v1',
    displayName: 'Probe',
    description: 'A test container tool',
    type: 'container',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: {},
    outputSchema: {},
    impl,
    card: { enabled: true },
    limits: {},
    createdAt: now,
    modifiedAt: now,
  };
}

const noSecrets: SecretsReader = { get: () => undefined, has: () => false, values: () => [] };

export function runContext(tool: ToolFile, args: Record<string, unknown>, extra: Partial<RunContext> = {}): RunContext {
  return {
    invocationID: `test-${uuidv7()}`,
    tool,
    toolDir: FIXTURES,
    args,
    config: DEFAULT_CONFIG,
    secrets: noSecrets,
    signal: new AbortController().signal,
    ...extra,
  };
}
