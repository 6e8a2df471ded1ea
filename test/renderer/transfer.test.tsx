// @vitest-environment jsdom
/**
 * The renderer's side of bundles travelling: sorting what is picked or dropped into the kinds
 * the core imports, reading dropped folders (batched readEntries, nested folders, litter left
 * out), the OpenAPI outline for the preview, the conflict and base-URL rules, and the toasts
 * (three at most, lifted clear of primary buttons).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  captureDrop,
  classify,
  folderFile,
  isZip,
  looksLikeOpenApi,
  sourcesFromDirectoryPick,
  walkDirectory,
  type DropEntry,
} from '../../renderer/src/features/transfer/sources.js';
import { outlineOf, outlineOfText } from '../../renderer/src/features/transfer/openapiOutline.js';
import { needsServerUrl, replaceBlocker } from '../../renderer/src/features/transfer/outcome.js';
import { MAX_VISIBLE_TOASTS, ToastProvider, toastLift, useToast } from '../../renderer/src/components/Toasts.js';

// jsdom gives import.meta.url an http: scheme; vitest runs from the project root.
const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'transfer') + '/';
const enc = new TextEncoder();

afterEach(cleanup);

describe('classify', () => {
  it('knows a ZIP by its first bytes, whatever its name', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    expect(classify('export (1).bin', zip).kind).toBe('zip');
    expect(isZip(new Uint8Array([0x50, 0x4b, 0x05, 0x06]))).toBe(true);
    const renamed = classify('bundles.zip', enc.encode('not a zip'));
    expect(renamed).toMatchObject({ kind: 'unsupported' });
    expect((renamed as { reason: string }).reason).toMatch(/not a ZIP archive/);
  });

  it('sends Markdown to the SKILL.md import and OpenAPI JSON or YAML to the OpenAPI import', async () => {
    expect(classify('SKILL.md', await readFile(`${FIXTURES}weather-skill.md`)).kind).toBe('skill');
    expect(classify('inventory.json', await readFile(`${FIXTURES}inventory-openapi.json`)).kind).toBe('openapi');
    expect(classify('petstore.yml', await readFile(`${FIXTURES}petstore-openapi.yaml`)).kind).toBe('openapi');
    // Swagger 2 goes through too: the core refuses it with the way forward.
    expect(classify('old.json', enc.encode('{"swagger":"2.0","paths":{}}')).kind).toBe('openapi');
  });

  it('sends MCP client configurations and .mcpb packages to the MCP import', async () => {
    const MCP = join(process.cwd(), 'test', 'fixtures', 'mcp', 'configs') + '/';
    expect(classify('claude_desktop_config.json', await readFile(`${MCP}claude_desktop_config.json`))).toMatchObject({ kind: 'mcp', encoding: 'utf8' });
    expect(classify('mcp.json', await readFile(`${MCP}vscode-mcp.json`)).kind).toBe('mcp');
    expect(classify('server.json', await readFile(`${MCP}registry-server.json`)).kind).toBe('mcp');
    expect(classify('inventory.json', await readFile(`${FIXTURES}inventory-openapi.json`)).kind).toBe('openapi');
    const mcpb = classify('files.mcpb', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect(mcpb).toMatchObject({ kind: 'mcp', encoding: 'base64', content: btoa('PK\x03\x04\x01\x02\x03') });
  });

  it('refuses other JSON, YAML whose openapi key is nested, binary text files and unknown kinds, saying what works', () => {
    const plain = classify('package.json', enc.encode('{"name":"x","scripts":{}}'));
    expect(plain).toMatchObject({ kind: 'unsupported' });
    expect((plain as { reason: string }).reason).toMatch(/not an OpenAPI 3 document.*ZIP exports/);
    expect(looksLikeOpenApi('info:\n  openapi: 3.0.0\n', 'yaml')).toBe(false);
    expect(looksLikeOpenApi('openapi: "3.1.0"\npaths: {}\n', 'yaml')).toBe(true);
    expect(classify('x.yaml', new Uint8Array([0xff, 0xfe, 0x00]))).toMatchObject({ kind: 'unsupported', reason: 'is not UTF-8 text' });
    expect((classify('photo.png', new Uint8Array([0x89, 0x50])) as { reason: string }).reason).toMatch(/not a file Toolwright can import/);
  });
});

describe('folders', () => {
  it('sends text as utf8 and anything else as base64, marking #! scripts executable', () => {
    expect(folderFile('runner.sh', enc.encode('#!/bin/sh\necho hi\n'))).toEqual({
      path: 'runner.sh',
      content: '#!/bin/sh\necho hi\n',
      encoding: 'utf8',
      executable: true,
    });
    const bin = folderFile('logo.bin', new Uint8Array([0, 0xff, 0x10, 0x80]));
    expect(bin).toEqual({ path: 'logo.bin', content: 'AP8QgA==', encoding: 'base64' });
  });

  function fileEntry(name: string, text: string): DropEntry {
    return { isFile: true, isDirectory: false, name, file: (ok) => ok(new File([text], name)) };
  }
  function dirEntry(name: string, children: DropEntry[], batch = 2): DropEntry {
    return {
      isFile: false,
      isDirectory: true,
      name,
      createReader() {
        let at = 0;
        // Like Chromium, answers in batches and then an empty list.
        return { readEntries: (ok) => setTimeout(() => ok(children.slice(at, (at += batch)))) };
      },
    };
  }

  it('walks a dropped folder through every readEntries batch, nested folders included, leaving out .git and OS litter', async () => {
    const root = dirEntry('word-count', [
      fileEntry('manifest.json', '{}'),
      fileEntry('Dockerfile', 'FROM scratch'),
      fileEntry('.DS_Store', 'x'),
      dirEntry('.git', [fileEntry('HEAD', 'ref')]),
      dirEntry('lib', [fileEntry('a.sh', '#!/bin/sh'), dirEntry('deep', [fileEntry('b.txt', 'b')])]),
    ]);
    const dt = { items: [{ kind: 'file', webkitGetAsEntry: () => root, getAsFile: () => null }], files: [] } as unknown as DataTransfer;
    const [src] = await captureDrop(dt)();
    expect(src?.kind).toBe('folder');
    if (src?.kind !== 'folder') return;
    expect(src.name).toBe('word-count');
    expect(src.files.map((f) => f.path)).toEqual(['Dockerfile', 'lib/a.sh', 'lib/deep/b.txt', 'manifest.json']);
    expect(src.notes).toEqual(['left out .git/']);
    expect((await walkDirectory(dirEntry('empty', []))).files).toEqual([]);
  });

  it("drops the picked folder's own name from webkitdirectory paths", async () => {
    const pick = (path: string, text: string) => Object.defineProperty(new File([text], path.split('/').pop()!), 'webkitRelativePath', { value: path });
    const [src] = await sourcesFromDirectoryPick([pick('tool/manifest.json', '{}'), pick('tool/bin/run', '#!/bin/sh'), pick('tool/.git/config', 'x')]);
    expect(src).toMatchObject({ kind: 'folder', name: 'tool', notes: ['left out .git/ (1 file)'] });
    expect(src?.kind === 'folder' && src.files.map((f) => [f.path, f.executable ?? false])).toEqual([
      ['bin/run', true],
      ['manifest.json', false],
    ]);
  });
});

describe('OpenAPI outline', () => {
  it('lists each operation of a JSON or YAML document, and gives up on text that is neither', async () => {
    const json = await outlineOfText((await readFile(`${FIXTURES}inventory-openapi.json`)).toString());
    expect(json?.title).toBe('Inventory API');
    expect(json?.operations[0]).toEqual({ method: 'GET', path: '/items/{itemId}', summary: 'Get one item', operationId: 'getItem' });
    const yaml = await outlineOfText((await readFile(`${FIXTURES}petstore-openapi.yaml`)).toString());
    expect(yaml?.operations.length).toBeGreaterThan(0);
    expect(await outlineOfText('{ nope')).toBeNull();
    expect(outlineOf({ paths: { '/x': { parameters: [], trace: {}, post: { description: 'Line one\nline two' } } } }).operations).toEqual([
      { method: 'POST', path: '/x', summary: 'Line one' },
    ]);
  });
});

describe('import rules', () => {
  it('blocks Replace for built-ins and for tool IDs owned by another bundle, not for an ordinary clash', () => {
    const builtins = new Set(['b1']);
    expect(replaceBlocker({ bundleID: 'b1', slug: 'core', reason: 'bundle b1 is a built-in bundle here' }, builtins)).toMatch(/built-in/);
    expect(replaceBlocker({ bundleID: 'b2', slug: 'x', reason: 'tool t v1 of bundle b3 already has one of its tool IDs' }, builtins)).toMatch(/IDs/);
    expect(replaceBlocker({ bundleID: 'b2', slug: 'travel', reason: 'bundle b2 already exists here' }, builtins)).toBeUndefined();
  });

  it('asks for a base URL only when the error is about serverUrl', () => {
    expect(
      needsServerUrl({
        message: 'invalid',
        details: { issues: [{ field: 'servers', message: "the server URL '/api' is relative; give the API's base URL (serverUrl)" }] },
      }),
    ).toBe(true);
    expect(needsServerUrl({ message: 'invalid', details: { issues: [{ field: 'openapi', message: 'must be a 3.x version' }] } })).toBe(false);
    expect(needsServerUrl(undefined)).toBe(false);
  });
});

describe('toasts', () => {
  const stack = { left: 266, right: 646, height: 150 };
  const vh = 820;

  it('stay put when nothing is under them, and lift just above a primary button they would cover', () => {
    expect(toastLift(stack, [{ left: 1120, right: 1235, top: 777, bottom: 809 }], vh)).toBe(0);
    // A sticky footer across the content: the stack rests 8 px above it.
    const lift = toastLift(stack, [{ left: 276, right: 1252, top: 767, bottom: 820 }], vh);
    expect(vh - 18 - lift).toBe(767 - 8);
    // Two in a column: clears both.
    const both = toastLift(
      stack,
      [
        { left: 276, right: 1252, top: 767, bottom: 820 },
        { left: 600, right: 660, top: 700, bottom: 732 },
      ],
      vh,
    );
    expect(vh - 18 - both).toBeLessThanOrEqual(700 - 8);
    // Never above the top bar.
    expect(toastLift(stack, [{ left: 0, right: 2000, top: 80, bottom: 800 }], vh)).toBe(vh - 18 - 150 - 64);
  });

  it('show the newest three at once', () => {
    let api: ReturnType<typeof useToast> | undefined;
    function Grab() {
      api = useToast();
      return null;
    }
    render(
      <ToastProvider>
        <Grab />
      </ToastProvider>,
    );
    act(() => {
      for (let i = 1; i <= 5; i++) api!.show('info', `message ${i}`);
    });
    const shown = screen.getAllByTestId('toast-info').map((t) => t.querySelector('.toast-message')?.textContent);
    expect(shown).toEqual(['message 3', 'message 4', 'message 5']);
    expect(shown).toHaveLength(MAX_VISIBLE_TOASTS);
  });
});
