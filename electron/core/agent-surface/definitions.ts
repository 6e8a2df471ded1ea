/**
 * Toolwright's words in MCP's shapes, as plain data: a visible tool as an MCP Tool (the core's
 * definition, agents/mcp-tool.ts, plus its icons), and a run's result as MCP content (the value as
 * text, the card as an embedded html resource and, for the tool's MCP App, in `_meta`;
 * structuredContent when the tool announces an outputSchema). Every transport an agent uses
 * answers with these, so tools/list, describe_tools and a call's result cannot differ by door.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { announcedOutputSchema, type AgentTool } from '../agents/agent-tools.js';
import { mcpToolDefinition } from '../agents/mcp-tool.js';
import type { InvokeResult } from '../../../shared/types.js';
import { valueText } from '../../../shared/format.js';
import { CARD_RESULT_META_KEY } from '../../../shared/agents/surface.js';
import { toolIcons } from './icons.js';

export { CARD_RESULT_META_KEY };

export function describeTool(t: AgentTool): Tool {
  const { outputSchema, ...definition } = mcpToolDefinition(t);
  const tool = definition as Tool;
  const icons = toolIcons(t);
  if (icons) tool.icons = icons;
  if (outputSchema) tool.outputSchema = outputSchema as Tool['outputSchema'];
  return tool;
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The `_meta` key of the output guard's note: what it found and, under strip, removed (docs/guard.md). */
export const GUARD_RESULT_META_KEY = 'dev.toolwright/guard';

export function toCallResult(tool: AgentTool, r: InvokeResult): CallToolResult {
  if (!r.ok) return errorResult(r.error?.message ?? 'the tool failed');
  // What agents receive is the output guard's value when it stripped something (core/guard/output-guard.ts).
  const value = r.guard && 'value' in r.guard ? r.guard.value : r.value;
  const content: CallToolResult['content'] = [{ type: 'text', text: valueText(value) }];
  // An upstream server's images, resources and links reach the agent as the server sent them.
  const extra = r.guard?.content ?? r.content;
  if (extra) content.push(...(extra as CallToolResult['content']));
  if (r.card?.html) {
    content.push({ type: 'resource', resource: { uri: `toolwright://invocations/${r.invocationID}/card`, mimeType: 'text/html', text: r.card.html } });
  }
  const result: CallToolResult = { content };
  // For the tool's MCP App (host/mcp's card apps); the html is the core's sanitised html, as embedded above.
  if (r.card && (r.card.html || r.card.text)) result._meta = { [CARD_RESULT_META_KEY]: r.card };
  if (r.guard) result._meta = { ...result._meta, [GUARD_RESULT_META_KEY]: r.guard.note };
  if (announcedOutputSchema(tool.file.outputSchema)) {
    if (r.truncated || typeof value !== 'object' || value === null || Array.isArray(value)) {
      return errorResult(
        `the result of ${tool.name} was cut at ${tool.file.limits?.maxOutputBytes ?? 'the output limit'} bytes, so it no longer matches its outputSchema`,
      );
    }
    result.structuredContent = value as Record<string, unknown>;
  }
  return result;
}
