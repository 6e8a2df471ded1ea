/** Moving bundles: export, import (ZIP, SKILL.md, OpenAPI) and container folders. MCP configurations are the upstream type's (./upstream.ts). */
import { Type } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import type { ImportReport, ContainerImportResult } from '../types.js';
import { op } from './op.js';

export const transferOperations = {
  'bundles.export': op<{ zip: Uint8Array; fileName: string }>()({
    summary: 'Bundles as a deterministic ZIP',
    input: Type.Object({ bundleIDs: Type.Array(Uuid, { minItems: 1, maxItems: 1000 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.import': op<ImportReport>()({
    summary: 'Import a ZIP of bundles; all or nothing',
    input: Type.Object(
      {
        zip: Type.Unsafe<Uint8Array>({ instanceofUint8Array: true }),
        onConflict: Type.Optional(Type.Union([Type.Literal('skip'), Type.Literal('replace'), Type.Literal('copy')])),
        /** Report what would happen (conflicts included) without writing anything. */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'CONFLICT', 'BUILTIN_READONLY', 'PAYLOAD_TOO_LARGE'],
  }),
  'bundles.importSkill': op<ImportReport>()({
    summary: 'A new bundle from a SKILL.md whose YAML front matter lists tools with http or script backends',
    input: Type.Object(
      { text: Type.String({ minLength: 1, maxLength: 16 * 1024 * 1024 }), dryRun: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
  'bundles.importOpenApi': op<ImportReport>()({
    summary: 'A new bundle of http tools, one per operation of an OpenAPI 3 document (JSON or YAML); hosts to allow come back in the report',
    input: Type.Object(
      {
        document: Type.String({ minLength: 1, maxLength: 16 * 1024 * 1024 }),
        /** Base URL to use instead of the document's servers[0] (needed when that one is relative). */
        serverUrl: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 2048 })),
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
  'tools.importContainer': op<ContainerImportResult>()({
    summary: 'A container tool in an existing bundle from a manifest.json + Dockerfile + runner folder (its files, relative paths)',
    input: Type.Object(
      {
        bundleID: Uuid,
        files: Type.Array(
          Type.Object(
            {
              path: Type.String({ minLength: 1, maxLength: 1024 }),
              content: Type.String({ maxLength: 96 * 1024 * 1024 }),
              encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
              executable: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 5000 },
        ),
        /** Check and report what would be created, writing nothing (the other imports' dryRun). */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY', 'PAYLOAD_TOO_LARGE'],
  }),
} as const;
