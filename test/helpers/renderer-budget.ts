/**
 * The first screen's JavaScript budget, for both renderer builds: the chunks a start loads (the
 * entry and what it imports statically) against FIRST_SCREEN_GZIP_BUDGET, every other chunk
 * reported as loaded on demand. The browser build is read from Rollup's chunk graph
 * (renderer-chunks.ts), the desktop build from electron-vite's output on disk.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { looksMinified, staticClosure, type ChunkInfo } from './renderer-chunks.js';

export const FIRST_SCREEN_GZIP_BUDGET = 300 * 1024;

export interface BudgetChunk {
  fileName: string;
  bytes: number;
  gzipBytes: number;
  /** Written on few long lines, as a minifier does (unminified code averages well under 100 characters a line). */
  minified: boolean;
  /** Its source map exists beside it, and the chunk does not point at it. */
  mapApart: boolean;
}

export interface Budget {
  firstScreen: BudgetChunk[];
  lazy: BudgetChunk[];
  firstScreenGzipBytes: number;
}

function budget(firstScreen: BudgetChunk[], lazy: BudgetChunk[]): Budget {
  return { firstScreen, lazy, firstScreenGzipBytes: firstScreen.reduce((sum, c) => sum + c.gzipBytes, 0) };
}

/** From the browser build's chunk graph. */
export function budgetOfChunks(chunks: readonly ChunkInfo[]): Budget {
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  const first = new Set(staticClosure(chunks, entry));
  const row = (c: ChunkInfo): BudgetChunk => ({ fileName: c.fileName, bytes: c.bytes, gzipBytes: c.gzipBytes, minified: c.minified, mapApart: c.mapApart });
  return budget([...first].map(row), chunks.filter((c) => !first.has(c)).map(row));
}

// Static imports in Vite's output: `import{a as b}from"./x.js"` or `import"./x.js"`; a lazy one is `import("./x.js")`.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g;
const ENTRY_TAGS = /<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/([^"]+\.js)"/g;

/** From a built renderer folder (index.html and assets/). */
export async function budgetOfFolder(rendererDir: string): Promise<Budget> {
  const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
  const assets = await readdir(join(rendererDir, 'assets'));
  const chunks = new Map<string, { code: string; info: BudgetChunk }>();
  for (const name of assets.filter((a) => a.endsWith('.js'))) {
    const code = await readFile(join(rendererDir, 'assets', name), 'utf8');
    const mapApart = assets.includes(`${name}.map`) && !code.includes('sourceMappingURL');
    const info = { fileName: `assets/${name}`, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, minified: looksMinified(code), mapApart };
    chunks.set(info.fileName, { code, info });
  }
  const first = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = chunks.get(fileName);
    if (!chunk || first.has(fileName)) return;
    first.add(fileName);
    const dir = fileName.slice(0, fileName.lastIndexOf('/') + 1);
    for (const m of chunk.code.matchAll(STATIC_IMPORT)) visit(dir + m[1]!.slice(2));
  };
  for (const m of html.matchAll(ENTRY_TAGS)) visit(m[1]!);
  if (first.size === 0) throw new Error(`${rendererDir}/index.html loads no script`);
  const all = [...chunks.values()].map((c) => c.info);
  return budget(
    all.filter((c) => first.has(c.fileName)),
    all.filter((c) => !first.has(c.fileName)),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The budget as a table: the first screen's chunks, its total against the budget, then each lazy chunk. */
export function describeBudget(label: string, b: Budget): string {
  const line = (c: BudgetChunk) => `  ${c.fileName.padEnd(52)} ${kb(c.bytes).padStart(10)} ${kb(c.gzipBytes).padStart(10)} gzip`;
  return [
    `${label}: first screen ${kb(b.firstScreenGzipBytes)} gzip (budget ${kb(FIRST_SCREEN_GZIP_BUDGET)})`,
    ...b.firstScreen.map(line),
    `${label}: loaded on demand (${b.lazy.length} chunks)`,
    ...[...b.lazy].sort((x, y) => y.gzipBytes - x.gzipBytes).map(line),
  ].join('\n');
}
