/**
 * search_tools as an agent meets it: a real host (core + REST + MCP on loopback) holding the
 * corpus as tools, one bundle per API under the API's name, a profile in search mode over all of
 * them, and 2026-07-28 stateless tools/call requests by raw HTTP. The times are whole requests,
 * answer parsed; the held-out recall is measured through the same door, to show the ranker
 * behind it is the one the bench measured alone.
 */
import { Agent } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { startHost } from '../../helpers/host.js';
import { measureQuality, type CorpusEntry, type LabelledQuery } from './evaluate.js';
import { rawPost } from '../util.js';

const MODERN_VERSION = '2026-07-28';
/** Where the host answers a plain search_tools request today (electron/host/mcp/fast-path/plain-call.ts). */
const SEARCH_PATH = 'the fast path, before the SDK';

export interface McpSearchFigures {
  tools: number;
  times: number[];
  heldOutRecallAt5: number;
  /** Which path answered search_tools (the plain fast path or the SDK's server). */
  path: string;
}

export async function searchOverMcp(
  corpus: readonly CorpusEntry[],
  queries: readonly string[],
  duplicates: ReadonlyMap<string, readonly string[]>,
  heldOut: readonly LabelledQuery[],
): Promise<McpSearchFigures> {
  const h = await startHost();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const bundleIDs = new Map<string, string>();
    for (const e of corpus) {
      const [bundleSlug, slug] = e.ref.split('/') as [string, string];
      let bundleID = bundleIDs.get(bundleSlug);
      if (!bundleID) {
        bundleID = uuidv7();
        bundleIDs.set(bundleSlug, bundleID);
        await h.core.bundles.put(bundleID, { slug: bundleSlug, displayName: bundleSlug });
      }
      const properties = Object.fromEntries(
        e.argNames.map((n, j) => [n, { type: 'string', ...(e.argDescriptions[j] ? { description: e.argDescriptions[j] } : {}) }]),
      );
      await h.core.tools.create(
        { bundleID, slug, version: 'v1' },
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
    await h.core.profiles.put(uuidv7(), { slug: 'finder', bundles: [...bundleIDs.values()], mode: 'search' });
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'bench-toolsearch', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    let id = 0;
    const search = async (query: string, limit: number): Promise<string[]> => {
      const res = await rawPost(
        `${h.url}/mcp/p/finder`,
        agent,
        { authorization: `Bearer ${h.token}`, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
        { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'search_tools', arguments: { query, limit }, _meta } },
      );
      if (res.status !== 200) throw new Error(`search_tools answered ${res.status}: ${res.text.slice(0, 200)}`);
      const body = JSON.parse(res.text) as { result: { structuredContent: { matches: { name: string }[] } } };
      return body.result.structuredContent.matches.map((m) => m.name);
    };
    const heldOutRecallAt5 = (await measureAsync(heldOut, search, duplicates)).recallAt5;
    for (const q of queries.slice(0, 50)) await search(q, 10);
    const times: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      await search(q, 10);
      times.push(performance.now() - t0);
    }
    return { tools: corpus.length, times, heldOutRecallAt5, path: SEARCH_PATH };
  } finally {
    agent.destroy();
    await h.close();
  }
}

async function measureAsync(
  queries: readonly LabelledQuery[],
  search: (q: string, limit: number) => Promise<string[]>,
  duplicates: ReadonlyMap<string, readonly string[]>,
): Promise<ReturnType<typeof measureQuality>> {
  const answers = new Map<string, string[]>();
  for (const { query } of queries) answers.set(query, await search(query, 10));
  return measureQuality(queries, (q) => answers.get(q)!, duplicates);
}
