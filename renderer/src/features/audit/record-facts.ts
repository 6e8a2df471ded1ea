/**
 * An audit record as people read it in the detail panel: first the facts by name (what, the
 * operation, who, when, and for a change the state it left), then the details people rarely need
 * (the file's path, IDs, digests, the chain's hashes). Every field of the record is in one list or
 * the other, so nothing the log holds is hidden; a field this screen does not know yet goes to the
 * details as it is.
 */
import { auditSubjectName, CHANGE_DONE, type AuditRecord } from '../../../../shared/audit.js';

export interface Fact {
  label: string;
  value: string;
  /** Machine text (paths, IDs, digests): shown in the monospaced face. */
  mono?: boolean;
}

export interface RecordFacts {
  facts: Fact[];
  details: Fact[];
}

/** Fields every record has, shown by the panel's title (kind, seq) or among the details. */
const CHAIN = ['kind', 'seq', 'at', 'pid', 'host', 'prev', 'hash'];

const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export function recordFacts(r: AuditRecord, time: (iso: string) => string): RecordFacts {
  const facts: Fact[] = [];
  const details: Fact[] = [];
  const used = new Set<string>(CHAIN);
  const fact = (label: string, value: string | undefined, ...fields: string[]) => {
    fields.forEach((f) => used.add(f));
    if (value) facts.push({ label, value });
  };
  const detail = (label: string, field: string, value = (r as unknown as Record<string, unknown>)[field]) => {
    used.add(field);
    if (value !== undefined && value !== '') details.push({ label, value: valueText(value), mono: true });
  };

  switch (r.kind) {
    case 'change': {
      const s = r.subject;
      used.add('subject');
      fact('What', auditSubjectName(r), 'path');
      fact('Operation', r.op === 'update' && r.changed?.length ? `${CHANGE_DONE[r.op]}: ${r.changed.join(', ')}` : CHANGE_DONE[r.op], 'op', 'changed');
      fact('Who', r.caller && r.caller !== r.actor ? `${r.caller} (through ${r.actor})` : r.actor, 'caller', 'actor');
      if (s && (s.isEnabled !== undefined || s.inTrash)) {
        const state = [s.isEnabled === undefined ? undefined : s.isEnabled ? 'switched on' : 'switched off', s.inTrash ? 'in the Trash' : undefined];
        fact(r.op === 'delete' ? 'Before' : 'After', state.filter(Boolean).join(', '));
      }
      detail('Path', 'path');
      if (s?.bundleID) details.push({ label: 'Bundle ID', value: s.bundleID, mono: true });
      if (s?.toolID) details.push({ label: 'Tool ID', value: s.toolID, mono: true });
      detail('Before (SHA-256)', 'before');
      detail('After (SHA-256)', 'after');
      break;
    }
    case 'call':
      fact('Tool', `${r.slug} ${r.version}`, 'slug', 'version');
      fact('Result', `${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}, ${Math.round(r.durationMs)} ms`, 'status', 'errorCode', 'durationMs');
      fact(
        'Who',
        [r.caller, r.transport !== r.caller ? `through ${r.transport}` : '', r.profile ? `profile ${r.profile}` : ''].filter(Boolean).join(', '),
        'caller',
        'transport',
        'profile',
      );
      detail('Arguments (SHA-256)', 'argsDigest');
      detail('Invocation ID', 'invocationID');
      detail('Tool ID', 'toolID');
      detail('Bundle ID', 'bundleID');
      break;
    case 'approval':
      fact('Decision', r.decision === 'approve' ? 'Approved' : 'Denied', 'decision');
      fact('Tool', `${r.slug} ${r.version}`, 'slug', 'version');
      fact('Decided by', r.decider ? `${r.decider} (through ${r.decidedBy})` : r.decidedBy, 'decider', 'decidedBy');
      fact('Asked by', [r.caller, r.profile ? `profile ${r.profile}` : ''].filter(Boolean).join(', '), 'caller', 'profile');
      detail('Approval ID', 'approvalID');
      detail('Arguments (SHA-256)', 'argsDigest');
      detail('Tool ID', 'toolID');
      break;
    case 'gap':
      fact('Lost', r.reason === 'dropped' ? `${r.lost} records (the log could not be written)` : 'a torn record was cut', 'reason', 'lost');
      fact('Between', r.from && r.to ? `${time(r.from)} and ${time(r.to)}` : undefined, 'from', 'to');
      detail('File', 'file');
      detail('Torn bytes', 'tornBytes');
      detail('Torn (SHA-256)', 'tornDigest');
      break;
  }
  fact('When', time(r.at));
  details.push({ label: 'Record', value: String(r.seq), mono: true });
  details.push({ label: 'Process', value: r.host ? `pid ${r.pid} on ${r.host}` : `pid ${r.pid}`, mono: true });
  for (const [field, value] of Object.entries(r))
    if (!used.has(field) && value !== undefined) details.push({ label: field, value: valueText(value), mono: true });
  details.push({ label: 'Hash', value: r.hash, mono: true }, { label: 'Previous hash', value: r.prev, mono: true });
  return { facts, details };
}
