/**
 * Structural facts of the renderer's build (no timing): the first screen's chunk carries no
 * editor, no form library and no import dialogs; the card frame's chunk, with everything it
 * loads, carries no editor; CodeMirror and rjsf come in chunks loaded on demand; no chunk
 * carries TypeBox.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkHolding, packagesIn, rendererChunks, staticClosure, type ChunkInfo } from '../helpers/renderer-chunks.js';
import { budgetOfChunks, describeBudget, FIRST_SCREEN_GZIP_BUDGET } from '../helpers/renderer-budget.js';

let chunks: ChunkInfo[];
const EDITORS = ['@codemirror/view', '@codemirror/state', '@codemirror/language', '@lezer/common', '@lezer/lr'];

beforeAll(async () => {
  chunks = await rendererChunks();
}, 180_000);

describe('the renderer bundle', () => {
  it('keeps the first screen within its budget, minified, with source maps apart (browser build)', () => {
    const budget = budgetOfChunks(chunks);
    console.log(describeBudget('browser build', budget));
    expect(budget.firstScreenGzipBytes).toBeLessThanOrEqual(FIRST_SCREEN_GZIP_BUDGET);
    for (const c of [...budget.firstScreen, ...budget.lazy]) {
      expect(c.minified, `${c.fileName} is not minified`).toBe(true);
      expect(c.mapApart, `${c.fileName}: no source map, or the chunk points at it`).toBe(true);
    }
  });

  it('keeps CodeMirror, rjsf and the dialogs out of the entry chunk', () => {
    const entry = chunks.filter((c) => c.isEntry);
    expect(entry).toHaveLength(1);
    const packages = packagesIn(staticClosure(chunks, entry[0]!));
    for (const p of [...EDITORS, '@rjsf/core', '@rjsf/utils', 'dompurify', 'yaml']) expect(packages.has(p), p).toBe(false);
    const modules = staticClosure(chunks, entry[0]!).flatMap((c) => c.modules);
    for (const lazy of [
      'features/transfer/TransferDialogs.tsx',
      'features/transfer/ReportDialog.tsx',
      'features/settings/SettingsScreen.tsx',
      'features/tools/editor/ToolEditor.tsx',
      'features/tools/detail/ToolDetail.tsx',
    ]) {
      expect(
        modules.some((m) => m.endsWith(lazy)),
        lazy,
      ).toBe(false);
    }
  });

  it('loads the card frame without an editor', () => {
    const card = chunkHolding(chunks, 'renderer/src/features/card/CardFrame.tsx');
    expect(card).toBeDefined();
    const packages = packagesIn(staticClosure(chunks, card!));
    for (const p of EDITORS) expect(packages.has(p), `${p} is loaded with the card frame`).toBe(false);
    expect(packages.has('dompurify')).toBe(true);
    // Nor does the tool page that shows cards load an editor until raw JSON is asked for.
    const detail = chunkHolding(chunks, 'renderer/src/features/tools/detail/ToolDetail.tsx')!;
    expect(detail.isDynamicEntry).toBe(true);
    for (const p of EDITORS) expect(packagesIn(staticClosure(chunks, detail)).has(p), `${p} is loaded with the tool page`).toBe(false);
  });

  it("loads no schema library with any screen: the file schemas are the core's", () => {
    // TypeBox builds the contract's schemas; the editors need only their plain facts (shared/tool-types/constants.ts).
    expect(packagesIn(chunks).has('@sinclair/typebox')).toBe(false);
  });

  it('puts CodeMirror in chunks loaded on demand', () => {
    const cm = chunkHolding(chunks, '@codemirror/view/dist/index.js')!;
    expect(cm.isEntry).toBe(false);
    const loaders = chunks.filter((c) => c.dynamicImports.includes(cm.fileName) || (c.isDynamicEntry && staticClosure(chunks, c).includes(cm)));
    expect(loaders.length).toBeGreaterThan(0);
    // The syntax modes of build files each come when a file needs them.
    expect(chunkHolding(chunks, '@codemirror/legacy-modes/mode/dockerfile.js')?.isDynamicEntry).toBe(true);
  });
});
