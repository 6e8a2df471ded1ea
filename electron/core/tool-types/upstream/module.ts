/**
 * `mcp` tools: tools of an upstream MCP server (docs/contracts.md, "Upstream MCP servers"). They are
 * made by a sync, not by hand: their description and schemas are the upstream definition a
 * person accepted, pinned by its hash.
 */
import { McpImpl } from '../../../../shared/tool-types/mcp.js';
import { createUpstreamRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';

export const upstreamType: ToolTypeModule<'mcp'> = {
  type: 'mcp',
  implSchema: McpImpl,
  defaultSafety: (impl) => defaultSafetyOf('mcp', impl),
  check: () => [],
  // The server's secrets are the bundle's (its source), not the tool's: the runner's availability names a missing one.
  secretNames: () => [],
  createRunner: ({ mcp }) => createUpstreamRunner(mcp),
  syncedFromUpstream: true,
};
