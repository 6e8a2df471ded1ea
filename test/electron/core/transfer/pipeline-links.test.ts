/**
 * Pipelines across an export and an import: the archive carries the bundles a pipeline calls
 * into and names them by slug; the import re-links each step (to a copy's new bundle ID, or to
 * the bundle of that slug here), reports per pipeline the steps whose tool is not here, and
 * refuses, writing nothing, a pipeline that would call itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import yauzl from 'yauzl';
import { pipelineWorld, rejection, type PipelineWorld } from '../../../helpers/pipelines.js';
import { bundleJson, rawZip, toolJson } from '../../../helpers/transfer.js';

let a: PipelineWorld;
let b: PipelineWorld;
let maths: string;

beforeEach(async () => {
  [a, b] = await Promise.all([pipelineWorld(), pipelineWorld()]);
  maths = uuidv7();
  await a.core.bundles.put(maths, { slug: 'maths', displayName: 'Maths' });
  await a.fnTool(
    'add',
    'test.add',
    { argSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
    maths,
  );
  await a.fnTool('double', 'test.double');
  await a.pipeline(
    'calc',
    {
      steps: [
        { id: 'd', tool: { slug: 'double', version: 'v1' }, args: { n: '${input.n}' } },
        { id: 'plus', tool: { bundleID: maths, slug: 'add', version: 'v1' }, args: { a: '${steps.d.value}', b: 1 } },
      ],
    },
    { argSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
  );
});
afterEach(() => Promise.all([a.close(), b.close()]));

/** The archive's entries by name, as JSON. */
async function entries(zip: Uint8Array): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const file = await new Promise<yauzl.ZipFile>((res, rej) => yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true }, (e, z) => (e ? rej(e) : res(z!))));
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (e, stream) => {
        if (e) return reject(e);
        const chunks: Buffer[] = [];
        stream!.on('data', (c: Buffer) => chunks.push(c));
        stream!.on('end', () => {
          out.set(entry.fileName, JSON.parse(Buffer.concat(chunks).toString('utf8')));
          file.readEntry();
        });
      });
    });
    file.on('end', () => resolve());
    file.on('error', reject);
    file.readEntry();
  });
  return out;
}

const calcRef = (bundleID: string) => ({ bundleID, slug: 'calc', version: 'v1' });

describe('exporting a pipeline', () => {
  it('carries the bundles its steps call into, and names them by slug', async () => {
    const { zip, fileName } = await a.core.transfer.exportBundles([a.bundleID]);
    expect(fileName).toBe('lab.zip');
    const files = await entries(zip);
    expect(files.has(`bundles/${maths}/bundle.json`)).toBe(true);
    const calc = [...files.values()].find((f) => (f as { slug?: string }).slug === 'calc') as { impl: { steps: { tool: unknown }[] } };
    expect(calc.impl.steps[1]!.tool).toEqual({ bundleID: maths, bundleSlug: 'maths', slug: 'add', version: 'v1' });
    expect(calc.impl.steps[0]!.tool).toEqual({ slug: 'double', version: 'v1' });
  });
});

describe('importing a pipeline', () => {
  it('works on another machine: the bundles it calls come along and every step finds its tool', async () => {
    const { zip } = await a.core.transfer.exportBundles([a.bundleID]);
    const report = await b.core.transfer.importZip(zip, 'skip');
    expect(report.created.map((c) => c.slug).sort()).toEqual(['lab', 'maths']);
    expect(report.pipelines).toEqual([{ bundleID: a.bundleID, slug: 'calc', version: 'v1', relinked: 0, missing: [] }]);
    expect((await b.core.invocations.invoke(calcRef(a.bundleID), { args: { n: 4 } })).value).toBe(9);
  });

  it('re-links steps to the copies when imported as a copy', async () => {
    const { zip } = await a.core.transfer.exportBundles([a.bundleID]);
    const report = await a.core.transfer.importZip(zip, 'copy');
    // Copies get <slug>-copy; the steps follow them by ID.
    const labCopy = report.created.find((c) => c.slug === 'lab-copy')!.bundleID;
    const mathsCopy = report.created.find((c) => c.slug === 'maths-copy')!.bundleID;
    expect(labCopy).not.toBe(a.bundleID);
    expect(report.pipelines).toEqual([{ bundleID: labCopy, slug: 'calc', version: 'v1', relinked: 1, missing: [] }]);
    const copy = await a.core.tools.get(calcRef(labCopy));
    expect((copy.impl as { steps: { tool: unknown }[] }).steps[1]!.tool).toEqual({ bundleID: mathsCopy, slug: 'add', version: 'v1' });
    const result = await a.core.invocations.invoke(calcRef(labCopy), { args: { n: 1 } });
    expect(result.value).toBe(3);
    expect(result.steps!.map((s) => s.tool.bundleID)).toEqual([labCopy, mathsCopy]);
  });

  it('reports the steps whose tool is not here, and the pipeline stays unavailable naming it', async () => {
    // maths in the Trash: the export leaves it out, the pipeline still names it by slug.
    await a.core.bundles.softDelete(maths);
    const { zip } = await a.core.transfer.exportBundles([a.bundleID]);
    const dry = await b.core.transfer.importZip(zip, 'skip', { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.pipelines?.[0]?.missing).toEqual([{ step: 'plus', tool: 'maths/add v1', reason: 'no bundle here holds maths/add v1' }]);
    expect(b.core.store.state.bundles.has(a.bundleID)).toBe(false);

    const report = await b.core.transfer.importZip(zip, 'skip');
    expect(report.pipelines).toEqual([
      {
        bundleID: a.bundleID,
        slug: 'calc',
        version: 'v1',
        relinked: 0,
        missing: [{ step: 'plus', tool: 'maths/add v1', reason: 'no bundle here holds maths/add v1' }],
      },
    ]);
    expect(report.warnings?.join('\n')).toMatch(/pipeline calc v1 calls tools that are not here \(step "plus": maths\/add v1\); it stays unavailable/);
    const view = await b.core.tools.get(calcRef(a.bundleID));
    expect(view.availability.ok).toBe(false);
    expect(view.availability.reason).toMatch(/^step "plus": bundle maths does not exist here/);
  });

  it('finds a step tool by its bundle slug when the bundle ID is not known here', async () => {
    await a.core.bundles.softDelete(maths);
    const { zip } = await a.core.transfer.exportBundles([a.bundleID]);
    const theirs = uuidv7();
    await b.core.bundles.put(theirs, { slug: 'maths' });
    await b.fnTool('add', 'test.add', {}, theirs);
    const report = await b.core.transfer.importZip(zip, 'skip');
    expect(report.pipelines).toEqual([{ bundleID: a.bundleID, slug: 'calc', version: 'v1', relinked: 1, missing: [] }]);
    const result = await b.core.invocations.invoke(calcRef(a.bundleID), { args: { n: 10 } });
    expect(result.value).toBe(21);
    expect(result.steps![1]!.tool.bundleID).toBe(theirs);
  });

  it('refuses, writing nothing, pipelines that would call each other in a loop', async () => {
    const bundleID = uuidv7();
    const [p, q] = [uuidv7(), uuidv7()];
    const pipeline = (slug: string, calls: string) =>
      toolJson(bundleID, slug === 'p' ? p : q, {
        slug,
        type: 'pipeline',
        impl: { steps: [{ id: 'next', tool: { slug: calls, version: 'v1' } }] } as never,
      });
    const zip = rawZip([
      { name: `bundles/${bundleID}/bundle.json`, data: bundleJson(bundleID, { slug: 'loops' }) },
      { name: `bundles/${bundleID}/tools/${p}/tool.json`, data: pipeline('p', 'q') },
      { name: `bundles/${bundleID}/tools/${q}/tool.json`, data: pipeline('q', 'p') },
    ]);
    const e = await rejection(b.core.transfer.importZip(zip, 'skip'));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(
      /The import was refused, nothing was written: .*pipeline [pq] v1: impl\.steps\[0\]\.tool step "next" calls [pq] v1, which calls this pipeline back/,
    );
    expect(b.core.store.state.bundles.has(bundleID)).toBe(false);
  });
});
