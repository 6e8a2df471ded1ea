/**
 * Foreign formats from the fixtures in test/fixtures/transfer: a manifest.json + Dockerfile +
 * runner folder, a SKILL.md, OpenAPI 3 in JSON and YAML; OpenAI function definitions out. The
 * generated script wrapper runs for real under busybox (and in Docker when an engine is there),
 * and generated http tools call a real loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import Dockerode from 'dockerode';
import type { ContainerImpl, HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import { createCore, type Core } from '../../../../electron/core/app-core.js';
import { createContainerRunner } from '../../../../electron/core/tool-types/container/runner.js';
import { expectCode } from '../../../helpers/store.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, runContext } from '../../../helpers/docker.js';
import { freshTransferStores, listTree, type TransferStore } from '../../../helpers/transfer.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/transfer/', import.meta.url));
const run = promisify(execFile);

const fresh = freshTransferStores(afterAll);

function toolsOf(t: TransferStore, bundleID: string): Map<string, ToolFile> {
  return new Map(
    t.store.state
      .toolIDsOf(bundleID)
      .map((id) => t.store.state.tools.get(id)!.file)
      .map((f) => [f.slug, f]),
  );
}

describe('container folder (manifest.json + Dockerfile + runner)', () => {
  let t: TransferStore;
  let bundleID: string;
  beforeAll(async () => {
    t = await fresh();
    bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'containers' });
  });

  it('maps the manifest onto a container tool and keeps the folder as its build files', async () => {
    const { tool, secrets, warnings } = await t.transfer.importContainerFolder(join(FIXTURES, 'word-count-container'), bundleID);
    expect(tool).toMatchObject({
      slug: 'word-count',
      version: '1.2.0',
      displayName: 'Word count',
      type: 'container',
      tags: ['text', 'demo'],
      safety: 'readOnly',
      card: { enabled: true, title: '{{text}}', accentColor: '#2a9d8f', backgroundColor: 'rgba(42,157,143,0.1)' },
      limits: { maxOutputBytes: 4096 },
      outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    expect(tool.argSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The text to count' },
        unique: { type: 'boolean', description: 'Count each word once', default: false },
        max_words: { type: 'integer', description: 'Stop counting after this many words' },
      },
      required: ['text'],
    });
    expect(tool.impl).toEqual({
      build: '.',
      sandbox: { memory: '64m', network: 'none', writable: false, cpus: 0.5 },
      timeoutSeconds: 15,
      // Secrets are stored under names of this tool's own and reach the container under their config_schema keys.
      secrets: ['WORD_COUNT_LICENSE_TOKEN', 'WORD_COUNT_STATS_API_KEY'],
      // A setting that is not secret travels to the container in `settings`, with its default.
      settings: { stats_api_key: { secret: 'WORD_COUNT_STATS_API_KEY' }, licenseToken: { secret: 'WORD_COUNT_LICENSE_TOKEN' }, language: 'en' },
      // config_schema kept for the settings endpoint and its test action: secrets write-only, and
      // required unless the manifest marks them `required: false`.
      settingsSchema: {
        type: 'object',
        properties: {
          stats_api_key: { type: 'string', description: 'Key for the optional stats service', writeOnly: true },
          licenseToken: { type: 'string', format: 'password', writeOnly: true },
          language: { type: 'string', default: 'en' },
        },
        required: ['stats_api_key', 'licenseToken'],
      },
    });
    expect(secrets).toEqual(['WORD_COUNT_LICENSE_TOKEN', 'WORD_COUNT_STATS_API_KEY']);
    expect(warnings.join(' ')).not.toMatch(/language/);
    const dir = t.store.state.tools.get(tool.toolID)!.dir;
    expect((await readdir(dir)).sort()).toEqual(['Dockerfile', 'manifest.json', 'runner.sh', 'tool.json']);
    expect((await stat(join(dir, 'runner.sh'))).mode & 0o111).not.toBe(0);
    expect(await t.store.claims.owner(bundleID, 'word-count', '1.2.0')).toBe(tool.toolID);
    expect((await t.reopen()).store.problems()).toEqual([]);
    await expectCode(t.transfer.importContainerFolder(join(FIXTURES, 'word-count-container'), bundleID), 'CONFLICT');
  });

  it('accepts dropped files (wrapped in their folder, base64), and refuses bad ones without writing', async () => {
    const names = ['manifest.json', 'Dockerfile', 'runner.sh'];
    const files = await Promise.all(
      names.map(async (n) => ({
        path: `my-drop/${n}`,
        content: (await readFile(join(FIXTURES, 'word-count-container', n))).toString('base64'),
        encoding: 'base64' as const,
      })),
    );
    files[0] = { ...files[0]!, content: Buffer.from(JSON.stringify({ name: 'dropped', parameters: { q: { type: 'string' } } })).toString('base64') };
    const { tool } = await t.transfer.importContainerFiles(bundleID, files);
    expect(tool.slug).toBe('dropped');
    expect(tool.version).toBe('v1');
    const before = await listTree(t.dataDir);
    await expectCode(
      t.transfer.importContainerFiles(
        bundleID,
        files.filter((f) => !f.path.endsWith('Dockerfile')),
      ),
      'INVALID_INPUT',
    );
    await expectCode(t.transfer.importContainerFiles(bundleID, [...files, { path: '../../escape.sh', content: 'x' }]), 'INVALID_INPUT');
    await expectCode(
      t.transfer.importContainerFiles(bundleID, [
        { path: 'manifest.json', content: '{"name": "x", "sandbox": {"network": "overlay"}}' },
        { path: 'Dockerfile', content: 'FROM x' },
      ]),
      'INVALID_INPUT',
    );
    await expectCode(
      t.transfer.importContainerFiles(bundleID, [
        { path: 'manifest.json', content: '{"name": "x", "parameters": {"a": {"type": "date"}}}' },
        { path: 'Dockerfile', content: 'FROM x' },
      ]),
      'INVALID_INPUT',
    );
    expect(await listTree(t.dataDir)).toEqual(before);
  });

  it('never follows links in a folder it reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tw-folder-'));
    try {
      await writeFile(join(dir, 'manifest.json'), '{"name": "linky"}');
      await writeFile(join(dir, 'Dockerfile'), 'FROM scratch');
      await symlink('/etc/passwd', join(dir, 'passwd'));
      const { tool } = await t.transfer.importContainerFolder(dir, bundleID);
      expect(await readdir(t.store.state.tools.get(tool.toolID)!.dir)).not.toContain('passwd');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('SKILL.md', () => {
  let t: TransferStore;
  let text: string;
  beforeAll(async () => {
    t = await fresh();
    text = await readFile(join(FIXTURES, 'weather-skill.md'), 'utf8');
  });

  it('becomes a bundle: http backends → http tools, script backends → container tools', async () => {
    const report = await t.transfer.importSkillMd(text);
    expect(report.created).toHaveLength(1);
    expect(report.toolCount).toBe(4);
    expect(report.hostsToAllow).toEqual(['api.weather.example', 'hooks.example.org']);
    expect(report.warnings?.some((w) => /broken/.test(w) && /exactly one backend/.test(w))).toBe(true);
    const bundleID = report.created[0]!.bundleID;
    expect(t.store.bundle(bundleID).file).toMatchObject({
      slug: 'weather-skills',
      displayName: 'Weather Skills',
      description: 'Look up the weather and count words, from a SKILL.md.',
    });
    const tools = toolsOf(t, bundleID);
    expect([...tools.keys()].sort()).toEqual(['current-weather', 'greet-python', 'post-report', 'word-count']);

    const weather = tools.get('current-weather')!;
    expect(weather.impl).toEqual({
      method: 'GET',
      urlTemplate: 'https://api.weather.example/v1/current?q=${city}&units=${units}&key=${WEATHER_API_KEY}',
      headers: { Accept: 'application/json', 'X-Client': 'toolwright' },
      extractExpr: '$.current',
      timeoutMs: 8000,
    });
    expect(weather.argSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, units: { type: 'string', enum: ['metric', 'imperial'] } },
      required: ['city'],
    });
    const report2 = tools.get('post-report')!;
    expect(report2.version).toBe('v2');
    expect(report2.safety).toBe('sideEffecting');
    expect((report2.impl as HttpImpl).headers?.['Authorization']).toBe('Bearer ${REPORT_TOKEN}');
    expect((report2.impl as HttpImpl).bodyTemplate).toBe('{"city": "${city}", "text": "${text}"}');

    const wc = tools.get('word-count')!;
    expect(wc.impl).toEqual({ build: '.', sandbox: { network: 'none' }, timeoutSeconds: 10 });
    const wcDir = t.store.state.tools.get(wc.toolID)!.dir;
    expect((await readdir(wcDir)).sort()).toEqual(['Dockerfile', 'json-env.awk', 'json-text.awk', 'run.sh', 'script.sh', 'tool.json']);
    expect(await readFile(join(wcDir, 'Dockerfile'), 'utf8')).toMatch(/^FROM busybox:1\.37$/m);
    expect(await readFile(join(wcDir, 'script.sh'), 'utf8')).toBe(`printf '%s' "\${text}" | wc -w | tr -d ' '\n`);
    const py = tools.get('greet-python')!;
    expect((py.impl as ContainerImpl).secrets).toEqual(['GREETING_SECRET']);
    expect(await readFile(join(t.store.state.tools.get(py.toolID)!.dir, 'Dockerfile'), 'utf8')).toMatch(/^FROM python:3\.12-alpine$/m);
  });

  it('dry run writes nothing; bad documents are refused with the reason', async () => {
    const other = await fresh();
    const before = await listTree(other.dataDir);
    const dry = await other.transfer.importSkillMd(text, { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.toolCount).toBe(4);
    expect(await listTree(other.dataDir)).toEqual(before);
    expect((await expectCode(other.transfer.importSkillMd('# no front matter'), 'INVALID_INPUT')).message).toMatch(/front matter/);
    expect((await expectCode(other.transfer.importSkillMd('---\nname: x\n---\n'), 'INVALID_INPUT')).message).toMatch(/at least one tool/);
    // A billion-laughs document stops at the alias cap instead of eating memory.
    const laughs = ['---', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 0; i < 9; i++)
      laughs.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
      );
    laughs.push('name: bomb', 'tools: *j', '---');
    expect((await expectCode(other.transfer.importSkillMd(laughs.join('\n')), 'INVALID_INPUT')).message).toMatch(/alias|YAML/i);
    await expectCode(
      other.transfer.importSkillMd('---\nname: x\ntools:\n  - name: s\n    parameters: {PATH: {type: string}}\n    script: {source: "echo hi"}\n---\n'),
      'INVALID_INPUT',
    );
    expect(await listTree(other.dataDir)).toEqual(before);
  });
});

/** Runs a generated script tool's wrapper on the host's busybox, as its container would. */
describe('the generated script wrapper (busybox sh + awk)', () => {
  const busybox = ['/bin/busybox', '/usr/bin/busybox'].find((p) => existsSync(p));
  let dir: string;
  let bin: string;
  beforeAll(async () => {
    const t = await fresh();
    const skill = `---
name: wrappers
tools:
  - name: words
    parameters: {text: {type: string}, n: {type: number}, list: {type: array}}
    script:
      source: |
        printf 'text=%s|n=%s|list=%s|key=%s' "\${text}" "\${n}" "\${list}" "\${env:api-key}"
  - name: reply-json
    script:
      source: printf '{"text":"from json","title":"T"}'
  - name: fails
    script:
      source: echo broken >&2; exit 3
---
`;
    const report = await t.transfer.importSkillMd(skill);
    const tools = toolsOf(t, report.created[0]!.bundleID);
    dir = await mkdtemp(join(tmpdir(), 'tw-wrapper-'));
    for (const slug of ['words', 'reply-json', 'fails']) {
      const src = t.store.state.tools.get(tools.get(slug)!.toolID)!.dir;
      await mkdir(join(dir, slug));
      for (const f of await readdir(src)) await writeFile(join(dir, slug, f), await readFile(join(src, f)));
    }
    bin = join(dir, 'bin');
    await mkdir(bin);
    for (const applet of ['sh', 'awk', 'base64', 'dirname', 'wc', 'tr', 'printf', 'cat']) await symlink(busybox!, join(bin, applet));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function callWrapper(slug: string, params: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<{ stdout: string; code: number }> {
    const payload = Buffer.from(JSON.stringify({ params, settings, telemetry: { invocationID: 'x' } })).toString('base64');
    try {
      const { stdout } = await run(join(bin, 'sh'), [join(dir, slug, 'run.sh'), payload], { env: { PATH: bin }, cwd: dir });
      return { stdout, code: 0 };
    } catch (e) {
      return { stdout: (e as { stdout: string }).stdout, code: (e as { code: number }).code };
    }
  }

  it.skipIf(!busybox)('passes arguments and secrets as environment variables, never as code', async () => {
    const marker = join(dir, 'pwned');
    const hostile = `it's "quoted" \\ back $(touch ${marker}) \`touch ${marker}\` ; touch ${marker}\nnew line \u00e9\u00e8 日本 \t tab`;
    const { stdout, code } = await callWrapper('words', { text: hostile, n: 4.5, list: [1, 'a"b', { x: null }] }, { API_KEY: "s3cr'et" });
    expect(code).toBe(0);
    const reply = JSON.parse(stdout) as { text: string };
    expect(reply.text).toBe(`text=${hostile}|n=4.5|list=[1,"a\\"b",{"x":null}]|key=s3cr'et`);
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(!busybox)('passes a JSON reply through, and a failing exit status on', async () => {
    expect(JSON.parse((await callWrapper('reply-json', {})).stdout)).toEqual({ text: 'from json', title: 'T' });
    expect((await callWrapper('fails', {})).code).toBe(3);
    const broken = await run(join(bin, 'sh'), [join(dir, 'words', 'run.sh'), 'not base64 of json!'], { env: { PATH: bin } });
    expect(JSON.parse(broken.stdout)).toEqual({ error: 'the payload could not be read' });
  });
});

describe('OpenAPI 3', () => {
  it('JSON: one http tool per operation, parameters, bodies, security and responses mapped', async () => {
    const t = await fresh();
    const report = await t.transfer.importOpenApi(await readFile(join(FIXTURES, 'inventory-openapi.json'), 'utf8'));
    expect(report.hostsToAllow).toEqual(['eu.inventory.example.com']);
    const warnings = report.warnings!.join('\n');
    expect(warnings).toMatch(/left out POST \/batches: its request body is multipart\/mixed/);
    expect(warnings).not.toMatch(/left out POST \/uploads/);
    expect(warnings).toMatch(/left out GET \/remote: .*external reference/);
    expect(warnings).toMatch(/GET \/items\/\{itemId\}: cookie parameter 'session'/);
    expect(warnings).toMatch(/recursive schema #\/components\/schemas\/Category/);
    const bundleID = report.created[0]!.bundleID;
    expect(t.store.bundle(bundleID).file).toMatchObject({ slug: 'inventory-api', displayName: 'Inventory API' });
    const tools = toolsOf(t, bundleID);
    expect([...tools.keys()].sort()).toEqual(['create-order', 'get-item', 'list-categories', 'replace-item', 'upload-image']);
    expect(tools.get('upload-image')!.argSchema).toMatchObject({ properties: { image: { type: 'string', contentEncoding: 'base64' } } });

    const get = tools.get('get-item')!;
    expect(get.version).toBe('2.1.0');
    expect(get.tags).toEqual(['items']);
    expect(get.safety).toBe('readOnly');
    expect(get.impl).toEqual({
      method: 'GET',
      urlTemplate: 'https://eu.inventory.example.com/api/items/${itemId}?fields=${fields}',
      headers: { 'X-Request-Id': '${X-Request-Id}', 'X-API-Key': '${API_KEY_AUTH}' },
      responseEncoding: 'json',
    });
    expect(get.argSchema).toMatchObject({
      required: ['itemId'],
      // OpenAPI's default for a query array (form, explode): it stays an array, sent as fields=a&fields=b.
      properties: { itemId: { type: 'string', description: 'The item' }, fields: { type: 'array' } },
    });
    expect(warnings).not.toMatch(/'fields'/);
    expect(get.outputSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { category: { properties: { children: { items: { description: 'recursive: Category' } } } } },
    });

    const put = tools.get('replace-item')!;
    expect(put.safety).toBe('sideEffecting');
    expect(put.impl).toMatchObject({
      method: 'PUT',
      bodyTemplate: '${body}',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ${BEARER_AUTH}' },
    });
    expect(put.argSchema).toMatchObject({ required: ['itemId', 'body'], properties: { body: { type: 'object', required: ['name'] } } });

    const order = tools.get('create-order')!;
    expect(order.impl).toMatchObject({
      method: 'POST',
      bodyTemplate: 'item=${item}&quantity=${quantity}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: 'https://eu.inventory.example.com/oauth/token',
        clientIdSecret: 'OAUTH_CLIENT_ID',
        clientSecretSecret: 'OAUTH_CLIENT_SECRET',
        scope: 'orders:write',
      },
    });
    expect(order.argSchema).toMatchObject({ required: ['item'] });
  });

  it('YAML: anchors, operations without operationId, the API version as tool version', async () => {
    const t = await fresh();
    const report = await t.transfer.importOpenApi(await readFile(join(FIXTURES, 'petstore-openapi.yaml'), 'utf8'));
    const tools = toolsOf(t, report.created[0]!.bundleID);
    expect([...tools.keys()].sort()).toEqual(['list-pets', 'post-pets', 'show-pet-by-id']);
    expect(tools.get('show-pet-by-id')!.impl).toMatchObject({ urlTemplate: 'https://petstore.example.net/v1/pets/${petId}?limit=${limit}' });
    expect(tools.get('list-pets')!.argSchema).toMatchObject({ properties: { limit: { type: 'integer', maximum: 100 } } });
    expect(tools.get('list-pets')!.outputSchema).toMatchObject({ type: 'array', items: { required: ['id', 'name'] } });
    expect(tools.get('post-pets')!.version).toBe('v1');
    expect(report.hostsToAllow).toEqual(['petstore.example.net']);
  });

  it('refuses Swagger 2, documents without servers (unless given), and non-OpenAPI input', async () => {
    const t = await fresh();
    await expectCode(t.transfer.importOpenApi('{"swagger": "2.0", "paths": {}}'), 'INVALID_INPUT');
    const noServer = JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
    });
    expect((await expectCode(t.transfer.importOpenApi(noServer), 'INVALID_INPUT')).message).toMatch(/serverUrl/);
    const given = await t.transfer.importOpenApi(noServer, { serverUrl: 'https://given.example.com/base/' });
    expect([...toolsOf(t, given.created[0]!.bundleID).values()][0]!.impl).toMatchObject({ urlTemplate: 'https://given.example.com/base/a' });
    await expectCode(t.transfer.importOpenApi('just: [yaml, not, openapi]'), 'INVALID_INPUT');
  });

  describe('generated tools call a real server', () => {
    let core: Core;
    let server: Server;
    let dataDir: string;
    const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ name: 'widget', price: 2.5 }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      dataDir = await mkdtemp(join(tmpdir(), 'tw-openapi-core-'));
      core = await createCore({ dataDir, docker: false });
    });
    afterAll(async () => {
      await core?.close();
      server?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('GET with path, query and header parameters, PUT with a JSON body and a bearer secret', async () => {
      const port = (server.address() as { port: number }).port;
      const report = await core.transfer.importOpenApi(await readFile(join(FIXTURES, 'inventory-openapi.json'), 'utf8'), {
        serverUrl: `http://127.0.0.1:${port}/api`,
      });
      expect(report.hostsToAllow).toEqual(['127.0.0.1']);
      await core.config.patch({ allowedHosts: report.hostsToAllow!, allowPrivateNetwork: true });
      await core.secrets.set('API_KEY_AUTH', 'key-123');
      await core.secrets.set('BEARER_AUTH', 'tok-456');
      const bundleID = report.created[0]!.bundleID;
      const got = await core.dispatch('tools.invoke', {
        bundleID,
        slug: 'get-item',
        version: '2.1.0',
        args: { itemId: 'a/b c', fields: ['name', 'price'], 'X-Request-Id': 'req-1' },
      });
      expect(got.ok, JSON.stringify(got)).toBe(true);
      expect(seen.at(-1)).toMatchObject({
        method: 'GET',
        url: '/api/items/a%2Fb%20c?fields=name&fields=price',
        headers: { 'x-request-id': 'req-1', 'x-api-key': 'key-123' },
      });
      const put = await core.dispatch('tools.invoke', {
        bundleID,
        slug: 'replace-item',
        version: '2.1.0',
        args: { itemId: '7', body: { name: 'widget', price: 3 } },
        confirm: true,
      });
      expect(put.ok, JSON.stringify(put)).toBe(true);
      expect(seen.at(-1)).toMatchObject({
        method: 'PUT',
        url: '/api/items/7',
        headers: { authorization: 'Bearer tok-456', 'content-type': 'application/json' },
      });
      expect(JSON.parse(seen.at(-1)!.body)).toEqual({ name: 'widget', price: 3 });
    });
  });
});

describe('OpenAI function definitions', () => {
  it('lists enabled tools in the function-calling shape, with names agents accept', async () => {
    const t = await fresh();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'mixed' });
    const fn = {
      type: 'function' as const,
      impl: { function: 'core.calc' },
      argSchema: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] },
    };
    await t.tools.create({ bundleID, slug: 'météo', version: 'v1' }, { ...fn, description: 'Weather' });
    await t.tools.create({ bundleID, slug: 'calc', version: 'v1' }, { ...fn, displayName: 'Calculator' });
    await t.tools.create({ bundleID, slug: 'calc', version: 'v2.0' }, fn);
    await t.tools.create({ bundleID, slug: '天気', version: 'v1' }, fn);
    await t.tools.create({ bundleID, slug: 'off', version: 'v1' }, { ...fn, isEnabled: false });
    const defs = t.transfer.openAiFunctions([bundleID]);
    expect(defs.map((d) => d.function.name)).toEqual(['calc_v1', 'calc_v2_0', 'meteo', 'tool']);
    for (const d of defs) {
      expect(d.type).toBe('function');
      expect(d.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(d.function.parameters).toEqual(fn.argSchema);
    }
    expect(defs.find((d) => d.function.name === 'meteo')!.function.description).toBe('Weather');
    expect(defs.find((d) => d.function.name === 'calc_v1')!.function.description).toBe('Calculator');
    await t.bundles.patch(bundleID, false);
    expect(t.transfer.openAiFunctions([bundleID])).toEqual([]);
    expect(() => t.transfer.openAiFunctions([uuidv7()])).toThrow(/not found/);
  });
});

describe.runIf(await dockerTestsEnabled())('in real containers', () => {
  const docker = new Dockerode();
  it('the container-folder tool and a SKILL.md script tool build and answer', async () => {
    await ensureBusyboxImage(docker);
    const t = await fresh({ transfer: { scriptImages: { sh: BUSYBOX_IMAGE } } });
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'docker' });
    const { tool } = await t.transfer.importContainerFolder(join(FIXTURES, 'word-count-container'), bundleID);
    const runner = createContainerRunner({ settings: (f) => (f.slug === 'greet' ? { GREETING: 'Hej' } : {}) });
    try {
      const rec = t.store.state.tools.get(tool.toolID)!;
      const out = await runner.run(runContext(rec.file, { text: 'one two three' }, { toolDir: rec.dir }));
      expect(JSON.stringify(out)).toContain('3 words');
      const report = await t.transfer.importSkillMd(
        '---\nname: s\ntools:\n  - name: greet\n    parameters: {who: {type: string}}\n    script:\n      source: printf \'%s, %s!\' "${env:GREETING}" "${who}"\n---\n',
      );
      const greet = [...toolsOf(t, report.created[0]!.bundleID).values()][0]!;
      const grec = t.store.state.tools.get(greet.toolID)!;
      const answer = await runner.run(runContext(grec.file, { who: "O'Brien $(id)" }, { toolDir: grec.dir }));
      expect(JSON.stringify(answer)).toContain("Hej, O'Brien $(id)!");
    } finally {
      await runner.close();
    }
  }, 180_000);
});
