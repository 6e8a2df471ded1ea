/**
 * The upstream type: tools of an upstream MCP server (docs/contracts.md, "Upstream MCP servers"),
 * stored as `"type": "mcp"`. They are made by a sync, not by hand: their description and schemas
 * are the upstream definition a person accepted, pinned by its hash. The type brings a service
 * (./open.ts): the servers of this process, their sync, review and import, and its operations.
 */
import { McpImpl } from '../../../../shared/tool-types/mcp.js';
import { createUpstreamRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';
import { openUpstream, type UpstreamTypeService } from './open.js';

export const upstreamType: ToolTypeModule<'mcp', UpstreamTypeService> = {
  type: 'mcp',
  implSchema: McpImpl,
  defaultSafety: (impl) => defaultSafetyOf('mcp', impl),
  check: () => [],
  // The server's secrets are the bundle's (its source), not the tool's: the runner's availability names a missing one.
  secretNames: () => [],
  openService: openUpstream,
  createRunner: (_services, service) => createUpstreamRunner(service?.runner),
};
