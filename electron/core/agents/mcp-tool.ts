/**
 * A tool as MCP's `tools/list` gives it to an agent, as plain JSON: name, title, description,
 * inputSchema, annotations (its safety), `_meta` (where it lives; its card's MCP App) and the
 * outputSchema when it announces one. The MCP host (host/mcp/describe.ts) answers with this object
 * plus the icons; the context cost (context-cost.ts) counts this object, so the two cannot drift.
 * Icons are not part of it: clients show them, they do not hand them to the model.
 */
import { announcedOutputSchema, parametersOf, safetyAnnotations, type AgentTool } from './agent-tools.js';
import { cardAppUri } from '../../../shared/agents/surface.js';

const META = 'dev.toolwright';

/** MCP Apps' flat key of a tool's app (ext-apps' RESOURCE_URI_META_KEY; a test holds them equal), not imported: every listing reads it, and ext-apps is the MCP SDK's. */
export const RESOURCE_URI_META_KEY = 'ui/resourceUri';

export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint?: boolean };
  _meta: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export { cardAppUri };

export const hasCardApp = (t: AgentTool): boolean => t.file.card?.enabled === true;

/** The tool's `_meta` entries that point a host at its app: the current key and the flat one older hosts read. */
export function cardAppToolMeta(t: AgentTool): Record<string, unknown> {
  const resourceUri = cardAppUri(t.file.toolID);
  return { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri };
}

export function mcpToolDefinition(t: AgentTool): McpToolDefinition {
  const f = t.file;
  const tool: McpToolDefinition = {
    name: t.name,
    title: f.displayName || f.slug,
    description: t.description ?? (f.description || f.displayName || f.slug),
    inputSchema: parametersOf(f.argSchema),
    annotations: { title: f.displayName || f.slug, ...safetyAnnotations(t.safety) },
    _meta: {
      [`${META}/bundleID`]: f.bundleID,
      [`${META}/toolID`]: f.toolID,
      [`${META}/slug`]: f.slug,
      [`${META}/version`]: f.version,
      ...(hasCardApp(t) ? cardAppToolMeta(t) : {}),
    },
  };
  const output = announcedOutputSchema(f.outputSchema);
  if (output) tool.outputSchema = output;
  return tool;
}
