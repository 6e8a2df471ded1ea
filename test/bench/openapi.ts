/**
 * OpenAPI import of a generated 3 MB description (330 operations, 3.0 dialect, shared $refs,
 * examples), dry run and real, against a plain baseline in the same run: JSON.parse of the
 * document plus a walk that inlines every $ref of each operation without any checks.
 * Goal: the import ≤ 2 s here, the dry run no slower than the import.
 */
import { rm } from 'node:fs/promises';
import { createCore } from '../../electron/core/app-core.js';
import { tempDir } from '../helpers/store.js';
import { median, row } from './util.js';

function document(): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 120; i++) {
    schemas[`Model${i}`] = {
      type: 'object',
      description: 'A model with a long description. '.repeat(700),
      properties: Object.fromEntries(
        Array.from({ length: 25 }, (_, j) => [`field${j}`, { type: j % 3 ? 'string' : 'integer', nullable: j % 5 === 0, description: `Field ${j}` }]),
      ),
      example: { $ref: `#/components/schemas/Model${i}` },
    };
  }
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 110; i++) {
    const ref = { $ref: `#/components/schemas/Model${i % 120}` };
    paths[`/resources${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${i}`, responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } } },
      put: { operationId: `put${i}`, requestBody: { content: { 'application/json': { schema: ref } } }, responses: { '200': { description: 'ok' } } },
      delete: { operationId: `delete${i}`, responses: { '204': { description: 'gone' } } },
    };
  }
  return JSON.stringify({
    openapi: '3.0.1',
    info: { title: 'Huge', version: '1' },
    servers: [{ url: 'https://huge.example' }],
    paths,
    components: { schemas },
  });
}

function plainWalk(text: string): number {
  const doc = JSON.parse(text) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (!node || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    if (typeof o['$ref'] === 'string') return resolve(doc.components.schemas[(o['$ref'] as string).split('/').pop()!]);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'example' ? v : resolve(v)]));
  };
  let n = 0;
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) if (resolve(op)) n++;
  return n;
}

export async function run(): Promise<void> {
  const text = document();
  console.log(`  document: ${(text.length / 1024 / 1024).toFixed(1)} MB, 330 operations`);
  const dataDir = await tempDir('tw-bench-openapi-');
  const core = await createCore({ dataDir, docker: false });
  try {
    const dry: number[] = [];
    const real: number[] = [];
    const base: number[] = [];
    for (let round = 0; round < 3; round++) {
      let t0 = performance.now();
      plainWalk(text);
      base.push(performance.now() - t0);
      t0 = performance.now();
      const d = await core.transfer.importOpenApi(text, { dryRun: true });
      dry.push(performance.now() - t0);
      if (d.toolCount !== 330) throw new Error(`dry run saw ${d.toolCount} tools`);
      t0 = performance.now();
      await core.transfer.importOpenApi(text);
      real.push(performance.now() - t0);
    }
    console.log(row('OpenAPI import (3 MB), median', median(real), median(base)));
    console.log(row('OpenAPI dry run (3 MB), median', median(dry), median(base)));
  } finally {
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
