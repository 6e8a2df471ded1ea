/**
 * impl of an `mcp` tool: one tool of an upstream MCP server (the bundle's `source`), named as the
 * server names it, pinned to the definition a person accepted (docs/contracts.md, "Upstream MCP servers").
 */
import { Type, type Static } from '@sinclair/typebox';

export const DEFINITION_HASH_PATTERN = '^sha256:[0-9a-f]{64}$';

export const McpImpl = Type.Object(
  {
    /** The tool's name on the upstream server. */
    tool: Type.String({ minLength: 1, maxLength: 256 }),
    /** sha256 of the upstream definition a person accepted (description, schemas, annotations). */
    definitionHash: Type.String({ pattern: DEFINITION_HASH_PATTERN }),
  },
  { additionalProperties: false },
);
export type McpImpl = Static<typeof McpImpl>;
