/**
 * A3S binary backends as the seed writes them (issue 35 point 7): a program given by `url` is
 * downloaded once at import into the tool's image, through the SSRF guard (a loopback server is
 * allowed explicitly here, as the http tools' tests do), bounded in size, its sha256 recorded
 * and checked when the manifest gives one; a program at an absolute path such as
 * /usr/local/bin/my-tool runs when the image provides it and stops the build, saying so, when it
 * does not; a script that exits non-zero keeps its stdout and exit code in the answer.
 * Real loopback HTTP server, real dockerd, images FROM scratch with busybox.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import type { ToolFile } from '../../../../shared/schemas.js';
import { CoreError } from '../../../../electron/core/errors.js';
import { createContainerRunner } from '../../../../electron/core/tool-types/container/runner.js';
import { createGuardedWeb } from '../../../../electron/core/tool-types/function/guarded-web.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, ensureFixtureImage, runContext } from '../../../helpers/docker.js';
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { freshTransferStores } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);
const BUSYBOX = await readFile('/bin/busybox').catch(() => readFile('/usr/bin/busybox'));
const BUSYBOX_SHA = createHash('sha256').update(BUSYBOX).digest('hex');
const web = (maxBytes: number) => createGuardedWeb({ maxResponseBytes: maxBytes });

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/dl/busybox', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BUSYBOX.length });
    res.end(BUSYBOX);
  });
  server.route('/dl/small-tool', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end('#!/bin/sh\necho small\n');
  });
  server.route('/dl/moved', (_req, res) => {
    res.writeHead(302, { location: 'http://10.0.0.7/dl/busybox' });
    res.end();
  });
  server.route('/dl/missing', (_req, res) => {
    res.writeHead(404);
    res.end('no');
  });
});
afterAll(async () => {
  await server.close();
});

const skill = (tools: string) => `---\nname: binaries\ndescription: Programs as A3S runs them\ntools:\n${tools}---\n`;
const urlTool = (name: string, url: string, extra = '') => `  - name: ${name}
    backend:
      type: binary
      url: ${url}
      args_template: "echo said \${message}"${extra}
    parameters: { type: object, properties: { message: { type: string } }, required: [message] }
`;

type Fresh = Awaited<ReturnType<typeof fresh>>;
const allowLoopback = (t: Fresh) => t.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
function toolsOf(t: Fresh, bundleID: string): Map<string, { file: ToolFile; dir: string }> {
  return new Map(t.store.state.toolIDsOf(bundleID).map((id) => [t.store.state.tools.get(id)!.file.slug, t.store.state.tools.get(id)!]));
}

describe('A3S binary backends given by url', () => {
  it('downloads the program once at import into the tool folder, with its sha256 recorded and a given checksum verified', async () => {
    const t = await fresh({ transfer: { web } });
    await allowLoopback(t);
    const report = await t.transfer.importSkillMd(
      skill(
        urlTool('plain', server.url('/dl/busybox')) + urlTool('pinned', server.url('/dl/busybox'), `\n      sha256: "sha256:${BUSYBOX_SHA.toUpperCase()}"`),
      ),
    );
    expect(report.items?.map((i) => i.status)).toEqual(['imported', 'imported']);
    const tools = toolsOf(t, report.created[0]!.bundleID);
    for (const slug of ['plain', 'pinned']) {
      const rec = tools.get(slug)!;
      const program = join(rec.dir, 'bin', 'busybox');
      expect((await readFile(program)).equals(BUSYBOX)).toBe(true);
      expect((await stat(program)).mode & 0o111).not.toBe(0);
      expect(await readFile(join(rec.dir, 'Dockerfile'), 'utf8')).toContain('COPY bin/busybox /tool/bin/busybox');
      expect(await readFile(join(rec.dir, 'script.sh'), 'utf8')).toMatch(/^exec \/tool\/bin\/busybox "echo" "said" "\$\{message\}"/);
    }
    expect(tools.get('plain')!.file.extensions).toEqual({ a3s: { binary: { url: server.url('/dl/busybox'), sha256: BUSYBOX_SHA, bytes: BUSYBOX.length } } });
    expect(tools.get('pinned')!.file.extensions).toMatchObject({ a3s: { binary: { sha256: BUSYBOX_SHA, verified: true } } });
    expect(server.hits('/dl/busybox')).toBe(2); // once per tool, at import; never at run time
  });

  it.each([
    ['a private address while allowPrivateNetwork is off', 'http://127.0.0.1:PORT/dl/busybox', { allowedHosts: ['127.0.0.1'] }, /private|loopback/i],
    ['a host not in allowedHosts', 'http://127.0.0.1:PORT/dl/busybox', { allowedHosts: [], allowPrivateNetwork: true }, /not in allowedHosts/],
    [
      'a redirect to a private address',
      'http://127.0.0.1:PORT/dl/moved',
      { allowedHosts: ['127.0.0.1', '10.0.0.7'], allowPrivateNetwork: false },
      /private|loopback|refused/i,
    ],
    ['a URL that answers 404', 'http://127.0.0.1:PORT/dl/missing', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true }, /answered 404/],
  ])('refuses %s, leaving the tool out with the reason and writing nothing', async (_what, url, config, reason) => {
    const t = await fresh({ transfer: { web } });
    await t.config.patch(config);
    const bundlesBefore = t.store.state.bundles.size;
    const err = await t.transfer.importSkillMd(skill(urlTool('fetched', url.replace('PORT', String(server.port))))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as CoreError).message).toMatch(/no tool could be imported: left out SKILL.md tool 'fetched': backend.url: /);
    expect((err as CoreError).message).toMatch(reason);
    expect(t.store.state.bundles.size).toBe(bundlesBefore);
  });

  it('refuses a download over the size bound and a checksum mismatch; the other tools of the skill still arrive', async () => {
    const t = await fresh({ transfer: { web, limits: { maxFileBytes: 1024 * 1024 } } });
    await allowLoopback(t);
    const wrong = 'a'.repeat(64);
    const report = await t.transfer.importSkillMd(
      skill(
        urlTool('too-big', server.url('/dl/busybox')) +
          urlTool('tampered', server.url('/dl/small-tool'), `\n      sha256: ${wrong}`) +
          `  - name: echo-tool\n    backend: { type: binary, path: /bin/echo, args_template: "hi" }\n    parameters: { type: object, properties: {} }\n`,
      ),
    );
    const items = new Map(report.items!.map((i) => [i.origin, i]));
    expect(items.get("SKILL.md tool 'too-big'")).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/larger than the 1 MB a file of a tool's folder may hold/),
    });
    const tampered = items.get("SKILL.md tool 'tampered'")!;
    expect(tampered.status).toBe('skipped');
    expect(tampered.reason).toContain(`checksum does not match: the manifest gives sha256 ${wrong}, the download is`);
    expect(items.get("SKILL.md tool 'echo-tool'")).toMatchObject({ status: 'imported' });
    expect([...toolsOf(t, report.created[0]!.bundleID).keys()]).toEqual(['echo-tool']);
  });

  it.each([
    ['file:///bin/busybox', /file:\/\/ is refused/],
    ['not a url', /is not a URL/],
  ])('refuses the url %j before any request', async (url, reason) => {
    const t = await fresh({ transfer: { web } });
    const err = await t.transfer.importSkillMd(skill(urlTool('bad', JSON.stringify(url)))).catch((e: unknown) => e);
    expect((err as CoreError).message).toMatch(reason);
  });

  it('refuses a malformed checksum', async () => {
    const t = await fresh({ transfer: { web } });
    const err = await t.transfer.importSkillMd(skill(urlTool('bad', server.url('/dl/busybox'), '\n      sha256: "md5:abc"'))).catch((e: unknown) => e);
    expect((err as CoreError).message).toMatch(/sha256 must be a sha256 checksum: 64 hexadecimal digits/);
  });
});

describe('A3S binary backends at a host path', () => {
  it.each([
    ['/usr/bin/../../tmp/evil', /a path with \. or \.\. segments/],
    ['/usr/local/bin/./my-tool', /a path with \. or \.\. segments/],
    ['../bin/my-tool', /a program relative to the skill on the host/],
    ['bin/my-tool', /a program relative to the skill on the host/],
    ['/usr/local/bin/my tool', /not a plain program path/],
  ])('refuses %j with the reason', async (path, reason) => {
    const t = await fresh();
    const err = await t.transfer
      .importSkillMd(skill(`  - name: local\n    backend: { type: binary, path: "${path}" }\n    parameters: { type: object, properties: {} }\n`))
      .catch((e: unknown) => e);
    expect((err as CoreError).message).toMatch(reason);
  });

  it('accepts an absolute path outside the system folders; its Dockerfile checks the image has it', async () => {
    const t = await fresh();
    const report = await t.transfer.importSkillMd(
      skill(
        `  - name: local\n    backend: { type: binary, path: /usr/local/bin/my-tool, args_template: "x" }\n    parameters: { type: object, properties: {} }\n`,
      ),
    );
    const rec = toolsOf(t, report.created[0]!.bundleID).get('local')!;
    const dockerfile = await readFile(join(rec.dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('RUN test -x /usr/local/bin/my-tool ||');
    expect(dockerfile).not.toContain('apt-get');
  });
});

describe.runIf(await dockerTestsEnabled())('A3S binaries and scripts in a real container', () => {
  const docker = new Dockerode();
  const runner = createContainerRunner({});
  afterAll(() => runner.close());
  const run = (rec: { file: ToolFile; dir: string }, args: Record<string, unknown>) => runner.run(runContext(rec.file, args, { toolDir: rec.dir }));

  it('runs a downloaded program; runs /usr/local/bin/my-tool in an image that provides it, and stops the build saying so in one that does not', async () => {
    await ensureBusyboxImage(docker);
    const local = await ensureFixtureImage(docker, 'a3s-local-tool');
    const withTool = await fresh({ transfer: { web, scriptImages: { binary: local } } });
    await allowLoopback(withTool);
    const report = await withTool.transfer.importSkillMd(
      skill(
        urlTool('downloaded', server.url('/dl/busybox')) +
          `  - name: local\n    backend: { type: binary, path: /usr/local/bin/my-tool, args_template: "hello \${who}" }\n    parameters: { type: object, properties: { who: { type: string } } }\n`,
      ),
    );
    const tools = toolsOf(withTool, report.created[0]!.bundleID);
    expect(JSON.stringify((await run(tools.get('downloaded')!, { message: "it's $(id)" })).value)).toContain("said it's $(id)");
    expect(JSON.stringify((await run(tools.get('local')!, { who: 'ada' })).value)).toContain('my-tool ran with: hello ada');

    const without = await fresh({ transfer: { scriptImages: { binary: BUSYBOX_IMAGE } } });
    const missing = await without.transfer.importSkillMd(
      skill(`  - name: local\n    backend: { type: binary, path: /usr/local/bin/my-tool }\n    parameters: { type: object, properties: {} }\n`),
    );
    const rec = toolsOf(without, missing.created[0]!.bundleID).get('local')!;
    const err = await run(rec, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as CoreError).message).toContain(`/usr/local/bin/my-tool is not in the image ${BUSYBOX_IMAGE}`);
  }, 300_000);

  it("keeps a failing script's stdout and exit code in the answer", async () => {
    await ensureBusyboxImage(docker);
    const t = await fresh({ transfer: { scriptImages: { sh: BUSYBOX_IMAGE } } });
    const report = await t.transfer.importSkillMd(
      skill(`  - name: failing
    backend:
      type: script
      interpreter: sh
      script: |
        echo "checked 3 files"
        echo "2 problems: \\"a\\" and b"
        echo "to stderr" >&2
        exit 3
    parameters: { type: object, properties: {} }
`),
    );
    const rec = toolsOf(t, report.created[0]!.bundleID).get('failing')!;
    const err = (await run(rec, {}).catch((e: unknown) => e)) as CoreError;
    expect(err).toBeInstanceOf(CoreError);
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toBe('the script exited with status 3');
    expect(err.details).toMatchObject({ exitCode: 3, stdout: 'checked 3 files\n2 problems: "a" and b', stderrTail: 'to stderr' });
  }, 300_000);
});
