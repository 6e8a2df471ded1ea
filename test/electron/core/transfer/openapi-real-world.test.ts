/**
 * OpenAPI documents as people really write them (documents written for these tests, each class
 * of what real vendor descriptions do): the 3.0 schema dialect, examples holding "$ref" data,
 * output formats the API itself breaks, optional query parameters, arrays in queries, Swagger
 * 2.0, and a large generated description. Generated tools then call a real loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../../../electron/core/app-core.js';

let core: Core;
let server: Server;
let port: number;
let dataDir: string;
const seen: { method: string; url: string; body: string; raw: Buffer; headers: Record<string, string | string[] | undefined> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, body: raw.toString(), raw, headers: req.headers });
      res.setHeader('content-type', 'application/json');
      // The API's own answer breaks its declared format (a relative URI in a format: uri field).
      res.end(JSON.stringify({ id: 7, name: null, link: '/things/7', count: 3 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'tw-openapi-rw-'));
  core = await createCore({ dataDir, docker: false });
  await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
});
afterAll(async () => {
  await core.close();
  server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const thing = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 0, exclusiveMinimum: true },
    name: { type: 'string', nullable: true },
    anything: { nullable: true, description: 'nullable without a type' },
    link: { type: 'string', format: 'uri' },
    count: { type: 'integer', maximum: 10, exclusiveMaximum: false },
  },
  example: { id: 1, $ref: '#/not/a/reference', $id: 'data-not-schema' },
};

const openapi30 = {
  openapi: '3.0.3',
  info: { title: 'Things API', version: '1.2.0' },
  servers: [
    { url: 'https://api.things.example/v1', description: 'production' },
    { url: 'https://{region}.things.example/{basePath}', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, basePath: { default: 'v1' } } },
  ],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', nullable: true } },
          { name: 'start', in: 'query', schema: { type: 'integer' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'ids', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'pick', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'near', in: 'query', style: 'spaceDelimited', schema: { type: 'array', items: { type: 'number' } } },
          { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { status: { type: 'string' } } } },
          { name: 'X-Fields', in: 'header', schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      },
      post: {
        operationId: 'createThing',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, examples: { one: { value: { $ref: 'x' } } } } },
        },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      },
    },
  },
  components: { schemas: { Thing: thing } },
};

const swagger2 = {
  swagger: '2.0',
  info: { title: 'Legacy Pets', version: '0.9' },
  host: 'pets.example.com',
  basePath: '/api',
  schemes: ['https'],
  paths: {
    '/pets': {
      get: {
        operationId: 'findPets',
        produces: ['application/json'],
        parameters: [
          { name: 'status', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
          { name: 'limit', in: 'query', type: 'integer' },
        ],
        responses: { '200': { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/Pet' } } } },
      },
      post: {
        operationId: 'addPet',
        consumes: ['application/json'],
        parameters: [{ name: 'pet', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
        responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string', 'x-nullable': true } } } },
};

async function importDoc(doc: unknown) {
  const report = await core.transfer.importOpenApi(JSON.stringify(doc), { serverUrl: `http://127.0.0.1:${port}/v1` });
  return { report, bundleID: report.created[0]!.bundleID };
}

async function invoke(bundleID: string, slug: string, version: string, args: Record<string, unknown>) {
  const r = await core.dispatch('tools.invoke', { bundleID, slug, version, args });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.data;
}

describe('OpenAPI 3.0 as vendors write it', () => {
  it('imports every operation: nullable (with and without a type), boolean exclusive bounds, $ref-looking data in examples', async () => {
    const { report, bundleID } = await importDoc(openapi30);
    expect(report.toolCount).toBe(2);
    // The document's servers are offered, variables filled with their defaults.
    expect(report.servers).toEqual([
      { url: 'https://api.things.example/v1', description: 'production' },
      { url: 'https://eu.things.example/v1', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, basePath: { default: 'v1' } } },
    ]);
    expect((report.warnings ?? []).filter((w) => w.startsWith('left out'))).toEqual([]);
    const create = (await core.dispatch('tools.get', { bundleID, slug: 'create-thing', version: '1.2.0' })) as { ok: true; data: { argSchema: any } };
    expect(create.ok).toBe(true);
    const body = create.data.argSchema.properties.body;
    expect(body.properties.id).toMatchObject({ type: 'integer', exclusiveMinimum: 0 });
    expect(body.properties.id.minimum).toBeUndefined();
    expect(body.properties.name.type).toEqual(['string', 'null']);
    expect(body.properties.count.exclusiveMaximum).toBeUndefined();
    const made = await invoke(bundleID, 'create-thing', '1.2.0', { body: { id: 5, name: null, anything: null } });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ id: 5, name: null, anything: null });
    const bad = await core.dispatch('tools.invoke', { bundleID, slug: 'create-thing', version: '1.2.0', args: { body: { id: 0 } } });
    expect(bad.ok).toBe(false); // exclusiveMinimum 0: 0 is refused, as the API says
  });

  it('leaves optional query parameters out when not given, serialises arrays and objects by style and explode, and treats output formats as annotations', async () => {
    const { bundleID, report } = await importDoc(openapi30);
    expect((report.warnings ?? []).filter((w) => /sent as one value/.test(w))).toEqual([]);
    const listed = await invoke(bundleID, 'list-things', '1.2.0', {});
    expect(listed.ok, JSON.stringify(listed)).toBe(true); // the relative "link" does not fail format: uri
    expect(seen.at(-1)!.url).toBe('/v1/things');
    const tool = (await core.dispatch('tools.get', { bundleID, slug: 'list-things', version: '1.2.0' })) as { ok: true; data: { argSchema: any } };
    expect(tool.data.argSchema.properties.ids.type).toBe('array');
    expect(tool.data.argSchema.properties.filter.type).toBe('object');
    await invoke(bundleID, 'list-things', '1.2.0', {
      limit: 5,
      tag: ['a', 'b c'],
      ids: [1, 2],
      pick: ['x', 'y'],
      near: [1.5, 2],
      filter: { status: 'open' },
      'X-Fields': ['id', 'name'],
    });
    expect(seen.at(-1)!.url).toBe('/v1/things?limit=5&tag=a&tag=b%20c&ids=1,2&pick=x|y&near=1.5%202&filter[status]=open');
    expect(seen.at(-1)!.headers['x-fields']).toBe('id,name');
  });
});

describe('Swagger 2.0', () => {
  it('is converted to OpenAPI 3 and imported; its tools call the server', async () => {
    const { report, bundleID } = await importDoc(swagger2);
    expect(report.toolCount).toBe(2);
    expect(report.warnings).toContain('converted from Swagger 2.0 to OpenAPI 3 before import');
    await invoke(bundleID, 'find-pets', '0.9', { status: ['sold', 'available'] });
    expect(seen.at(-1)!.url).toBe('/v1/pets?status=sold&status=available');
    const added = await invoke(bundleID, 'add-pet', '0.9', { body: { name: 'Rex' } });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ name: 'Rex' });
  });
});

describe('a large generated description', () => {
  it('imports all of ≥ 300 operations of a ≥ 2 MB document', async () => {
    const paths: Record<string, unknown> = {};
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 120; i++) {
      schemas[`Model${i}`] = {
        type: 'object',
        description: 'A model with a long description. '.repeat(500),
        properties: Object.fromEntries(
          Array.from({ length: 25 }, (_, j) => [
            `field${j}`,
            { type: j % 3 ? 'string' : 'integer', nullable: j % 5 === 0, description: `Field ${j} of model ${i}` },
          ]),
        ),
        example: { $ref: `#/components/schemas/Model${i}` },
      };
    }
    for (let i = 0; i < 110; i++) {
      const ref = { $ref: `#/components/schemas/Model${i % 120}` };
      paths[`/resources${i}/{id}`] = {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: `get${i}`,
          parameters: [{ name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string' } } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } },
        },
        put: {
          operationId: `put${i}`,
          requestBody: { content: { 'application/json': { schema: ref } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } },
        },
        delete: { operationId: `delete${i}`, responses: { '204': { description: 'gone' } } },
      };
    }
    const doc = { openapi: '3.0.1', info: { title: 'Huge', version: '1' }, servers: [{ url: 'https://huge.example' }], paths, components: { schemas } };
    const text = JSON.stringify(doc);
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const dry = await core.transfer.importOpenApi(text, { dryRun: true });
    expect(dry.toolCount).toBe(330);
    expect((dry.warnings ?? []).filter((w) => w.startsWith('left out'))).toEqual([]);
  }, 120_000);
});

describe('security schemes', () => {
  it('say per operation what the tool needs: a secret for an API key, an access token for OAuth2 authorization code', async () => {
    const doc = {
      ...openapi30,
      components: {
        ...openapi30.components,
        securitySchemes: {
          userAuth: {
            type: 'oauth2',
            flows: {
              authorizationCode: { authorizationUrl: 'https://auth.things.example/authorize', tokenUrl: 'https://auth.things.example/token', scopes: {} },
            },
          },
          key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        },
      },
      paths: {
        '/me': { get: { operationId: 'me', security: [{ userAuth: [] }], responses: { '200': { description: 'ok' } } } },
        '/stats': { get: { operationId: 'stats', security: [{ key: [] }], responses: { '200': { description: 'ok' } } } },
      },
    };
    const { report, bundleID } = await importDoc(doc);
    const warnings = (report.warnings ?? []).join('\n');
    expect(warnings).toMatch(
      /GET \/me: needs secret USER_AUTH_ACCESS_TOKEN: an OAuth2 access token for 'userAuth' \(sign in at https:\/\/auth\.things\.example\/authorize/,
    );
    expect(warnings).toMatch(/GET \/stats: needs secret KEY: the API key 'key', sent as the header X-Api-Key/);
    const me = await core.dispatch('tools.get', { bundleID, slug: 'me', version: '1.2.0' });
    expect(me.ok && (me.data.impl as { headers?: Record<string, string> }).headers).toEqual({ Authorization: 'Bearer ${USER_AUTH_ACCESS_TOKEN}' });
    expect(me.ok && me.data.availability).toEqual({ ok: false, reason: 'secret USER_AUTH_ACCESS_TOKEN is not set' });
  });
});

describe('slips of real documents keep their operations', () => {
  it('an undescribed path parameter, an undefined security scheme and a schema that explodes once inlined', async () => {
    // Each level refers to the next twice: inlined fully it would have 2^18 nodes.
    const schemas: Record<string, unknown> = { L18: { type: 'string' } };
    for (let i = 17; i >= 0; i--)
      schemas[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/L${i + 1}` }, b: { $ref: `#/components/schemas/L${i + 1}` } } };
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Slips', version: '2' },
      paths: {
        '/orgs/{org}/repos/{repo}': {
          parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }],
          get: { operationId: 'getRepo', security: [{ missingScheme: [] }], responses: { '200': { description: 'ok' } } },
        },
        '/deep': {
          post: {
            operationId: 'postDeep',
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
      components: { schemas },
    };
    const { report, bundleID } = await importDoc(doc);
    expect(report.items?.map((i) => i.status)).toEqual(['imported', 'imported']);
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/GET \/orgs\/\{org\}\/repos\/\{repo\}: path parameter 'repo' is not described; it became the required text argument 'repo'/),
        expect.stringMatching(/security scheme 'missingScheme' is not defined/),
        expect.stringMatching(/POST \/deep: its schemas pass 20000 nodes/),
      ]),
    );
    const got = await invoke(bundleID, 'get-repo', '2', { org: 'acme', repo: 'rocket ship' });
    expect(got.ok, JSON.stringify(got)).toBe(true);
    expect(seen.at(-1)!.url).toBe('/v1/orgs/acme/repos/rocket%20ship');
    const missing = await core.dispatch('tools.invoke', { bundleID, slug: 'get-repo', version: '2', args: { org: 'acme' } });
    expect(missing.ok).toBe(false);
    const deep = (await core.dispatch('tools.get', { bundleID, slug: 'post-deep', version: '2' })) as { ok: true; data: { argSchema: unknown } };
    expect(JSON.stringify(deep.data.argSchema).length).toBeLessThan(5 * 1024 * 1024);
    const posted = await invoke(bundleID, 'post-deep', '2', { body: { a: { a: { b: {} } } } });
    expect(posted.ok, JSON.stringify(posted)).toBe(true);
  });
});

describe('multipart/form-data bodies', () => {
  it('imports an upload operation and sends the file bytes, text fields and repeated fields as parts', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Files', version: '1' },
      paths: {
        '/files': {
          post: {
            operationId: 'uploadFile',
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: ['file', 'purpose'],
                    properties: {
                      file: { type: 'string', format: 'binary', description: 'The file.' },
                      purpose: { type: 'string', enum: ['assistants', 'batch'] },
                      labels: { type: 'array', items: { type: 'string' } },
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    };
    const { report, bundleID } = await importDoc(doc);
    expect(report.items).toEqual([{ origin: 'POST /files', status: 'imported', slug: 'upload-file', version: '1' }]);
    const tool = (await core.dispatch('tools.get', { bundleID, slug: 'upload-file', version: '1' })) as { ok: true; data: { argSchema: any } };
    expect(tool.data.argSchema.properties.file).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    const bytes = Buffer.from([0xff, 0x00, 0x10, 0x80, 0x41]);
    const sent = await invoke(bundleID, 'upload-file', '1', { file: bytes.toString('base64'), purpose: 'batch', labels: ['a "quoted" one', 'b'] });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const last = seen.at(-1)!;
    expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(last.raw), { headers: { 'content-type': String(last.headers['content-type']) } }).formData();
    const file = form.get('file') as File;
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    expect(form.get('purpose')).toBe('batch');
    expect(form.getAll('labels')).toEqual(['a "quoted" one', 'b']);
    // The exchange shows the file as its size, never its bytes.
    expect(sent.http?.request.body).toContain('[5 bytes]');
    const bad = await invoke(bundleID, 'upload-file', '1', { file: 'not base64!', purpose: 'batch' });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatchObject({ code: 'INVALID_ARGS', message: expect.stringMatching(/argument 'file' must be the file's content as base64/) as string });
  });
});
