/**
 * The tool lint on real tool.json files (written by the store, read back through it): each rule
 * with a tool it flags and one it leaves alone, and which tools are checked against which.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ToolLintService } from '../../../../electron/core/agents/tool-lint-service.js';
import { editDistance, LINT_LIMITS } from '../../../../electron/core/agents/tool-lint.js';
import type { ToolInput } from '../../../../shared/operations.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const described = (props: Record<string, unknown> = { expr: { type: 'string', description: 'An arithmetic expression such as 2*(3+4)' } }) => ({
  type: 'object',
  properties: props,
});

/** A tool no rule flags, unless the overrides say otherwise. */
const clean = (overrides: Partial<ToolInput> = {}): ToolInput =>
  functionTool({ description: 'Evaluates an arithmetic expression and returns its value', argSchema: described(), ...overrides });

async function lintOf(tools: Record<string, ToolInput>, input: { toolIDs?: string[]; bundleIDs?: string[] } = {}) {
  t = await openTestStore();
  const bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug: 'lab' });
  const ids: Record<string, string> = {};
  for (const [slug, tool] of Object.entries(tools)) ids[slug] = (await t.tools.create({ bundleID, slug, version: 'v1' }, tool)).toolID;
  // Read back from disk, as the app does after a restart.
  const reopened = await t.reopen();
  const service = new ToolLintService({ reader: reopened.store.reader, tools: reopened.tools });
  const result = service.lint(input);
  const rules = (slug: string) => result.items.filter((f) => f.toolID === ids[slug]).map((f) => f.rule);
  return { result, rules, ids, bundleID };
}

describe('tool lint', () => {
  it('near-duplicate names: one edit apart, or the same words in another order; not merely related names', async () => {
    const { rules, result } = await lintOf({
      'get-user': clean({ description: 'Reads one user record by its numeric ID' }),
      'get-users': clean({ description: 'Lists every account in a team with paging' }),
      'user-get': clean({ description: 'Returns the profile picture address of someone' }),
      'delete-invoice': clean({ description: 'Removes a draft invoice that was never sent' }),
    });
    expect(rules('get-user')).toContain('name-near-duplicate');
    expect(rules('get-users')).toContain('name-near-duplicate');
    expect(rules('user-get')).toContain('name-near-duplicate');
    expect(rules('delete-invoice')).not.toContain('name-near-duplicate');
    const f = result.items.find((i) => i.rule === 'name-near-duplicate' && i.name === 'get-user')!;
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f.message).toMatch(/close to 'get-users' \(lab\/get-users@v1\)/);
    expect(f.fix).toMatch(/rename so the name says what sets each apart/);
    expect(result.items.filter((i) => i.name === 'get-user' && i.rule === 'name-near-duplicate')).toHaveLength(1); // one finding naming both others
    expect(f.message).toMatch(/close to 'get-users' \(lab\/get-users@v1\) and 'user-get' \(lab\/user-get@v1\)/);
  });

  it(`near-duplicate descriptions: word sets ${LINT_LIMITS.descriptionJaccard * 100}% alike or more`, async () => {
    const { rules } = await lintOf({
      alpha: clean({ description: 'Fetches the current weather for a city and returns temperature and wind' }),
      omega: clean({ description: 'Fetches the current weather for a city and returns the temperature and wind' }),
      zulu: clean({ description: 'Converts an amount of money from one currency to another at today’s rate' }),
    });
    expect(rules('alpha')).toContain('description-near-duplicate');
    expect(rules('omega')).toContain('description-near-duplicate');
    expect(rules('zulu')).not.toContain('description-near-duplicate');
  });

  it('vague descriptions: none (an error), one or two words, or the name again; a sentence passes', async () => {
    const { rules, result } = await lintOf({
      empty: clean({ description: '' }),
      short: clean({ description: 'Does math' }),
      'lookup-city': clean({ description: 'Lookup city', displayName: 'Find' }),
      fine: clean(),
    });
    expect(rules('empty')).toContain('description-vague');
    expect(result.items.find((f) => f.name === 'empty' && f.rule === 'description-vague')!.severity).toBe('error');
    expect(rules('short')).toContain('description-vague');
    expect(rules('lookup-city')).toContain('description-vague');
    expect(result.items.find((f) => f.name === 'lookup-city')!.message).toMatch(/only repeats its name/);
    expect(rules('fine')).toEqual([]);
  });

  it(`descriptions over ${LINT_LIMITS.descriptionMaxTokens} tokens`, async () => {
    const long = Array.from({ length: 120 }, (_, i) => `Step ${i}: read the ledger entry and reconcile it.`).join(' ');
    const { rules, result } = await lintOf({ wordy: clean({ description: long }), brief: clean() });
    expect(rules('wordy')).toContain('description-too-long');
    expect(result.items.find((f) => f.rule === 'description-too-long')!.message).toMatch(/costs [\d,]+ tokens/);
    expect(rules('brief')).not.toContain('description-too-long');
  });

  it('arguments without a description, and without a type (an error), nested ones too', async () => {
    const { rules, result } = await lintOf({
      bare: clean({
        argSchema: described({
          city: { type: 'string' },
          when: { description: 'A date, YYYY-MM-DD' },
          place: { type: 'object', properties: { zip: { type: 'string' } } },
        }),
      }),
      typed: clean({
        description: 'Reads the temperature of a place in the unit asked for',
        argSchema: described({ unit: { enum: ['C', 'F'], description: 'Temperature unit' }, any: { anyOf: [{ type: 'string' }], description: 'x or y' } }),
      }),
    });
    const bare = result.items.filter((f) => f.name === 'bare');
    expect(bare.find((f) => f.rule === 'argument-undescribed' && f.message.includes("'city'"))!.fix).toBe(
      "add a description to argument 'city': what it is and its format",
    );
    expect(bare.find((f) => f.rule === 'argument-undescribed' && f.message.includes("'place.zip'"))).toBeDefined();
    expect(bare.find((f) => f.rule === 'schema-untyped')).toMatchObject({ severity: 'error', message: expect.stringContaining("'when'") });
    expect(bare.filter((f) => f.rule === 'schema-untyped')).toHaveLength(1);
    expect(rules('typed')).toEqual([]);
  });

  it('checks named tools whatever their state against every tool agents see; a bundle: its offered tools', async () => {
    const { result, ids, bundleID } = await lintOf({
      draft: clean({ isEnabled: false, description: '' }),
      drafts: clean(),
      other: clean({ description: 'Reads the weather of a city for the next three days' }),
    });
    expect(result.checked).toBe(2); // the switched-off draft is not offered to agents
    expect(result.items.some((f) => f.toolID === ids['draft'])).toBe(false);
    const named = new ToolLintService({ reader: t!.store.reader, tools: t!.tools }).lint({ toolIDs: [ids['draft']!] });
    expect(named.checked).toBe(1);
    expect(named.items.map((f) => f.rule).sort()).toEqual(['description-vague', 'name-near-duplicate']);
    expect(new ToolLintService({ reader: t!.store.reader, tools: t!.tools }).lint({ bundleIDs: [bundleID] }).checked).toBe(2);
    expect(() => new ToolLintService({ reader: t!.store.reader, tools: t!.tools }).lint({ toolIDs: [uuidv7()] })).toThrow(/was not found/);
  });

  it('edit distance counts a swap of neighbours as one edit and stops early', () => {
    expect(editDistance('fetch_url', 'fetch_uri', 1)).toBe(1);
    expect(editDistance('search', 'saerch', 1)).toBe(1);
    expect(editDistance('create', 'delete', 1)).toBe(2);
  });
});
