/**
 * Profiles at 10,000 tools (issue 21), each figure beside its baseline from the same run:
 * - tools/list of a profile's address (`/mcp/p/<slug>`, every tool) against `/mcp` (goal ≤ 1.1×
 *   at p50 and p95), both 2026-07-28 stateless requests by raw HTTP, nothing parsed;
 * - search_tools through a search-mode profile's address (goal p95 ≤ 10 ms) against the ranker
 *   alone on the same tools, with the task phrasings of the tool-search query set;
 * - the context cost: counting 10,000 tools once in the background after the host starts, and
 *   one tool's recount after an edit, against the edit alone.
 * The tools are 10,000 real operations of the tool-search corpus (real API descriptions).
 */
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../helpers/host.js';
import { createToolSearcher } from '../../electron/core/agents/tool-search.js';
import { loadCorpus, loadQueries } from './toolsearch/evaluate.js';
import { interleaved, quantile, rawPost, row } from './util.js';

const MODERN_VERSION = '2026-07-28';
const TOOLS = 10_000;

function modernCaller(h: TestHost, path: string, agent: Agent): (method: string, params: Record<string, unknown>) => Promise<string> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'bench-profiles', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  let id = 0;
  return async (method, params) => {
    const headers: Record<string, string> = { authorization: `Bearer ${h.token}`, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
    if (method === 'tools/call') headers['mcp-name'] = String(params['name']);
    const res = await rawPost(`${h.url}${path}`, agent, headers, { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta } });
    if (res.status !== 200) throw new Error(`${method} at ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    return res.text;
  };
}

export async function run(): Promise<void> {
  console.log(
    `  load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  const corpus = loadCorpus().slice(0, TOOLS);
  const h = await startHost();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const bundleIDs = new Map<string, string>();
    for (const [i, e] of corpus.entries()) {
      let bundleID = bundleIDs.get(e.bundle);
      if (!bundleID) {
        bundleID = uuidv7();
        bundleIDs.set(e.bundle, bundleID);
        await h.core.bundles.put(bundleID, { slug: `api-${bundleIDs.size}`, displayName: e.bundle });
      }
      const properties = Object.fromEntries(e.argNames.map((n, j) => [n, { type: 'string', description: e.argDescriptions[j] ?? '' }]));
      await h.core.tools.create(
        { bundleID, slug: `${e.name.replace(/[^A-Za-z0-9-]+/g, '-').slice(0, 56)}-${i}`, version: 'v1' },
        {
          type: 'function',
          displayName: e.title,
          description: e.description,
          tags: e.tags,
          impl: { function: 'core.uuid' },
          argSchema: { type: 'object', properties },
        },
      );
    }
    const all = [...bundleIDs.values()];
    await h.core.profiles.put(uuidv7(), { slug: 'everything', bundles: all });
    await h.core.profiles.put(uuidv7(), { slug: 'finder', bundles: all, mode: 'search' });

    // tools/list of the profile against /mcp.
    const atMcp = modernCaller(h, '/mcp', agent);
    const atProfile = modernCaller(h, '/mcp/p/everything', agent);
    const listed = JSON.parse(await atProfile('tools/list', {})) as { result: { tools: unknown[] } };
    console.log(`  tools listed at /mcp/p/everything: ${listed.result.tools.length}`);
    const [profileTimes, mcpTimes] = await interleaved(
      60,
      () => atProfile('tools/list', {}),
      () => atMcp('tools/list', {}),
      20,
    );
    console.log(row('tools/list, profile vs /mcp, p50 (goal ≤ 1.1×)', quantile(profileTimes, 0.5), quantile(mcpTimes, 0.5)));
    console.log(row('tools/list, profile vs /mcp, p95 (goal ≤ 1.1×)', quantile(profileTimes, 0.95), quantile(mcpTimes, 0.95)));

    // search_tools through the search-mode address against the ranker alone.
    const atFinder = modernCaller(h, '/mcp/p/finder', agent);
    const queries = loadQueries().map((q) => q.query);
    const searcher = createToolSearcher(corpus);
    const overMcp: number[] = [];
    const alone: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        let t0 = performance.now();
        await atFinder('tools/call', { name: 'search_tools', arguments: { query, limit: 5 } });
        if (round > 0) overMcp.push(performance.now() - t0);
        t0 = performance.now();
        searcher.search(query, 5);
        if (round > 0) alone.push(performance.now() - t0);
      }
    }
    console.log(row('search_tools over MCP vs the ranker alone, p50', quantile(overMcp, 0.5), quantile(alone, 0.5)));
    console.log(row('search_tools over MCP vs ranker, p95 (goal ≤ 10 ms)', quantile(overMcp, 0.95), quantile(alone, 0.95)));

    // The context cost: all tools counted once, then one edit's recount.
    const t0 = performance.now();
    await h.core.contextCost.idle();
    console.log(`  context cost: every tool counted ${(performance.now() - t0).toFixed(0)} ms after the last write (in the background)`);
    const profiles = h.core.profiles.list().items;
    for (const p of profiles) {
      console.log(
        `  profile ${p.slug}: ${p.toolCount} tools, ≈ ${p.contextTokens.listed.toLocaleString('en-US')} tokens listed, ≈ ${p.contextTokens.search} in search mode`,
      );
    }
    const first = [...h.core.store.reader.tools()].find((t) => !t.file.isBuiltIn)!;
    const ref = { bundleID: first.file.bundleID, slug: first.file.slug, version: first.file.version };
    const edits: number[] = [];
    const recounts: number[] = [];
    for (let i = 0; i < 30; i++) {
      const current = await h.core.tools.get(ref);
      let t = performance.now();
      await h.core.tools.update(ref, { ...current, description: `${current.description} (edit ${i})` }, current.modifiedAt);
      edits.push(performance.now() - t);
      t = performance.now();
      while (h.core.contextCost.forTool(first.file.toolID) === undefined) await new Promise((r) => setImmediate(r));
      recounts.push(performance.now() - t);
    }
    console.log(row('recount after an edit (beyond the edit) vs the edit, p50', quantile(recounts, 0.5), quantile(edits, 0.5)));
  } finally {
    agent.destroy();
    await h.close();
  }
}
