/**
 * A pipeline's save checks, through the real ToolService of a real core: every referenced tool
 * exists (own bundle, or by bundleID), step IDs are unique and well-formed, templates read only
 * the pipeline's arguments and earlier steps, arguments fit the step's tool, and no pipeline
 * reaches itself through others. Each refusal is a 400 naming the step and how to fix it; and a
 * pipeline is saved as dangerous as its most dangerous step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { pipelineWorld, rejection, type PipelineWorld } from '../../../helpers/pipelines.js';

let w: PipelineWorld;
beforeEach(async () => {
  w = await pipelineWorld();
  await w.fnTool('double', 'test.double');
  await w.fnTool('echo', 'test.echo');
});
afterEach(() => w.close());

function issues(e: { details?: { issues?: { field: string; message: string }[] } }): Record<string, string> {
  return Object.fromEntries((e.details?.issues ?? []).map((i) => [i.field, i.message]));
}

const N_ARGS = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

describe('pipeline save checks', () => {
  it('saves a pipeline whose steps call existing tools, in its bundle and in others', async () => {
    const other = uuidv7();
    await w.core.bundles.put(other, { slug: 'maths' });
    await w.fnTool('add', 'test.add', {}, other);
    const saved = await w.pipeline(
      'sum-double',
      {
        steps: [
          { id: 'd', tool: { slug: 'double', version: 'v1' }, args: { n: '${input.n}' } },
          { id: 's', tool: { bundleID: other, slug: 'add', version: 'v1' }, args: { a: '${steps.d.value}', b: 1 } },
        ],
        output: { doubled: '${steps.d.value}', plusOne: '${steps.s.value}' },
      },
      { argSchema: N_ARGS },
    );
    expect(saved.type).toBe('pipeline');
    expect(saved.availability).toEqual({ ok: true });
    expect(saved.safety).toBe('readOnly');
  });

  it('refuses a step whose tool does not exist, naming the step, the bundle and the fix', async () => {
    const e = await rejection(
      w.pipeline('p', {
        steps: [
          { id: 'a', tool: { slug: 'double', version: 'v9' }, args: { n: 1 } },
          { id: 'b', tool: { bundleID: uuidv7(), slug: 'double', version: 'v1' } },
        ],
      }),
    );
    expect(e.code).toBe('INVALID_INPUT');
    const byField = issues(e);
    expect(byField['impl.steps[0].tool']).toMatch(/step "a": this bundle has no tool double v9; pick an existing tool/);
    expect(byField['impl.steps[1].tool']).toMatch(/step "b": there is no bundle .* here/);
  });

  it('requires a version for each step tool (the schema)', async () => {
    const e = await rejection(w.pipeline('p', { steps: [{ id: 'a', tool: { slug: 'double' } }] }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(e.details)).toMatch(/impl\.steps\[0\]\.tool.*version/);
  });

  it('refuses duplicate or malformed step IDs', async () => {
    const e = await rejection(
      w.pipeline('p', {
        steps: [
          { id: 'a', tool: { slug: 'echo', version: 'v1' } },
          { id: 'a', tool: { slug: 'echo', version: 'v1' } },
        ],
      }),
    );
    expect(issues(e)['impl.steps[1].id']).toMatch(/"a" is also the ID of step 1; step IDs must be unique/);
    const bad = await rejection(w.pipeline('q', { steps: [{ id: '1st step', tool: { slug: 'echo', version: 'v1' } }] }));
    expect(JSON.stringify(bad.details)).toMatch(/impl\.steps\[0\]\.id/);
  });

  it('lets templates read only argSchema properties and earlier steps', async () => {
    const e = await rejection(
      w.pipeline(
        'p',
        {
          steps: [
            { id: 'a', tool: { slug: 'echo', version: 'v1' }, args: { x: '${steps.b.value}', y: '${input.town}', z: '${steps.a.value}' } },
            { id: 'b', tool: { slug: 'echo', version: 'v1' }, args: { x: '${API_KEY}' } },
          ],
          output: '${steps.c.value}',
        },
        { argSchema: { type: 'object', properties: { city: { type: 'string' } } } },
      ),
    );
    const byField = issues(e);
    expect(byField['impl.steps[0].args.x']).toMatch(/reads step "b", which runs after this one/);
    expect(byField['impl.steps[0].args.y']).toMatch(/\$\{input\.town\} names no argument of this pipeline \(its arguments: city\)/);
    expect(byField['impl.steps[0].args.z']).toMatch(/this step's own value/);
    expect(byField['impl.steps[1].args.x']).toMatch(/not a pipeline placeholder/);
    expect(byField['impl.output']).toMatch(/no step "c"/);
  });

  it('checks arguments against the step tool: required ones given, unknown ones refused', async () => {
    await w.fnTool('strict', 'test.echo', {
      argSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false },
    });
    const e = await rejection(w.pipeline('p', { steps: [{ id: 'w', tool: { slug: 'strict', version: 'v1' }, args: { days: 2, town: 'x' } }] }));
    const byField = issues(e);
    expect(byField['impl.steps[0].args.city']).toMatch(/step "w" does not give lab\/strict v1 its required argument "city"/);
    expect(byField['impl.steps[0].args.town']).toMatch(/lab\/strict v1 has no argument "town" \(its arguments: city, days\)/);
  });

  it('refuses a pipeline that calls itself, directly or through others', async () => {
    const self = await rejection(w.pipeline('loop', { steps: [{ id: 'me', tool: { slug: 'loop', version: 'v1' } }] }));
    expect(issues(self)['impl.steps[0].tool']).toMatch(/calls this pipeline itself|this bundle has no tool loop v1/);
    await w.pipeline('loop', { steps: [{ id: 'e', tool: { slug: 'echo', version: 'v1' } }] });
    const again = await rejection(
      w.core.tools.update(
        { bundleID: w.bundleID, slug: 'loop', version: 'v1' },
        { type: 'pipeline', impl: { steps: [{ id: 'me', tool: { slug: 'loop', version: 'v1' } }] } },
      ),
    );
    expect(issues(again)['impl.steps[0].tool']).toBe('step "me" calls this pipeline itself; a pipeline cannot call itself');

    await w.pipeline('b', { steps: [{ id: 'e', tool: { slug: 'echo', version: 'v1' } }] });
    await w.pipeline('a', { steps: [{ id: 'callb', tool: { slug: 'b', version: 'v1' } }] });
    // b → a → b: editing b to call a closes the loop.
    const e = await rejection(
      w.core.tools.update(
        { bundleID: w.bundleID, slug: 'b', version: 'v1' },
        { type: 'pipeline', impl: { steps: [{ id: 'calla', tool: { slug: 'a', version: 'v1' } }] } },
      ),
    );
    expect(issues(e)['impl.steps[0].tool']).toMatch(/step "calla" calls a v1, which calls this pipeline back \(b → a → b\)/);

    // Three deep, across bundles: c → b → a → c.
    const far = uuidv7();
    await w.core.bundles.put(far, { slug: 'far' });
    await w.pipeline('c', { steps: [{ id: 'x', tool: { bundleID: w.bundleID, slug: 'a', version: 'v1' } }] }, {}, far);
    const e3 = await rejection(
      w.core.tools.update(
        { bundleID: w.bundleID, slug: 'b', version: 'v1' },
        { type: 'pipeline', impl: { steps: [{ id: 'toc', tool: { bundleID: far, slug: 'c', version: 'v1' } }] } },
      ),
    );
    expect(issues(e3)['impl.steps[0].tool']).toMatch(/\(b → c → a → b\)/);
    // Nothing was written: b still calls echo.
    const b = await w.core.tools.get({ bundleID: w.bundleID, slug: 'b', version: 'v1' });
    expect(JSON.stringify(b.impl)).toContain('echo');
  });

  it('saves a pipeline as dangerous as its most dangerous step, whatever it declares', async () => {
    await w.fnTool('wipe', 'test.count', { safety: 'privileged' });
    await w.fnTool('post', 'test.count', { safety: 'sideEffecting' });
    const auto = await w.pipeline('p1', { steps: [{ id: 'a', tool: { slug: 'post', version: 'v1' } }] });
    expect(auto.safety).toBe('sideEffecting');
    const declared = await w.pipeline(
      'p2',
      {
        steps: [
          { id: 'a', tool: { slug: 'echo', version: 'v1' } },
          { id: 'b', tool: { slug: 'wipe', version: 'v1' } },
        ],
      },
      { safety: 'readOnly' },
    );
    expect(declared.safety).toBe('privileged');
    // More care than the steps need is kept.
    const careful = await w.pipeline('p3', { steps: [{ id: 'a', tool: { slug: 'echo', version: 'v1' } }] }, { safety: 'privileged' });
    expect(careful.safety).toBe('privileged');
  });
});
