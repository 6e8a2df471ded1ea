/**
 * The context cost of tool definitions: counted with the real tokenizer on exactly what MCP
 * tools/list gives an agent, kept current per change (only the changed tool is counted again),
 * and summed per bundle over the tools agents are offered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ContextCostService, LIST_ENVELOPE_TOKENS } from '../../../../electron/core/agents/context-cost.js';
import { SEARCH_MODE_TOKENS } from '../../../../electron/core/agents/search-mode-cost.js';
import { SEARCH_MODE_TOOLS } from '../../../../electron/core/agents/search-mode-tools.js';
import { agentTools } from '../../../../electron/core/agents/agent-tools.js';
import { describeTool } from '../../../../electron/core/agent-surface/definitions.js';
import { ToolService } from '../../../../electron/core/store/tools.js';
import { prepareTool } from '../../../../electron/core/tool-types/prepare.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
let cost: ContextCostService | undefined;
afterEach(async () => {
  cost?.dispose();
  cost = undefined;
  await t?.cleanup();
  t = undefined;
});

/** A tool service like the root's, with one tool withheld (an upstream definition nobody accepted). */
function toolsWithheld(store: TestStore['store'], withheldSlug: string): ToolService {
  return new ToolService(store, {
    prepare: prepareTool,
    availability: () => ({ ok: true }),
    metrics: () => ({ callCount: 0, errorCount: 0, lastCalledAt: null }),
    withheld: (rec) => (rec.file.slug === withheldSlug ? 'its definition changed and nobody accepted it' : undefined),
  });
}

describe('context cost', () => {
  it('counts the JSON of the MCP Tool object agents receive, with o200k_base', async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'weather' });
    const tool = await t.tools.create(
      { bundleID, slug: 'forecast', version: 'v1' },
      functionTool({
        displayName: 'Forecast',
        description: 'The weather of the next days for a city',
        argSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name, e.g. Lyon' } }, required: ['city'] },
        outputSchema: { type: 'object', properties: { days: { type: 'array' } } },
        card: { enabled: true },
      }),
    );
    cost = new ContextCostService({ store: t.store, tools: t.tools });
    expect(cost.forTool(tool.toolID)).toBeUndefined(); // counted in the background, not yet
    await cost.idle();
    const [agentTool] = agentTools(t.store.reader, t.tools);
    const listed = describeTool(agentTool!);
    expect(cost.forTool(tool.toolID)).toBe(countTokens(JSON.stringify(listed)));
    // The known object, by hand: the count is of name, title, description, schemas, annotations and _meta.
    expect(JSON.stringify(listed)).toContain('"outputSchema"');
    expect(JSON.stringify(listed)).toContain('ui://toolwright/');
    expect(cost.forTool(tool.toolID)).toBeGreaterThan(100);
    expect(cost.total([tool.toolID])).toEqual({ tokens: cost.forTool(tool.toolID)! + LIST_ENVELOPE_TOKENS, counted: 1, pending: 0 });
    expect(LIST_ENVELOPE_TOKENS).toBe(countTokens('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}'));
  });

  it("the written-out counts are the tokenizer's: the list envelope and search mode's three tools", () => {
    expect(LIST_ENVELOPE_TOKENS).toBe(countTokens('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}'));
    expect(SEARCH_MODE_TOKENS).toBe(SEARCH_MODE_TOOLS.reduce((sum, tool) => sum + countTokens(JSON.stringify(tool)), LIST_ENVELOPE_TOKENS));
  });

  it('without background counting, nothing is counted until a total is asked for, which counts its tools then', async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'weather' });
    const tool = await t.tools.create({ bundleID, slug: 'forecast', version: 'v1' }, functionTool({ description: 'The weather of the next days' }));
    const counted: string[] = [];
    cost = new ContextCostService({ store: t.store, tools: t.tools, background: false, count: (text) => (counted.push(text), countTokens(text)) });
    await cost.idle();
    await new Promise((r) => setTimeout(r, 50));
    expect(counted).toEqual([]);
    expect(cost.forTool(tool.toolID)).toBeUndefined();
    const [agentTool] = agentTools(t.store.reader, t.tools);
    const tokens = countTokens(JSON.stringify(describeTool(agentTool!)));
    expect(cost.total([tool.toolID])).toEqual({ tokens: tokens + LIST_ENVELOPE_TOKENS, counted: 1, pending: 0 });
    expect(cost.forTool(tool.toolID)).toBe(tokens);
  });

  it('counts a changed tool again, and only that tool', async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'text' });
    const ids: string[] = [];
    for (const slug of ['alpha', 'beta', 'gamma']) ids.push((await t.tools.create({ bundleID, slug, version: 'v1' }, functionTool())).toolID);
    const counted: string[] = [];
    cost = new ContextCostService({
      store: t.store,
      tools: t.tools,
      count: (text) => {
        counted.push(text);
        return countTokens(text);
      },
    });
    await cost.idle();
    expect(counted).toHaveLength(3);
    const before = cost.forTool(ids[1]!)!;
    counted.length = 0;
    await t.tools.update(
      { bundleID, slug: 'beta', version: 'v1' },
      functionTool({ description: 'Evaluates arithmetic, with brackets, powers and the usual functions such as sqrt and log' }),
    );
    // Until it is counted again the tool has no count (never the old definition's); the count
    // may already be done here, since the write's own I/O lets the background slice run.
    expect([undefined, countTokens(counted[0] ?? '')]).toContain(cost.forTool(ids[1]!));
    await cost.idle();
    expect(counted).toHaveLength(1);
    expect(counted[0]).toContain('"name":"beta"');
    expect(cost.forTool(ids[1]!)).toBeGreaterThan(before);
    // Switching a tool off is no edit of its definition: no count.
    await t.tools.setEnabled({ bundleID, slug: 'alpha', version: 'v1' }, false);
    await cost.idle();
    expect(counted.filter((c) => c.includes('"name":"alpha"')).length).toBeLessThanOrEqual(1);
    await t.tools.delete({ bundleID, slug: 'gamma', version: 'v1' });
    expect(cost.forTool(ids[2]!)).toBeUndefined();
    expect(cost.total(ids)).toMatchObject({ counted: 2, pending: 1 });
  });

  it('sums a bundle over the tools agents are offered: not switched off, not withheld, nothing in a switched-off bundle', async () => {
    t = await openTestStore();
    const tools = toolsWithheld(t.store, 'held');
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'mixed' });
    const on = await tools.create({ bundleID, slug: 'on', version: 'v1' }, functionTool());
    await tools.create({ bundleID, slug: 'off', version: 'v1' }, functionTool({ isEnabled: false }));
    await tools.create({ bundleID, slug: 'held', version: 'v1' }, functionTool());
    cost = new ContextCostService({ store: t.store, tools });
    await cost.idle();
    expect(cost.forBundle(bundleID)).toEqual({ agentTools: 1, tokens: cost.forTool(on.toolID) });
    await t.bundles.patch(bundleID, false);
    expect(cost.forBundle(bundleID)).toEqual({ agentTools: 0, tokens: 0 });
  });
});
