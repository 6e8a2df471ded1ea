/**
 * Context cost part: counting the definitions of 10,000 tools (100 bundles) in the background
 * after the store opens, beside a plain loop of the tokenizer over the same definitions; the
 * longest time the event loop was held meanwhile (what "without blocking" means here); a recount
 * after one edit; and the lint of every tool agents see.
 *
 * Run alone: npm run bench -- contextcost
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ContextCostService } from '../../electron/core/agents/context-cost.js';
import { ToolLintService } from '../../electron/core/agents/tool-lint-service.js';
import { agentTools } from '../../electron/core/agents/agent-tools.js';
import { mcpToolDefinition } from '../../electron/core/agents/mcp-tool.js';
import { openTestStore, tempDir } from '../helpers/store.js';
import { makeDataset } from './store.js';
import { fmt, median, row } from './util.js';

/** The longest gap between timer ticks while `work` runs: how long the loop was held at once. */
async function longestHold<T>(work: () => Promise<T>): Promise<[number, T]> {
  let longest = 0;
  let last = performance.now();
  let on = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (on) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const result = await work();
  on = false;
  return [longest, result];
}

export async function run(): Promise<void> {
  const dataDir = await tempDir('tw-bench-cost-');
  try {
    await makeDataset(dataDir);
    const t = await openTestStore({ dataDir });
    const definitions = agentTools(t.store.reader, t.tools).map((a) => JSON.stringify(mcpToolDefinition(a)));
    const plainStart = performance.now();
    let plainTokens = 0;
    for (const d of definitions) plainTokens += countTokens(d);
    const plain = performance.now() - plainStart;

    let counts = 0;
    const start = performance.now();
    const [hold, cost] = await longestHold(async () => {
      const service = new ContextCostService({
        store: t.store,
        tools: t.tools,
        count: (text) => {
          counts++;
          return countTokens(text);
        },
      });
      await service.idle();
      return service;
    });
    const background = performance.now() - start;
    const ids = [...t.store.reader.tools()].map((r) => r.file.toolID);
    const total = cost.total(ids);
    console.log(
      `  ${definitions.length.toLocaleString('en-US')} tools, ${total.tokens.toLocaleString('en-US')} tokens in all (plain loop: ${plainTokens.toLocaleString('en-US')} + envelope)`,
    );
    console.log(row('count 10,000 tools in the background vs a plain loop', background, plain));
    console.log(`  longest hold of the event loop while counting: ${fmt(hold)} (slices of 8 ms)`);

    const [idleHold] = await longestHold(() => new Promise((r) => setTimeout(r, 1500)));
    console.log(`  the same with nothing to count (1.5 s, garbage collection of the store's memory): ${fmt(idleHold)}`);

    await t.config.patch({ allowedHosts: ['api.example.com'] });
    const rec = [...t.store.reader.tools()][0]!;
    const recounts: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = counts;
      const edit = performance.now();
      await t.tools.update({ bundleID: rec.file.bundleID, slug: rec.file.slug, version: rec.file.version }, {
        type: 'http',
        description: `Edited ${i}: fetches the page of a query`,
        impl: rec.file.impl,
        argSchema: rec.file.argSchema,
      } as never);
      await cost.idle();
      recounts.push(performance.now() - edit);
      if (counts - before !== 1) throw new Error(`an edit counted ${counts - before} tools, not 1`);
    }
    const definition = JSON.stringify(mcpToolDefinition(agentTools(t.store.reader, t.tools).find((a) => a.file.toolID === rec.file.toolID)!));
    const one = performance.now();
    countTokens(definition);
    console.log(row('an edit with its recount (p50 of 20; 1 tool counted each) vs counting one tool', median(recounts), performance.now() - one));

    const lint = new ToolLintService({ reader: t.store.reader, tools: t.tools });
    const lintStart = performance.now();
    const found = lint.lint({});
    console.log(
      `  lint of ${found.checked.toLocaleString('en-US')} tools agents see: ${fmt(performance.now() - lintStart)}, ${found.items.length.toLocaleString('en-US')} findings`,
    );
    const oneStart = performance.now();
    lint.lint({ toolIDs: [rec.file.toolID] });
    console.log(`  lint of one tool against the 10,000 agents see (a tool's view): ${fmt(performance.now() - oneStart)}`);
    cost.dispose();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
