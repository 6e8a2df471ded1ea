/**
 * The renderer's production build, in memory: every JS chunk with its bytes (raw and gzip), the
 * modules inside it and the chunks it imports. For the bundle test (structural facts: what the
 * card frame pulls in) and the UI bench (bytes per chunk).
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { transformSync } from 'esbuild';

export interface ChunkInfo {
  fileName: string;
  bytes: number;
  gzipBytes: number;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** Written as a minifier writes (looksMinified). */
  minified: boolean;
  /** A source map was made for it, and the chunk does not point at it. */
  mapApart: boolean;
  /** Module ids (absolute paths, node_modules included). */
  modules: string[];
  /** Chunks loaded with this one (static imports). */
  imports: string[];
  dynamicImports: string[];
}

/** Minified: taking out whitespace again (esbuild) saves under a tenth; on unminified code it saves about a third. */
export function looksMinified(code: string): boolean {
  return transformSync(code, { minifyWhitespace: true, format: 'esm', target: 'esnext' }).code.length >= 0.9 * code.length;
}

const CONFIG = fileURLToPath(new URL('../../renderer/vite.config.ts', import.meta.url));

/** Builds the renderer without writing it; `inlineDynamicImports` builds it as one chunk (no lazy loading). */
export async function rendererChunks(options: { inlineDynamicImports?: boolean } = {}): Promise<ChunkInfo[]> {
  const result = await build({
    configFile: CONFIG,
    logLevel: 'silent',
    // As `npm run build:renderer` builds it: Vitest sets NODE_ENV=test, which would bundle React's development build.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      ...(options.inlineDynamicImports ? { rollupOptions: { output: { inlineDynamicImports: true } } } : {}),
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((o) => o.output)
    .filter((o): o is Rollup.OutputChunk => o.type === 'chunk')
    .map((c) => ({
      fileName: c.fileName,
      bytes: Buffer.byteLength(c.code),
      gzipBytes: gzipSync(c.code).length,
      isEntry: c.isEntry,
      isDynamicEntry: c.isDynamicEntry,
      minified: looksMinified(c.code),
      mapApart: c.map !== null && !c.code.includes('sourceMappingURL'),
      modules: Object.keys(c.modules),
      imports: c.imports,
      dynamicImports: c.dynamicImports,
    }));
}

export function chunkHolding(chunks: readonly ChunkInfo[], moduleSuffix: string): ChunkInfo | undefined {
  return chunks.find((c) => c.modules.some((m) => m.endsWith(moduleSuffix)));
}

/** A chunk and every chunk it loads with it (static imports, transitively): what showing it costs. */
export function staticClosure(chunks: readonly ChunkInfo[], start: ChunkInfo): ChunkInfo[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Map<string, ChunkInfo>();
  const visit = (c: ChunkInfo) => {
    if (seen.has(c.fileName)) return;
    seen.set(c.fileName, c);
    for (const name of c.imports) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  visit(start);
  return [...seen.values()];
}

/** Package names (or source paths) of the modules in some chunks. */
export function packagesIn(chunks: readonly ChunkInfo[]): Set<string> {
  const out = new Set<string>();
  for (const c of chunks) {
    for (const m of c.modules) {
      const at = m.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const rest = m.slice(at + 'node_modules/'.length).split('/');
      out.add(rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!);
    }
  }
  return out;
}
