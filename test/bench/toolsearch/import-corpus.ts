/**
 * Builds the tool-search corpus (test/fixtures/toolsearch/corpus.json.gz) from the team's shared
 * test data: 12,828 operations of 94 public APIs as tools, `{bundle, slug, displayName,
 * description, tags, argSchema}` (/work/shared/testdata/toolsearch/corpus.json, made from the
 * pruned API documents beside it). Each API is one bundle whose slug is its `bundle`, and each
 * tool becomes what search_tools indexes of it: the agent naming of agent-tools.ts (the slug; the
 * bundle's slug in front when two bundles share one) and searchEntryOf's fields, so the bench
 * ranks exactly what a search-mode profile over these bundles ranks.
 *
 *   npx tsx test/bench/toolsearch/import-corpus.ts [/work/shared/testdata/toolsearch/corpus.json]
 *
 * Each record also keeps `ref` (`bundle/slug`), which the written phrasings name their tools by.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { asciiName, MAX_TOOL_NAME, type AgentTool } from '../../../electron/core/agents/agent-tools.js';
import { searchEntryOf } from '../../../electron/core/agent-surface/search-mode.js';
import type { ToolSearchEntry } from '../../../electron/core/agents/tool-search.js';

export const SHARED_CORPUS = '/work/shared/testdata/toolsearch/corpus.json';

interface SharedTool {
  bundle: string;
  slug: string;
  displayName: string;
  description: string;
  tags: string[];
  argSchema: unknown;
}

export type CorpusEntry = ToolSearchEntry & { ref: string };

const COLLATOR = new Intl.Collator();

/** The agent names agentTools gives these tools (one version each, every bundle visible). */
export function agentNames(tools: readonly { bundle: string; slug: string }[]): string[] {
  const order = tools.map((_, i) => i).sort((a, b) => COLLATOR.compare(tools[a]!.bundle, tools[b]!.bundle) || COLLATOR.compare(tools[a]!.slug, tools[b]!.slug));
  const groups = new Map<string, Set<string>>();
  for (const t of tools) groups.set(asciiName(t.slug), (groups.get(asciiName(t.slug)) ?? new Set()).add(t.bundle));
  const names: string[] = new Array<string>(tools.length);
  const used = new Set<string>();
  for (const i of order) {
    const t = tools[i]!;
    const unique = groups.get(asciiName(t.slug))!.size > 1 ? asciiName(`${t.bundle}_${t.slug}`) : asciiName(t.slug);
    let name = unique;
    for (let n = 2; used.has(name); n++) name = unique.slice(0, MAX_TOOL_NAME - `_${n}`.length) + `_${n}`;
    used.add(name);
    names[i] = name;
  }
  return names;
}

export function importCorpus(path = SHARED_CORPUS): CorpusEntry[] {
  const tools = JSON.parse(readFileSync(path, 'utf8')) as SharedTool[];
  const names = agentNames(tools);
  return tools.map((t, i) => {
    const agentTool = {
      name: names[i]!,
      file: { slug: t.slug, displayName: t.displayName, description: t.description, tags: t.tags, argSchema: t.argSchema },
      bundle: { slug: t.bundle },
    } as unknown as AgentTool;
    return { ...searchEntryOf(agentTool, 0), ref: `${t.bundle}/${t.slug}` };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const corpus = importCorpus(process.argv[2]);
  const out = new URL('../../fixtures/toolsearch/corpus.json.gz', import.meta.url);
  writeFileSync(out, gzipSync(JSON.stringify(corpus), { level: 9 }));
  console.log(`${corpus.length} tools → ${fileURLToPath(out)}`);
}
