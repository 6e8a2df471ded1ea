/**
 * The audit log: every call, approval decision and change to stored state, newest first, in a
 * virtualised table with filters; a record's fields on selection, and "Verify chain", which walks
 * every file and says whether a record was edited, removed or reordered.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAuditRecords, type AuditListFilter } from '../../api/queries.js';
import { verifyAudit } from '../../api/operations.js';
import { ErrorState, Loading, Badge, Empty } from '../../components/States.js';
import { absoluteTime, relativeTime } from '../../lib/format.js';
import { AUDIT_KINDS, auditSummary, auditWho, type AuditKind, type AuditRecord, type AuditVerifyResult } from '../../../../shared/audit.js';
import './AuditScreen.css';

const ROW_HEIGHT = 36;
const RANGES = { all: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
type Range = keyof typeof RANGES;

const KIND_TONE: Record<AuditKind, 'neutral' | 'info' | 'ok' | 'warn' | 'danger'> = { call: 'info', approval: 'warn', change: 'neutral', gap: 'danger' };

function Filters({ filter, onChange }: { filter: Filters; onChange: (f: Filters) => void }) {
  return (
    <div className="audit-filters" role="search" aria-label="Filter the audit log">
      <label className="audit-filter">
        <span className="field-label">Kind</span>
        <select className="input input-small" value={filter.kind} onChange={(e) => onChange({ ...filter, kind: e.target.value as Filters['kind'] })}>
          <option value="">all kinds</option>
          {AUDIT_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label className="audit-filter">
        <span className="field-label">Tool or bundle</span>
        <input className="input input-small" placeholder="slug or ID" value={filter.tool} onChange={(e) => onChange({ ...filter, tool: e.target.value })} />
      </label>
      <label className="audit-filter">
        <span className="field-label">Who</span>
        <input className="input input-small" placeholder="mcp:, cli…" value={filter.caller} onChange={(e) => onChange({ ...filter, caller: e.target.value })} />
      </label>
      <label className="audit-filter">
        <span className="field-label">Time</span>
        <select className="input input-small" value={filter.range} onChange={(e) => onChange({ ...filter, range: e.target.value as Range })}>
          <option value="all">all time</option>
          <option value="1h">last hour</option>
          <option value="24h">last 24 hours</option>
          <option value="7d">last 7 days</option>
        </select>
      </label>
    </div>
  );
}

interface Filters {
  kind: AuditKind | '';
  tool: string;
  caller: string;
  range: Range;
}

function listFilter(f: Filters, now: number): AuditListFilter {
  return {
    ...(f.kind ? { kind: [f.kind] } : {}),
    ...(f.tool.trim() ? { tool: f.tool.trim() } : {}),
    ...(f.caller.trim() ? { caller: f.caller.trim() } : {}),
    ...(RANGES[f.range] ? { since: new Date(now - RANGES[f.range]).toISOString() } : {}),
  };
}

function VerifyResult({ result }: { result: AuditVerifyResult }) {
  return (
    <div className={`notice ${result.ok ? 'notice-info' : 'notice-danger'} audit-verify`} role="status" data-testid="audit-verify-result">
      <strong>{result.ok ? 'Chain intact. ' : 'The audit log was altered. '}</strong>
      {result.summary}
    </div>
  );
}

function Detail({ record }: { record: AuditRecord }) {
  const fields = Object.entries(record).filter(([k]) => k !== 'kind');
  return (
    <aside className="audit-detail" aria-label={`Record ${record.seq}`} data-testid="audit-detail" tabIndex={0}>
      <h2 className="audit-detail-title">
        Record {record.seq} <Badge tone={KIND_TONE[record.kind]}>{record.kind}</Badge>
      </h2>
      <p className="audit-detail-summary">
        {auditSummary(record)} — {auditWho(record)}
      </p>
      <dl className="audit-fields">
        {fields.map(([k, v]) => (
          <div key={k} className="audit-field">
            <dt>{k}</dt>
            <dd className="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

export function AuditScreen() {
  const [filters, setFilters] = useState<Filters>({ kind: '', tool: '', caller: '', range: 'all' });
  // The time range is fixed when the filters change, so the query key stays put while scrolling.
  const filter = useMemo(() => listFilter(filters, Date.now()), [filters]);
  const pages = useAuditRecords(filter);
  const records = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  const [selected, setSelected] = useState<number | null>(null);
  const [verify, setVerify] = useState<{ running: boolean; result?: AuditVerifyResult; error?: unknown }>({ running: false });
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: records.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    const last = items[items.length - 1];
    if (last && last.index >= records.length - 50 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [items, records.length, pages]);

  const runVerify = async () => {
    setVerify({ running: true });
    try {
      setVerify({ running: false, result: await verifyAudit({}) });
    } catch (error) {
      setVerify({ running: false, error });
    }
  };
  const chosen = records.find((r) => r.seq === selected);

  return (
    <section className="page page-fill audit" aria-labelledby="audit-title">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="audit-title">
            Audit log
          </h1>
          <button type="button" className="btn btn-primary" onClick={() => void runVerify()} disabled={verify.running} data-testid="audit-verify">
            {verify.running ? 'Verifying…' : 'Verify chain'}
          </button>
        </div>
        <p className="page-sub">
          Every call, approval and change, from every process sharing this data folder. Each record carries the hash of the one before it, so an edited, removed
          or reordered record breaks the chain. Arguments and results are never kept, only their digest.
        </p>
      </header>
      {verify.result && <VerifyResult result={verify.result} />}
      {verify.error !== undefined && <ErrorState error={verify.error} retry={() => void runVerify()} />}
      <Filters filter={filters} onChange={setFilters} />
      <div className="audit-body">
        <div className="audit-table" role="grid" aria-label="Audit records, newest first" aria-rowcount={records.length}>
          <div className="audit-row audit-head" role="row">
            <span role="columnheader">Time</span>
            <span role="columnheader">Kind</span>
            <span role="columnheader">What</span>
            <span role="columnheader">Who</span>
          </div>
          {pages.isPending ? (
            <Loading label="Loading the audit log…" />
          ) : pages.isError ? (
            <ErrorState error={pages.error} retry={() => void pages.refetch()} />
          ) : records.length === 0 ? (
            <Empty title="No records">Nothing matches these filters yet.</Empty>
          ) : (
            <div className="audit-scroll" ref={scrollRef}>
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {items.map((item) => {
                  const r = records[item.index]!;
                  return (
                    <div
                      key={r.seq}
                      role="row"
                      tabIndex={0}
                      aria-selected={r.seq === selected}
                      className={`audit-row${r.seq === selected ? ' is-selected' : ''}`}
                      style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                      onClick={() => setSelected(r.seq)}
                      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setSelected(r.seq))}
                      data-testid="audit-row"
                    >
                      <span role="gridcell" title={absoluteTime(r.at)}>
                        {relativeTime(r.at)}
                      </span>
                      <span role="gridcell">
                        <Badge tone={KIND_TONE[r.kind]}>{r.kind}</Badge>
                      </span>
                      <span role="gridcell" className="audit-what">
                        {auditSummary(r)}
                      </span>
                      <span role="gridcell" className="audit-who">
                        {auditWho(r)}
                      </span>
                    </div>
                  );
                })}
              </div>
            </div>
          )}
        </div>
        {chosen ? <Detail record={chosen} /> : <aside className="audit-detail audit-detail-empty">Select a record to see all its fields.</aside>}
      </div>
    </section>
  );
}
