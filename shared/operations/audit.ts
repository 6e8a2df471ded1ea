/** The audit log: list and verify. */
import { Type } from '@sinclair/typebox';
import { AUDIT_KINDS, type AuditRecord, type AuditVerifyResult } from '../audit.js';
import type { Page } from '../types.js';
import { op, PageSize, PageToken } from './op.js';

export const auditOperations = {
  'audit.list': op<Page<AuditRecord>>()({
    summary: 'Records of the audit log (calls, approvals, changes, gaps), newest first, filtered by time, kind, tool and caller',
    input: Type.Object(
      {
        since: Type.Optional(Type.String({ format: 'date-time' })),
        until: Type.Optional(Type.String({ format: 'date-time' })),
        kind: Type.Optional(Type.Array(Type.Union(AUDIT_KINDS.map((k) => Type.Literal(k))), { maxItems: AUDIT_KINDS.length })),
        /** A tool's ID or slug (its calls, approvals and changes), or a bundle's (its changes). */
        tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        /** Part of who acted (a call's or change's caller, an approval's caller or decider), case-insensitive. */
        caller: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'audit.verify': op<AuditVerifyResult>()({
    summary: 'Walks the whole audit log and checks every hash and link; reports the first problem by file and line',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
} as const;
