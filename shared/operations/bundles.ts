/** Bundles: list, read, create or replace, switch, soft delete, restore and purge. */
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import { BundleSource } from '../upstream.js';
import { BundleGuardSettings } from '../guard/policy.js';
import type { BundleView, Page } from '../types.js';
import { op, Ids, PageSize, PageToken, EnabledPatch, IfMatch } from './op.js';

export const BundleInput = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 1024 }),
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    isEnabled: Type.Optional(Type.Boolean()),
    /** An upstream MCP server (shared/upstream.ts); left out, a replace keeps the bundle's; null removes it. */
    source: Type.Optional(Type.Union([BundleSource, Type.Null()])),
    /** The guard's policy and output mode; left out, a replace keeps the bundle's; null removes them. */
    guard: Type.Optional(Type.Union([BundleGuardSettings, Type.Null()])),
    // read-only, ignored
    bundleID: Type.Optional(Type.String()),
    schemaVersion: Type.Optional(Type.String()),
    isBuiltIn: Type.Optional(Type.Boolean()),
    createdAt: Type.Optional(Type.String()),
    modifiedAt: Type.Optional(Type.String()),
    softDeletedAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    etag: Type.Optional(Type.String()),
    toolCount: Type.Optional(Type.Unknown()),
    agentToolCount: Type.Optional(Type.Unknown()),
    contextTokens: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type BundleInput = Static<typeof BundleInput>;

export const bundlesOperations = {
  'bundles.list': op<Page<BundleView>>()({
    summary: 'List bundles (soft-deleted ones only with deleted=include|only)',
    input: Type.Object(
      {
        bundleIDs: Type.Optional(Ids),
        includeDisabled: Type.Optional(Type.Boolean()),
        deleted: Type.Optional(Type.Union([Type.Literal('exclude'), Type.Literal('include'), Type.Literal('only')])),
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'bundles.get': op<BundleView>()({
    summary: 'One bundle, also when soft-deleted',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.put': op<{ bundle: BundleView; created: boolean }>()({
    summary: 'Create or replace a bundle',
    input: Type.Object({ bundleID: Uuid, bundle: BundleInput, ifMatch: IfMatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUILTIN_READONLY', 'BUNDLE_DELETED', 'MODIFIED_ELSEWHERE'],
  }),
  'bundles.patch': op<BundleView>()({
    summary: 'Switch a bundle on or off',
    input: Type.Object({ bundleID: Uuid, patch: EnabledPatch, ifMatch: IfMatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DELETED', 'MODIFIED_ELSEWHERE'],
  }),
  'bundles.delete': op<BundleView>()({
    summary: 'Soft-delete a bundle (restorable; reaped after 2 days once it holds no tools)',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUILTIN_READONLY'],
  }),
  'bundles.restore': op<BundleView>()({
    summary: 'Undo a soft delete',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.purge': op<{ purged: true; toolCount: number }>()({
    summary: 'Delete a bundle in the Trash for good, with its tools',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUILTIN_READONLY'],
  }),
} as const;
