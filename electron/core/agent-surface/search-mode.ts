/**
 * A profile in search mode lists three tools instead of its own, so an agent with thousands of
 * tools spends a few hundred tokens on the list: `search_tools` (ranked matches, from the
 * audience's searcher), `describe_tools` (the full definitions of some) and `call_tool` (the real
 * call, through the same path — gates, approvals, limits, history — as a direct tools/call).
 * A name outside the profile is answered exactly as a name that exists nowhere.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { AgentTool } from '../agents/agent-tools.js';
import type { ToolSearchEntry, ToolSearcher } from '../agents/tool-search.js';
import { describeTool, errorResult } from './definitions.js';
import {
  CALL_TOOL,
  DESCRIBE_TOOLS,
  MAX_QUERY_LENGTH,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_DESCRIBE,
  SEARCH_MAX_LIMIT,
  SEARCH_MODE_TOOLS,
  SEARCH_TOOLS,
} from '../agents/search-mode-tools.js';

/** What search mode reads of its audience. */
export interface SearchModeAudience {
  byName(name: string): AgentTool | undefined;
  withheld(name: string): string | undefined;
  searcher(): ToolSearcher;
}

/**
 * Learning from use (electron/core/search/tool-search-learning.ts), as search mode feeds it and
 * the audiences' searchers read it: told each search and each call, asked what changed since.
 */
export interface SearchLearningSource {
  readonly version: number;
  changedSince(version: number): string[] | 'all';
  wordsOf(toolID: string): Readonly<Record<string, number>>;
  learnedTools(): string[];
  searched(session: string, query: string, toolIDs: readonly string[], principal?: string): void;
  called(session: string, toolID: string): void;
}

/** Who is searching, for learning from use: the session and the principal, and the learning service told of each search. */
export interface SearchLearning {
  session: string;
  principal: string;
  learning: Pick<SearchLearningSource, 'searched'>;
}

/**
 * Teaches a searcher what agents taught its tools since `since` (a map update per changed tool,
 * not a rebuild); answers the version it has caught up to.
 */
export function catchUpLearning(searcher: ToolSearcher, tools: readonly AgentTool[], learning: SearchLearningSource, since = -1): number {
  const changed = learning.changedSince(since);
  const toolIDs = changed === 'all' ? new Set([...tools.map((t) => t.file.toolID), ...learning.learnedTools()]) : changed;
  for (const toolID of toolIDs) searcher.learn(toolID, learning.wordsOf(toolID));
  return learning.version;
}

const TOOLS = SEARCH_MODE_TOOLS as unknown as Tool[];
const DEFAULT_LIMIT = SEARCH_DEFAULT_LIMIT;
const MAX_LIMIT = SEARCH_MAX_LIMIT;
const MAX_DESCRIBE = SEARCH_MAX_DESCRIBE;

export function searchModeTools(): Tool[] {
  return TOOLS;
}

export function isSearchModeTool(name: string): boolean {
  return name === SEARCH_TOOLS || name === DESCRIBE_TOOLS || name === CALL_TOOL;
}

/** What the searcher knows of a visible tool, under the name the agent would call. */
export function searchEntryOf(t: AgentTool, calls: number): ToolSearchEntry {
  const schema = (t.file.argSchema ?? {}) as { properties?: Record<string, { description?: unknown }> };
  const props = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  return {
    id: t.file.toolID,
    name: t.name,
    title: t.file.displayName || t.file.slug,
    description: t.description ?? t.file.description,
    argNames: Object.keys(props),
    argDescriptions: Object.values(props).flatMap((p) => (typeof p?.description === 'string' ? [p.description] : [])),
    tags: t.file.tags ?? [],
    bundle: t.bundle.slug,
    calls,
  };
}

/** The same answer for a name outside the profile as for one that exists nowhere; a name the profile offered and withholds now says why. */
export function unknownToolResult(name: string, withheld?: string): CallToolResult {
  if (withheld) return errorResult(withheld);
  return errorResult(`Unknown tool: ${name}; use ${SEARCH_TOOLS} to find the tools you may call`);
}

const oneLine = (text: string) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

const invalidInput = (message: string): CallToolResult => errorResult(`INVALID_INPUT: ${message}`);

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export type SearchModeAnswer = { kind: 'result'; result: CallToolResult } | { kind: 'call'; tool: AgentTool; args: Record<string, unknown> };

export interface SearchModeOptions {
  /** Who searches, for learning from use. */
  learn?: SearchLearning | undefined;
  /** Matches under this relevance (0–1) are left out (config.toolSearch.relevanceFloor); 0 keeps all. */
  relevanceFloor?: number;
}

/** What search_tools says when no tool is left: plainly that none fits, and what to do. */
export function noToolFits(query: string, floor: number): string {
  const shown = query.length > 80 ? `${query.slice(0, 79)}…` : query;
  return `No tool fits "${shown}": none of the tools you may call is related enough to it (relevance under ${floor}). Try other words for the task, or tell the user that no tool here can do it.`;
}

/** search_tools and describe_tools answer here; call_tool names the real tool and its arguments. */
export function searchModeCall(scope: SearchModeAudience, name: string, args: Record<string, unknown>, options: SearchModeOptions = {}): SearchModeAnswer {
  const { learn, relevanceFloor = 0 } = options;
  if (name === SEARCH_TOOLS) {
    const query = args['query'];
    if (typeof query !== 'string') return { kind: 'result', result: invalidInput('query must be a string of a few words') };
    if (query.length > MAX_QUERY_LENGTH) {
      return { kind: 'result', result: invalidInput(`the query has ${query.length} characters; at most ${MAX_QUERY_LENGTH} are searched — use a few words`) };
    }
    const limit = args['limit'] === undefined ? DEFAULT_LIMIT : args['limit'];
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      return { kind: 'result', result: invalidInput(`limit must be a whole number from 1 to ${MAX_LIMIT}`) };
    }
    let found;
    try {
      found = scope.searcher().search(query, limit);
    } catch (e) {
      return { kind: 'result', result: invalidInput((e as Error).message) };
    }
    const shown: string[] = [];
    const matches = found.flatMap((m) => {
      const t = m.relevance >= relevanceFloor ? scope.byName(m.name) : undefined;
      if (!t) return [];
      shown.push(t.file.toolID);
      const description = t.description ?? (t.file.description || t.file.displayName || t.file.slug);
      return [
        {
          name: t.name,
          title: t.file.displayName || t.file.slug,
          description: oneLine(description),
          safety: t.safety,
          score: m.score,
          relevance: m.relevance,
          why: m.why,
        },
      ];
    });
    learn?.learning.searched(learn.session, query, shown, learn.principal);
    return { kind: 'result', result: structured(matches.length ? { matches } : { matches, note: noToolFits(query, relevanceFloor) }) };
  }
  if (name === DESCRIBE_TOOLS) {
    const names = args['names'];
    if (!Array.isArray(names) || names.length === 0 || names.length > MAX_DESCRIBE || !names.every((n) => typeof n === 'string')) {
      return { kind: 'result', result: invalidInput(`names must be a list of 1 to ${MAX_DESCRIBE} tool names`) };
    }
    const tools: Tool[] = [];
    const unknown: string[] = [];
    for (const n of names as string[]) {
      const t = scope.byName(n);
      if (t) tools.push(describeTool(t));
      else unknown.push(n);
    }
    return { kind: 'result', result: structured({ tools, unknown }) };
  }
  const target = args['name'];
  if (typeof target !== 'string') return { kind: 'result', result: invalidInput('name must be the name of a tool found with search_tools') };
  const inner = args['arguments'] ?? {};
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return { kind: 'result', result: invalidInput('arguments must be an object') };
  const tool = scope.byName(target);
  if (!tool) return { kind: 'result', result: unknownToolResult(target, scope.withheld(target)) };
  return { kind: 'call', tool, args: inner as Record<string, unknown> };
}
