/**
 * The three tools a profile in search mode lists instead of its own (search_tools, describe_tools,
 * call_tool), as plain definitions: the MCP layer serves them, and the context cost counts them
 * (what a search-mode profile costs an agent, beside what listing every tool would).
 */
import type { McpToolDefinition } from './mcp-tool.js';

export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOLS = 'describe_tools';
export const CALL_TOOL = 'call_tool';
/** Longer queries are refused: a query is a few words, and a megabyte of them must not cost the index a walk. */
export const MAX_QUERY_LENGTH = 1000;
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_MAX_DESCRIBE = 50;

const READ_ONLY = { readOnlyHint: true } as const;

export const SEARCH_MODE_TOOLS: readonly Omit<McpToolDefinition, '_meta'>[] = [
  {
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description: `Find the tools you may call by what they do. Returns ranked matches: name (pass it to ${CALL_TOOL}), title, a one-line description, safety, relevance (0–1) and why it matched. Tools too weakly related are left out: no matches means no tool fits the task.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'a few words about the task', maxLength: MAX_QUERY_LENGTH },
        limit: { type: 'integer', minimum: 1, maximum: SEARCH_MAX_LIMIT, description: `at most this many matches (default ${SEARCH_DEFAULT_LIMIT})` },
      },
      required: ['query'],
    },
    annotations: { title: 'Search tools', ...READ_ONLY },
  },
  {
    name: DESCRIBE_TOOLS,
    title: 'Describe tools',
    description: `The full definitions (input and output schemas) of tools found with ${SEARCH_TOOLS}.`,
    inputSchema: {
      type: 'object',
      properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: SEARCH_MAX_DESCRIBE } },
      required: ['names'],
    },
    annotations: { title: 'Describe tools', ...READ_ONLY },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description: `Call a tool found with ${SEARCH_TOOLS}, with arguments matching its input schema (see ${DESCRIBE_TOOLS}).`,
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, arguments: { type: 'object', additionalProperties: true } },
      required: ['name'],
    },
    annotations: { title: 'Call a tool', readOnlyHint: false, destructiveHint: true },
  },
];
