/**
 * A tool type lives in one place per layer (docs/architecture.md, "How to add… a tool type"):
 * generic code asks the type registries what a type can do and never compares a tool's `type` to
 * a type name. ESLint keeps it so (eslint.config.js, `no-restricted-syntax`); these tests show the
 * rule bites on a probe, spares the type folders, and that no generic module compares today.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RULE = 'no-restricted-syntax';

async function restrictedSyntax(path: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) });
  return result!.messages.map((m) => m.message);
}

const PROBE = `
export function probe(file: { type: string }, r: { type: string }): number {
  if (file.type === 'container') return 1;
  if ('pipeline' !== r.type) return 2;
  switch (file.type) {
    case 'http':
      return 3;
    default:
      return 0;
  }
}
`;

describe('generic code never branches on a tool type name', () => {
  it('the lint rule refuses each comparison of a `.type` to a type name in generic code', async () => {
    const messages = await restrictedSyntax('electron/core/invoke/probe.ts', PROBE);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/ask the type registry/);
    expect(await restrictedSyntax('renderer/src/features/tools/Probe.tsx', PROBE)).toHaveLength(3);
    expect(await restrictedSyntax('shared/probe.ts', PROBE)).toHaveLength(3);
  }, 60_000);

  it("spares a type's own folders and the registries, and comparisons that are not about tool types", async () => {
    expect(await restrictedSyntax('electron/core/tool-types/container/probe.ts', PROBE)).toEqual([]);
    expect(await restrictedSyntax('renderer/src/tool-types/probe.tsx', PROBE)).toEqual([]);
    expect(await restrictedSyntax('shared/tool-types/probe.ts', PROBE)).toEqual([]);
    const other = `export const f = (scheme: { type: string }, type: string, o: { kind: string }) =>
      [scheme.type === 'oauth2', type === 'http', o.kind === 'container'];`;
    expect(await restrictedSyntax('electron/core/transfer/foreign/probe.ts', other)).toEqual([]);
  }, 60_000);

  it('no generic module compares a `.type` to a type name', () => {
    const exempt = [/^electron\/core\/tool-types\//, /^electron\/cli\/tool-types\//, /^shared\/tool-types\//, /^renderer\/src\/tool-types\//];
    const comparison = /\.type\s*[!=]==?\s*'(function|http|container|pipeline|mcp|go)'/;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
          const rel = relative(ROOT, path).split(sep).join('/');
          if (exempt.some((e) => e.test(rel))) continue;
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (comparison.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    for (const top of ['electron', 'shared', 'renderer/src']) walk(join(ROOT, top));
    expect(found).toEqual([]);
  });
});
