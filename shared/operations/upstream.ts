/**
 * The upstream type's domain (tools of upstream MCP servers): probe, status, sync, stop, sign-in,
 * the review of a changed definition, and the import of the MCP configurations people already
 * have. The type's service answers them (electron/core/tool-types/upstream/open.ts); the names
 * are the contract's and stay as they are.
 */
import { Type } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import {
  BundleSource,
  type DefinitionReview,
  type ReviewCounts,
  type ServerAuthorization,
  type ServerProbe,
  type UpstreamLastSync,
  type UpstreamStatus,
  type UpstreamSyncReport,
} from '../upstream.js';
import { DEFINITION_HASH_PATTERN } from '../tool-types/mcp.js';
import type { ImportReport, ToolView } from '../types.js';
import { op, ToolRef } from './op.js';

export const upstreamOperations = {
  'servers.probe': op<ServerProbe>()({
    summary: 'Start an MCP server from a source without saving anything, and list what it offers (the add-server dialog)',
    input: Type.Object({ source: BundleSource }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR', 'TIMEOUT'],
  }),
  'servers.status': op<UpstreamStatus & { syncedAt?: string; toolCount: number; review: ReviewCounts; lastSync?: UpstreamLastSync }>()({
    summary: "The state of a bundle's upstream MCP server: stopped, starting, ready or failed, what it said of itself, the end of its stderr",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'servers.sync': op<UpstreamSyncReport>()({
    summary:
      "Bring a bundle's tools in line with its upstream server: new tools arrive switched off, changed definitions are withheld until accepted, tools gone upstream become unavailable (dryRun: report only)",
    input: Type.Object({ bundleID: Uuid, dryRun: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR', 'BUNDLE_DISABLED', 'BUNDLE_DELETED'],
  }),
  'servers.stop': op<UpstreamStatus>()({
    summary: "Stop a bundle's upstream server in this process (it starts again on the next call)",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'servers.authorize': op<ServerAuthorization>()({
    summary:
      "Start signing in (OAuth) to a bundle's HTTP server: the authorization link to open in a browser; the redirect to a loopback listener of this process finishes it and the tokens go to the secrets store",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR'],
  }),
  'tools.definition': op<DefinitionReview>()({
    summary: "An upstream tool's accepted definition beside the server's current one, for review",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'tools.acceptDefinition': op<ToolView>()({
    summary: "Accept the upstream's current definition of a tool (pinned by its hash; definitionHash: the one reviewed)",
    input: Type.Object({ ...ToolRef, definitionHash: Type.Optional(Type.String({ pattern: DEFINITION_HASH_PATTERN })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE'],
  }),
  'bundles.importMcpServers': op<ImportReport>()({
    summary:
      'One bundle per MCP server of a claude_desktop_config.json, Cursor/Windsurf or VS Code mcp.json, registry server.json or .mcpb (base64); secrets go to the secrets store; each server that can start is synced',
    input: Type.Object(
      {
        content: Type.String({ minLength: 1, maxLength: 96 * 1024 * 1024 }),
        encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
        dryRun: Type.Optional(Type.Boolean()),
        /** Sync each created server after the import (default true). */
        sync: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
} as const;
