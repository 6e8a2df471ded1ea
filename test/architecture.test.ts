/**
 * The shape of the house, checked: no import cycle between folders of electron/core, nor between
 * its modules, the renderer's or electron/host's (a cycle means two concerns that cannot be
 * understood apart), no transport reaching a core service beside the dispatcher, the
 * store's memory read only through its StoreReader outside store/, no index.ts barrels anywhere (imports name
 * the module that holds the thing), and a preload small enough to load instantly (it must not
 * pull the contract's schemas in). The layering itself is ESLint's (eslint.config.js).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Folder-to-folder imports below `root` (a file directly in root is its own node). */
export function folderGraph(root: string): Map<string, Map<string, string>> {
  const nodeOf = (file: string) => relative(root, file).split(sep)[0]!;
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(root)) {
    const from = nodeOf(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = normalize(join(dirname(file), m[1]!));
      if (!target.startsWith(root + sep)) continue;
      const to = nodeOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${relative(ROOT, file)} imports ${m[1]}`);
    }
  }
  return graph;
}

/**
 * Module-to-module static imports of the files below `root` into the files below `into` (by default
 * `root` itself); type-only imports too: they tie the two files as much.
 */
export function moduleGraph(root: string, into: string = root): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(root)) {
    const from = relative(ROOT, file);
    const edges = new Map<string, string>();
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const base = normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
      if (target?.startsWith(into + sep)) edges.set(relative(ROOT, target), `${from} imports ${m[1]}`);
    }
    graph.set(from, edges);
  }
  return graph;
}

/** What a transport may import of electron/core: the dispatcher's door and the types around it (operations/transport.ts). ESLint keeps the same set (eslint.config.js, HOST_MAY_IMPORT_OF_CORE). */
const TRANSPORT_DOOR = new Set(['operations/transport.ts', 'operations/dispatch.ts', 'errors.ts', 'log.ts'].map((f) => `electron/core/${f}`));
/** The entry points that build the core (as the Electron shell and the CLI's session do) may also import the composition root. */
const ENTRY_POINTS = new Set(['electron/host/serve.ts', 'electron/host/mcp/entry/stdio.ts']);
const COMPOSITION = new Set(['app-core.ts', 'schedules/scheduler.ts'].map((f) => `electron/core/${f}`));

/** Every import of a transport (a file of electron/host) that reaches a core module beside the dispatcher's door. */
export function coreImportsBesideTheDoor(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, evidence] of edges) {
      const module = to.split(sep).join('/');
      if (TRANSPORT_DOOR.has(module) || (ENTRY_POINTS.has(from.split(sep).join('/')) && COMPOSITION.has(module))) continue;
      found.push(evidence);
    }
  }
  return found;
}

export function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, 'open');
    stack.push(n);
    for (const next of graph.get(n)?.keys() ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of graph.keys()) {
    if (state.has(n)) continue;
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

describe('architecture', () => {
  it('has no import cycle between the folders of electron/core', () => {
    const graph = folderGraph(join(ROOT, 'electron', 'core'));
    const cycle = findCycle(graph);
    const evidence = cycle?.slice(1).map((to, i) => graph.get(cycle[i]!)!.get(to));
    expect(evidence ?? []).toEqual([]);
  });

  it('has no import cycle between the modules of the renderer', () => {
    const graph = moduleGraph(join(ROOT, 'renderer', 'src'));
    expect(graph.size).toBeGreaterThan(50);
    const cycle = findCycle(graph);
    const evidence = cycle?.slice(1).map((to, i) => graph.get(cycle[i]!)!.get(to));
    expect(evidence ?? []).toEqual([]);
  });

  it('has no import cycle between the modules of electron/core', () => {
    const graph = moduleGraph(join(ROOT, 'electron', 'core'));
    expect(graph.size).toBeGreaterThan(50);
    const cycle = findCycle(graph);
    const evidence = cycle?.slice(1).map((to, i) => graph.get(cycle[i]!)!.get(to));
    expect(evidence ?? []).toEqual([]);
  });

  it('has no import cycle between the modules of electron/host', () => {
    const graph = moduleGraph(join(ROOT, 'electron', 'host'));
    expect(graph.size).toBeGreaterThan(20);
    const cycle = findCycle(graph);
    const evidence = cycle?.slice(1).map((to, i) => graph.get(cycle[i]!)!.get(to));
    expect(evidence ?? []).toEqual([]);
  });

  it('lets no transport (REST, IPC, MCP) import a core service beside the dispatcher', () => {
    const graph = moduleGraph(join(ROOT, 'electron', 'host'), join(ROOT, 'electron', 'core'));
    expect([...graph.values()].some((edges) => edges.size > 0)).toBe(true);
    expect(coreImportsBesideTheDoor(graph)).toEqual([]);
  });

  it('the door check finds a transport that imports a core service', () => {
    const graph = new Map([
      ['electron/host/mcp/server/tasks.ts', new Map([['electron/core/agent-surface/tasks.ts', 'tasks.ts imports agent-surface/tasks.js']])],
      ['electron/host/rest/server.ts', new Map([['electron/core/app-core.ts', 'server.ts imports app-core.js']])],
      ['electron/host/serve.ts', new Map([['electron/core/app-core.ts', 'serve.ts imports app-core.js']])],
      ['electron/host/ipc.ts', new Map([['electron/core/operations/transport.ts', 'ipc.ts imports transport.js']])],
    ]);
    expect(coreImportsBesideTheDoor(graph)).toEqual(['tasks.ts imports agent-surface/tasks.js', 'server.ts imports app-core.js']);
  });

  it("reads the store's memory only through StoreReader outside electron/core/store", () => {
    const storeDir = join(ROOT, 'electron', 'core', 'store') + sep;
    const offenders: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'electron'))) {
      if (file.startsWith(storeDir)) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const where = `${relative(ROOT, file)}:${i + 1}`;
        if (/from '[^']*store\/state\.js'/.test(line)) offenders.push(`${where} imports store/state.ts`);
        if (/\bstore\.state\b|\bStoreState\b/.test(line)) offenders.push(`${where} reads the store's state`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('keeps core, host, CLI and shared files to 400 lines, or says at the top why one is longer', () => {
    const long = ['electron/core', 'electron/host', 'electron/cli', 'shared']
      .flatMap((d) => sourceFiles(join(ROOT, d)))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return text.split('\n').length > 401 && !text.startsWith('// Long on purpose: ');
      });
    expect(long.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("keeps the renderer's files, its styles included, to 400 lines, or says at the top why one is longer", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.(tsx?|css)$/.test(name) ? [path] : [];
      });
    const long = files(join(ROOT, 'renderer', 'src')).filter((f) => {
      const text = readFileSync(f, 'utf8');
      return text.split('\n').length > 401 && !/^(\/\/|\/\*) Long on purpose: /.test(text);
    });
    expect(long.map((f) => relative(ROOT, f).split(sep).join('/'))).toEqual([]);
  });

  it('the cycle check finds a cycle when there is one', () => {
    const g = new Map([
      ['a', new Map([['b', 'a→b']])],
      ['b', new Map([['c', 'b→c']])],
      ['c', new Map([['a', 'c→a']])],
    ]);
    expect(findCycle(g)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', new Map([['b', '']])]]))).toBeUndefined();
  });

  it('has no index.ts barrels', () => {
    const barrels = ['electron', 'renderer', 'shared'].flatMap((d) => sourceFiles(join(ROOT, d))).filter((f) => /[/\\]index\.tsx?$/.test(f));
    expect(barrels.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('bundles the preload under 20 KB (it names operations without loading their schemas)', async () => {
    const out = await build({
      entryPoints: [join(ROOT, 'electron', 'preload.ts')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      external: ['electron'],
      logLevel: 'silent',
    });
    const bytes = out.outputFiles[0]!.contents.byteLength;
    expect(bytes).toBeGreaterThan(200);
    expect(bytes).toBeLessThan(20 * 1024);
  });

  it('has a lock that lists every optional platform package (npm ci works on every OS)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const paths = new Set(Object.keys(lock.packages));
    const missing: string[] = [];
    for (const [path, pkg] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
        // Resolution as Node does it: nested node_modules first, then each ancestor, then the top.
        let base = path;
        let found = false;
        for (;;) {
          if (paths.has(`${base ? `${base}/` : ''}node_modules/${dep}`)) {
            found = true;
            break;
          }
          if (!base) break;
          const cut = base.lastIndexOf('/node_modules/');
          base = cut < 0 ? '' : base.slice(0, cut);
        }
        if (!found) missing.push(`${path || '(root)'} → ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
