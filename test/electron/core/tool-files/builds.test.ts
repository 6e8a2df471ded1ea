/**
 * Building a container tool written in the app (POST …/build) against a real dockerd: the log
 * streams over the REST event stream (GET /tools/events) while the build runs, the answer names
 * the image and its size, the tool then runs; a failing build names its step. Images start FROM
 * the test busybox image (no registry here). Skipped without Docker, except in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, removeImagesByLabel } from '../../../helpers/docker.js';
import { LABEL_TOOL } from '../../../../electron/core/tool-types/container/labels.js';
import type { StoreEvent } from '../../../../shared/operations.js';
import type { BuildResult } from '../../../../shared/types.js';

const dockerOn = await dockerTestsEnabled();
const docker = new Dockerode();

let h: TestHost;
let bundleID: string;
const toolIDs: string[] = [];
/** Every store event the REST stream delivered, and markers the test puts in between. */
const seen: (StoreEvent | { type: 'marker'; name: string })[] = [];
let stopStream: AbortController;

async function followEvents(): Promise<void> {
  stopStream = new AbortController();
  const res = await fetch(`${h.url}/tools/events`, { headers: { authorization: `Bearer ${h.token}` }, signal: stopStream.signal });
  const reader = res.body!.getReader();
  void (async () => {
    let buffer = '';
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) seen.push(JSON.parse(data) as StoreEvent);
        }
      }
    } catch {
      // aborted at the end
    }
  })();
}

async function containerTool(slug: string, files: Record<string, string>): Promise<string> {
  const base = `/tools/bundles/${bundleID}/tools/${slug}/version/v1`;
  const put = await h.api('PUT', base, {
    type: 'container',
    displayName: slug,
    impl: { build: '.', timeoutSeconds: 20 },
    argSchema: { type: 'object', properties: { name: { type: 'string' } } },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
  toolIDs.push(put.body.toolID);
  for (const [path, content] of Object.entries(files)) {
    const w = await h.api('PUT', `${base}/files/content?path=${encodeURIComponent(path)}`, { content });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
  }
  return base;
}

async function build(base: string, body: Record<string, unknown>): Promise<BuildResult> {
  const r = await h.api('POST', `${base}/build`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as BuildResult;
}

const logOf = (buildID: string) => seen.flatMap((e) => (e.type === 'build.log' && e.buildID === buildID ? e.lines : []));

const RUNNER = `#!/bin/sh
payload=$(printf '%s' "$1" | base64 -d)
name=$(printf '%s' "$payload" | sed -n 's/.*"name":"\\([^"]*\\)".*/\\1/p')
printf '{"text":"hello %s"}\\n' "$name"
`;

describe.skipIf(!dockerOn)('building a container tool written in the app', () => {
  beforeAll(async () => {
    await ensureBusyboxImage(docker);
    h = await startHost();
    bundleID = uuidv7();
    await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'builds', displayName: 'Builds' });
    await followEvents();
  });
  afterAll(async () => {
    stopStream?.abort();
    await h?.close();
    for (const id of toolIDs) await removeImagesByLabel(docker, `${LABEL_TOOL}=${id}`);
  });

  it('streams the log while it builds, answers the image and its size, and the tool then runs', async () => {
    const base = await containerTool('hello', {
      Dockerfile: `FROM ${BUSYBOX_IMAGE}\nCOPY run.sh /tool/run.sh\nRUN echo preparing && sleep 1\nENTRYPOINT ["/bin/sh", "/tool/run.sh"]\n`,
      'run.sh': RUNNER,
    });
    const before = await h.api('GET', `${base}/image`);
    expect(before.body).toMatchObject({ source: 'build', image: null, upToDate: false });
    expect(before.body.ref).toMatch(/^toolwright\/tool-[0-9a-f-]+:[0-9a-f]{20}$/);

    const buildID = 'first-build';
    const answer = build(base, { buildID }).then((r) => {
      seen.push({ type: 'marker', name: 'answered' });
      return r;
    });
    const result = await answer;
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.image).toMatchObject({ ref: before.body.ref, built: true });
    expect(result.image!.sizeBytes).toBeGreaterThan(100_000); // busybox alone is ~2 MB
    const log = logOf(buildID);
    expect(log.join('\n')).toMatch(/Step 1\/\d+ : FROM toolwright-test\/busybox:1/);
    expect(log.join('\n')).toMatch(/preparing/);
    // Streamed: the first lines arrived before the answer did, and the end was announced.
    const firstLog = seen.findIndex((e) => e.type === 'build.log' && e.buildID === buildID);
    const answered = seen.findIndex((e) => e.type === 'marker' && e.name === 'answered');
    expect(firstLog).toBeGreaterThanOrEqual(0);
    expect(firstLog).toBeLessThan(answered);
    await expect.poll(() => seen.some((e) => e.type === 'build.finished' && e.buildID === buildID && e.ok)).toBe(true);

    const image = await h.api('GET', `${base}/image`);
    expect(image.body).toMatchObject({ upToDate: true, image: { ref: before.body.ref, sizeBytes: result.image!.sizeBytes } });
    const run = await h.api('POST', `${base}/invoke`, { args: { name: 'Ada' } });
    expect(run.body, JSON.stringify(run.body)).toMatchObject({ ok: true, value: { text: 'hello Ada' } });

    // Unchanged files: the image is reused, and the log says so.
    const again = await build(base, { buildID: 'again' });
    expect(again).toMatchObject({ ok: true, image: { ref: before.body.ref, built: false } });
    await expect.poll(() => logOf('again').join('\n')).toMatch(/already built/);

    // An edited runner: the image no longer matches the files, and the last build is still named.
    await h.api('PUT', `${base}/files/content?path=run.sh`, { content: RUNNER.replace('hello', 'hi') });
    const stale = await h.api('GET', `${base}/image`);
    expect(stale.body.upToDate).toBe(false);
    expect(stale.body.image.ref).toBe(before.body.ref);
    expect(stale.body.ref).not.toBe(before.body.ref);
  });

  it('a failing build answers ok:false with the failing step and the log, and keeps the previous image', async () => {
    const base = await containerTool('broken', {
      Dockerfile: `FROM ${BUSYBOX_IMAGE}\nRUN echo about to fail\nRUN echo oops >&2 && exit 3\nCMD ["/bin/true"]\n`,
    });
    const result = await build(base, { buildID: 'broken-build' });
    expect(result.ok).toBe(false);
    // Docker counts the LABEL steps it adds for the labels Toolwright puts on its images.
    expect(result.error!.step).toMatchObject({ index: 3, instruction: 'RUN echo oops >&2 && exit 3' });
    expect(result.error!.message).toMatch(/step 3\/\d+ \(RUN echo oops >&2 && exit 3\).*non-zero code: 3/);
    expect(result.error!.reason).toMatch(/^The command '\/bin\/sh -c echo oops >&2 && exit 3' returned a non-zero code: 3$/);
    expect(result.error!.logTail).toMatch(/oops/);
    await expect.poll(() => seen.some((e) => e.type === 'build.finished' && e.buildID === 'broken-build' && !e.ok)).toBe(true);
    expect(logOf('broken-build').join('\n')).toMatch(/about to fail/);
    expect((await h.api('GET', `${base}/image`)).body).toMatchObject({ image: null, upToDate: false });
  });

  it('names the Dockerfile line of a parse error, and refuses what cannot be built', async () => {
    const base = await containerTool('typo', { Dockerfile: `FROM ${BUSYBOX_IMAGE}\nFORM nothing\n` });
    const result = await build(base, {});
    expect(result.ok).toBe(false);
    expect(result.error!.step?.line).toBe(2);
    expect(result.error!.message).toMatch(/unknown instruction/i);

    const empty = await containerTool('empty', {});
    const none = await h.api('POST', `${empty}/build`, {});
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/no Dockerfile/);

    const named = `/tools/bundles/${bundleID}/tools/named/version/v1`;
    await h.api('PUT', named, { type: 'container', impl: { image: BUSYBOX_IMAGE }, argSchema: { type: 'object' } });
    const refused = await h.api('POST', `${named}/build`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/only tools with impl.build/);
    const namedImage = await h.api('GET', `${named}/image`);
    expect(namedImage.body).toMatchObject({ source: 'image', ref: BUSYBOX_IMAGE, upToDate: true });
    expect(namedImage.body.image.sizeBytes).toBeGreaterThan(100_000);
  });
});
