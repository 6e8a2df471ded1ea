import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { fileSearchFunction, MAX_SEARCH_FILE_BYTES, type FileSearchValue } from '../../../../electron/core/functions/file-search.js';
import { globFunction } from '../../../../electron/core/functions/glob.js';
import { compileGlob, expandBraces } from '../../../../electron/core/functions/glob-pattern.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

const runner = createFunctionRunner(createFunctionRegistry());
const SECRET = 'OUTSIDE-SECRET-needle';
let base: string;
let root: string;

beforeAll(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'tw-fsearch-')));
  root = path.join(base, 'ws');
  const files: Record<string, string | Buffer> = {
    'README.md': '# Project\nneedle in the readme\n',
    'src/main.ts': 'import x from "y";\n// TODO: first\nconst needle = 1;\nexport function go() {}\n// todo: lower\n',
    'src/util/deep.ts': 'line1\nline2\nneedle here\nline4\nline5\n',
    'src/util/notes.txt': 'needle\r\nwindows line\r\n',
    'test/main.test.ts': 'needle test\n',
    'node_modules/pkg/index.js': 'needle in a package\n',
    '.git/HEAD': 'needle in git\n',
    'bin/blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]),
    'weird name [1].md': 'needle weird\n',
  };
  for (const [rel, content] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fsp.writeFile(path.join(root, rel), content);
  }
  await fsp.mkdir(path.join(base, 'outside'));
  await fsp.writeFile(path.join(base, 'outside', 'secret.ts'), SECRET);
  await fsp.symlink(path.join(base, 'outside'), path.join(root, 'src', 'out-link'));
  await fsp.symlink(path.join(base, 'outside', 'secret.ts'), path.join(root, 'src', 'secret-link.ts'));
  await fsp.symlink('.', path.join(root, 'src', 'self-loop'));
});

afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

const search = async (args: Record<string, unknown>) =>
  (await runner.run(contextFor('core.fileSearch', args, { config: { workspaceRoot: root } }))).value as FileSearchValue;
const glob = async (args: Record<string, unknown>) =>
  (await runner.run(contextFor('core.glob', args, { config: { workspaceRoot: root } }))).value as {
    matches: { path: string; type: string; size?: number }[];
    total: number;
    truncated: boolean;
  };

describe('glob patterns', () => {
  it.each([
    ['src/**/*.ts', 'src/main.ts', true],
    ['src/**/*.ts', 'src/util/deep.ts', true],
    ['src/**/*.ts', 'test/main.test.ts', false],
    ['**/*.ts', 'main.ts', true],
    ['*.ts', 'src/main.ts', false],
    ['*.{md,txt}', 'README.md', true],
    ['src/{util,lib}/*.txt', 'src/util/notes.txt', true],
    ['data/[0-9]?.csv', 'data/42.csv', true],
    ['data/[!0-9]?.csv', 'data/42.csv', false],
    ['weird name \\[1\\].md', 'weird name [1].md', true],
    ['a/**', 'a/b/c', true],
    ['a?c', 'a/c', false],
    ['.*', '.git', true],
  ])('%s against %s is %s', (pattern, candidate, expected) => {
    expect(compileGlob(pattern).test(candidate)).toBe(expected);
  });

  it('runs in linear time: a pattern crafted to backtrack answers at once on a long path', () => {
    const evil = compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b');
    const started = process.hrtime.bigint();
    expect(evil.test('a'.repeat(4000))).toBe(false);
    // A backtracking engine takes minutes here; RE2 takes microseconds. Generous bound for a loaded CI machine.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5000);
  });

  it('refuses unbalanced braces and sets, absolute globs, .. and a brace bomb', () => {
    expect(() => compileGlob('{a,b')).toThrow(/without its '}'/);
    expect(() => compileGlob('a}')).toThrow(/without its '{'/);
    expect(() => compileGlob('[abc')).toThrow(/without its '\]'/);
    expect(() => compileGlob('/etc/*')).toThrow(/absolute/);
    expect(() => compileGlob('../*')).toThrow(/'\.\.'/);
    expect(() => compileGlob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}')).toThrow(/more than 256 alternatives/);
    expect(expandBraces('x{a,{b,c}}y')).toEqual(['xay', 'xby', 'xcy']);
  });
});

describe('core.glob', () => {
  it('lists files matching, relative to the root, sorted, leaving out .git and node_modules by default', async () => {
    const v = await glob({ pattern: '**/*.ts' });
    expectMatchesOutputSchema(globFunction, v);
    expect(v.matches.map((m) => m.path)).toEqual(['src/main.ts', 'src/secret-link.ts', 'src/util/deep.ts', 'test/main.test.ts']);
    expect(v.matches.find((m) => m.path === 'src/secret-link.ts')).toMatchObject({ type: 'symlink' });
    expect(v.matches[0]).toMatchObject({ type: 'file', size: (await fsp.stat(path.join(root, 'src/main.ts'))).size });
    const all = await glob({ pattern: '**/*.js', exclude: [] });
    expect(all.matches.map((m) => m.path)).toEqual(['node_modules/pkg/index.js']);
    const below = await glob({ pattern: '*.ts', path: 'src/util' });
    expect(below.matches.map((m) => m.path)).toEqual(['src/util/deep.ts']);
    const folders = await glob({ pattern: 'src/*', includeFolders: true });
    expect(folders.matches.map((m) => m.path)).toContain('src/util');
    const capped = await glob({ pattern: '**', maxResults: 2 });
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.matches).toHaveLength(2);
  });

  it('never walks through a symbolic link, so nothing outside is listed and a loop ends', async () => {
    const v = await glob({ pattern: '**/secret*' });
    expect(v.matches.map((m) => m.path)).toEqual(['src/secret-link.ts']);
    expect(JSON.stringify(v)).not.toContain('out-link/');
    // A literal folder in the pattern is reached like `path` (a link that stays inside is followed once); below it nothing is.
    const loop = await glob({ pattern: 'src/self-loop/**' });
    expect(loop.matches.map((m) => m.path)).toEqual([
      'src/self-loop/main.ts',
      'src/self-loop/out-link',
      'src/self-loop/secret-link.ts',
      'src/self-loop/self-loop',
      'src/self-loop/util/deep.ts',
      'src/self-loop/util/notes.txt',
    ]);
  });

  it.each([
    [{ pattern: '../*' }, 'INVALID_ARGS'],
    [{ pattern: '/etc/*' }, 'INVALID_ARGS'],
    [{ pattern: '*', path: '../' }, 'FORBIDDEN'],
    [{ pattern: '*', path: 'src/out-link' }, 'FORBIDDEN'],
    [{ pattern: '*', path: 'README.md' }, 'INVALID_ARGS'],
    [{ pattern: '*', exclude: ['{'] }, 'INVALID_ARGS'],
  ])('refuses %j', async (args, code) => {
    const err = await coreErrorOf(() => glob(args));
    expect(err.code).toBe(code);
    expect(err.message).not.toContain(SECRET);
  });
});

describe('core.fileSearch', () => {
  it('finds lines with path, line and column, in path order, skipping binaries, links, .git and node_modules', async () => {
    const v = await search({ pattern: 'needle' });
    expectMatchesOutputSchema(fileSearchFunction, v);
    expect(v.matches.map((m) => `${m.path}:${m.line}:${m.column}`)).toEqual([
      'README.md:2:1',
      'src/main.ts:3:7',
      'src/util/deep.ts:3:1',
      'src/util/notes.txt:1:1',
      'test/main.test.ts:1:1',
      'weird name [1].md:1:1',
    ]);
    expect(v.skipped.binary).toBe(1);
    expect(v.filesMatched).toBe(6);
    expect(v.truncated).toBe(false);
    expect(JSON.stringify(v)).not.toContain(SECRET);
  });

  it('gives context lines, case-insensitive and literal matching, and a glob filter', async () => {
    const ctxd = await search({ pattern: 'needle here', contextLines: 2 });
    expect(ctxd.matches).toEqual([
      { path: 'src/util/deep.ts', line: 3, column: 1, text: 'needle here', before: ['line1', 'line2'], after: ['line4', 'line5'] },
    ]);
    const todos = await search({ pattern: 'todo:', caseInsensitive: true, glob: '**/*.ts' });
    expect(todos.matches.map((m) => m.line)).toEqual([2, 5]);
    const literal = await search({ pattern: 'go()', literal: true });
    expect(literal.matches.map((m) => m.text)).toEqual(['export function go() {}']);
    const anchored = await search({ pattern: 'needle$' });
    expect(anchored.matches.map((m) => m.path)).toEqual(['src/util/notes.txt']); // CRLF lines end before \r
  });

  it('stops at maxMatches and says so', async () => {
    const v = await search({ pattern: 'needle', maxMatches: 2 });
    expect(v.matches).toHaveLength(2);
    expect(v).toMatchObject({ truncated: true, note: 'stopped at maxMatches (2)' });
  });

  it('cuts very long lines around the match and skips files over the size cap', async () => {
    await fsp.writeFile(path.join(root, 'long.txt'), 'x'.repeat(5000) + 'FINDME' + 'y'.repeat(5000));
    await fsp.writeFile(path.join(root, 'huge.txt'), 'FINDME\n' + 'z'.repeat(MAX_SEARCH_FILE_BYTES));
    try {
      const v = await search({ pattern: 'FINDME' });
      expect(v.matches).toHaveLength(1);
      expect(v.matches[0]!.text.length).toBeLessThanOrEqual(402);
      expect(v.matches[0]!.text).toContain('FINDME');
      expect(v.skipped.tooLarge).toBe(1);
    } finally {
      await fsp.rm(path.join(root, 'long.txt'));
      await fsp.rm(path.join(root, 'huge.txt'));
    }
  });

  it('answers a catastrophic pattern in linear time on a hostile line', async () => {
    await fsp.writeFile(path.join(root, 'redos.txt'), 'a'.repeat(50_000) + '!');
    try {
      const v = await search({ pattern: '^(a+)+$', glob: 'redos.txt' });
      expect(v.matches).toEqual([]);
    } finally {
      await fsp.rm(path.join(root, 'redos.txt'));
    }
  });

  it.each([
    [{ pattern: '(a)\\1' }, 'backreference'],
    [{ pattern: '(?=x)' }, 'linear'],
    [{ pattern: '[' }, 'cannot be compiled'],
    [{ pattern: 'x', path: '../' }, "'..' is not accepted"],
    [{ pattern: 'x', path: 'src/out-link' }, 'leads outside'],
    [{ pattern: 'x', glob: '**/{a' }, "without its '}'"],
  ])('refuses %j', async (args, message) => {
    const err = await coreErrorOf(() => search(args));
    expect(['INVALID_ARGS', 'FORBIDDEN']).toContain(err.code);
    expect(err.message).toContain(message);
  });
});
