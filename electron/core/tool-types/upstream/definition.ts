/**
 * An upstream tool's definition as Toolwright pins it: the parts an agent reads (title,
 * description, schemas, annotations), hashed over a canonical form so the same definition always
 * gives the same hash, whatever order the server wrote its keys in.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { UpstreamDefinition } from '../../../../shared/upstream.js';
import { sortedKeysJson } from '../../../../shared/canonical.js';

export function definitionOf(tool: Tool): UpstreamDefinition {
  const def: UpstreamDefinition = { name: tool.name, inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown> };
  if (typeof tool.title === 'string') def.title = tool.title;
  if (typeof tool.description === 'string') def.description = tool.description;
  if (tool.outputSchema) def.outputSchema = tool.outputSchema as Record<string, unknown>;
  if (tool.annotations) def.annotations = tool.annotations as Record<string, unknown>;
  return def;
}

export function definitionHash(def: UpstreamDefinition): string {
  const pinned = {
    name: def.name,
    title: def.title ?? null,
    description: def.description ?? null,
    inputSchema: def.inputSchema,
    outputSchema: def.outputSchema ?? null,
    annotations: def.annotations ?? null,
  };
  return `sha256:${createHash('sha256').update(sortedKeysJson(pinned)).digest('hex')}`;
}
