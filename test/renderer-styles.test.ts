/**
 * The renderer's styles load with the components that use them. A class a component writes must be
 * defined in CSS that is surely there when it renders: CSS its own module reaches through static
 * imports (Vite loads a chunk's CSS before the chunk runs), or CSS main.tsx reaches (loaded first).
 * A class whose only rules sit in a file nobody imports, or in another feature's lazy chunk, looks
 * right only when that chunk happened to load first: the schema builder's spacing (axe's target
 * size) and the merge dialog's layout were lost that way while the screenshots looked fine.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'renderer', 'src');

function filesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesIn(path) : /\.(tsx?|css)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const show = (file: string) => relative(ROOT, file).split(sep).join('/');

/** The modules and stylesheets one module imports statically (`import type` aside; `import()` is not static). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)(?:[^;']*?\sfrom\s+)?'(\.[^']+)';/gm),
    ...text.matchAll(/^export\s+(?!type\s)[^;']*?\sfrom\s+'(\.[^']+)';/gm),
  ].map((m) => m[1]!);
  return specifiers.flatMap((specifier) => {
    const base = normalize(join(dirname(file), specifier));
    if (base.endsWith('.css')) return [base];
    const stem = base.replace(/\.js$/, '');
    return [`${stem}.ts`, `${stem}.tsx`].filter((candidate) => existsSync(candidate));
  });
}

function reachableCss(start: string, imports: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...(imports.get(file) ?? []));
  }
  return new Set([...seen].filter((f) => f.endsWith('.css')));
}

/** Class names a stylesheet's selectors name, comments left out. */
function classesDefined(css: string): string[] {
  return [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
}

/** The fixed class names of className="…", className={'…'} and className={`… ${x} …`} (the interpolations left out). */
function classesWritten(tsx: string): string[] {
  return [...tsx.matchAll(/className=(?:"([^"]*)"|\{'([^']*)'\}|\{`([^`]*)`\})/g)].flatMap((m) =>
    (m[1] ?? m[2] ?? m[3]!)
      .replace(/\$\{[^}]*\}/g, ' ')
      .split(/\s+/)
      .filter(Boolean),
  );
}

describe('renderer styles', () => {
  const files = filesIn(SRC);
  const modules = files.filter((f) => !f.endsWith('.css'));
  const stylesheets = files.filter((f) => f.endsWith('.css'));
  const imports = new Map(modules.map((f) => [f, staticImports(f)]));

  it('imports every stylesheet somewhere (a file nobody imports styles nothing)', () => {
    const imported = new Set([...imports.values()].flat());
    expect(stylesheets.length).toBeGreaterThan(20);
    expect(stylesheets.filter((f) => !imported.has(f)).map(show)).toEqual([]);
  });

  it('gives every class a component writes a rule in CSS that its module or main.tsx imports', () => {
    const definedIn = new Map<string, Set<string>>();
    for (const css of stylesheets) {
      for (const name of classesDefined(readFileSync(css, 'utf8'))) definedIn.set(name, (definedIn.get(name) ?? new Set()).add(css));
    }
    const global = reachableCss(join(SRC, 'app', 'main.tsx'), imports);
    expect(global.has(join(SRC, 'styles', 'base.css'))).toBe(true);
    const unstyled: string[] = [];
    for (const module of modules.filter((f) => f.endsWith('.tsx'))) {
      const loaded = reachableCss(module, imports);
      for (const name of new Set(classesWritten(readFileSync(module, 'utf8')))) {
        const where = definedIn.get(name);
        // A class no stylesheet names is a hook for tests or a parent's selector, not a lost style.
        if (!where || [...where].some((css) => global.has(css) || loaded.has(css))) continue;
        unstyled.push(`${show(module)}: .${name} is styled only in ${[...where].map(show).join(', ')}, which it does not import`);
      }
    }
    expect(unstyled).toEqual([]);
  });

  it('reads the class names of JSX and of selectors as the check needs them', () => {
    expect(classesWritten('<div className="a b"><p className={`c ${d ? "e" : ""} f`} /><i className={\'g\'} /></div>')).toEqual(['a', 'b', 'c', 'f', 'g']);
    expect(classesDefined('/* .gone */ .sb-row > .check:hover, .x-1 { width: 0.5px; }')).toEqual(['sb-row', 'check', 'x-1']);
  });
});
