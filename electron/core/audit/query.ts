/**
 * Reading the audit log back: newest first, filtered (time range, kinds, tool, caller), paged by
 * the seq of the last record returned, so records appended between pages never repeat or shift.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { AuditKind, AuditRecord } from '../../../shared/audit.js';
import type { Page } from '../../../shared/types.js';
import { PageTokenCodec, queryBinding } from '../util/page-token.js';
import { listAuditFiles } from './files.js';
import { parseRecord } from './record.js';

export interface AuditFilter {
  since?: string;
  until?: string;
  kind?: AuditKind[];
  /** A tool's ID or slug (its calls, approvals and changes), or a bundle's (its changes). */
  tool?: string;
  /** Part of who acted ("mcp:", "cli", "rest@oauth:"), case-insensitive: a call's caller, an approval's caller or decider, a change's. */
  caller?: string;
  pageSize?: number;
  pageToken?: string;
}

export const DEFAULT_AUDIT_PAGE_SIZE = 100;

const tokens = new PageTokenCodec<[seq: number]>({
  prefix: 'au1.',
  cursor: (v) => (v.length === 1 && Number.isSafeInteger(v[0]) && (v[0] as number) > 0 ? [v[0] as number] : undefined),
  messages: {
    foreign: 'pageToken is not an audit page token; pass the nextPageToken of the previous page, or omit it for the first page',
    damaged: 'pageToken is damaged; pass the nextPageToken exactly as returned, or omit it for the first page',
    otherQuery: 'pageToken belongs to other filters; start again without a pageToken',
  },
});

function matches(r: AuditRecord, f: AuditFilter): boolean {
  if (f.since && r.at < f.since) return false;
  if (f.until && r.at > f.until) return false;
  if (f.kind?.length && !f.kind.includes(r.kind)) return false;
  if (f.tool) {
    if (r.kind === 'call' || r.kind === 'approval') {
      if (r.toolID !== f.tool && r.slug !== f.tool) return false;
    } else if (r.kind === 'change' && r.subject) {
      // A change of the tool, or of the bundle named (by ID or slug).
      const s = r.subject;
      if (s.toolID !== f.tool && s.slug !== f.tool && !(s.type === 'bundle' && s.bundleID === f.tool)) return false;
    } else return false;
  }
  if (f.caller) {
    const who =
      r.kind === 'call' ? [r.caller] : r.kind === 'approval' ? [r.caller, r.decider ?? r.decidedBy] : r.kind === 'change' ? [r.caller ?? r.actor] : [];
    if (!who.some((w) => w.toLowerCase().includes(f.caller!.toLowerCase()))) return false;
  }
  return true;
}

/** ISO times compared as text must be spelled alike: "…T10:00:00Z" and "…T10:00:00.000Z" are one instant. */
function normalTime(at: string | undefined): string | undefined {
  return at === undefined ? undefined : new Date(at).toISOString();
}

export async function listAudit(dir: string, given: AuditFilter): Promise<Page<AuditRecord>> {
  const since = normalTime(given.since);
  const until = normalTime(given.until);
  const filter: AuditFilter = { ...given, ...(since ? { since } : {}), ...(until ? { until } : {}) };
  const binding = queryBinding([filter.since, filter.until, filter.kind, filter.tool, filter.caller]);
  const below = filter.pageToken ? tokens.decode(filter.pageToken, binding)[0] : Infinity;
  const size = filter.pageSize ?? DEFAULT_AUDIT_PAGE_SIZE;
  const items: AuditRecord[] = [];
  const files = await listAuditFiles(dir);
  for (let i = files.length - 1; i >= 0 && items.length <= size; i--) {
    const text = await fsp.readFile(join(dir, files[i]!.name), 'utf8').catch(() => '');
    const lines = text.split('\n');
    for (let j = lines.length - 1; j >= 0 && items.length <= size; j--) {
      const r = lines[j] ? parseRecord(lines[j]!) : undefined;
      if (r && r.seq < below && matches(r, filter)) items.push(r);
    }
  }
  if (items.length <= size) return { items };
  const page = items.slice(0, size);
  return { items: page, nextPageToken: tokens.encode(binding, [page[page.length - 1]!.seq]) };
}
