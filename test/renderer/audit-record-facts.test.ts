/**
 * The audit screen's detail panel reads a record as facts (renderer/src/features/audit/record-facts.ts):
 * a change names what changed by display name and slug, the operation, who and when, never the
 * subject as raw JSON; the path, IDs, digests and the chain are details; no field is left out.
 */
import { describe, expect, it } from 'vitest';
import { recordFacts, type Fact } from '../../renderer/src/features/audit/record-facts.js';
import { auditSummary, type AuditRecord } from '../../shared/audit.js';

const CHAIN = { seq: 41, at: '2026-11-29T10:00:00.000Z', pid: 4242, host: 'box', prev: 'a'.repeat(64), hash: 'b'.repeat(64) };
const BUNDLE = '0190a000-0000-7000-8000-0000000000b1';
const TOOL = '0190a000-0000-7000-8000-0000000000c1';
const time = (iso: string) => `at ${iso}`;
const byLabel = (facts: Fact[]) => Object.fromEntries(facts.map((f) => [f.label, f.value]));

const toolChange: AuditRecord = {
  ...CHAIN,
  kind: 'change',
  path: `bundles/${BUNDLE}/tools/${TOOL}/tool.json`,
  subject: { type: 'tool', bundleID: BUNDLE, toolID: TOOL, slug: 'sum', version: 'v1', displayName: 'Sum', isEnabled: false },
  changed: ['description', 'isEnabled'],
  op: 'update',
  actor: 'rest',
  caller: 'rest@oauth:alice',
  before: 'c'.repeat(64),
  after: 'd'.repeat(64),
};

describe('recordFacts', () => {
  it('reads a change of a tool: what by name and slug, the operation, who, when, the state it left; the path as a detail', () => {
    const { facts, details } = recordFacts(toolChange, time);
    expect(byLabel(facts)).toEqual({
      What: 'Tool “Sum” (sum v1)',
      Operation: 'Changed: description, isEnabled',
      Who: 'rest@oauth:alice (through rest)',
      After: 'switched off',
      When: 'at 2026-11-29T10:00:00.000Z',
    });
    expect(byLabel(details)).toMatchObject({
      Path: toolChange.kind === 'change' ? toolChange.path : '',
      'Bundle ID': BUNDLE,
      'Tool ID': TOOL,
      'Before (SHA-256)': 'c'.repeat(64),
      'After (SHA-256)': 'd'.repeat(64),
      Record: '41',
      Process: 'pid 4242 on box',
      Hash: 'b'.repeat(64),
      'Previous hash': 'a'.repeat(64),
    });
    // The subject is read, not dumped.
    expect(JSON.stringify([...facts, ...details])).not.toMatch(/"type":"tool"|displayName/);
  });

  it('names a bundle in the Trash, a created bundle, the settings and a file without a subject', () => {
    const trashed = recordFacts(
      {
        ...toolChange,
        path: `bundles/${BUNDLE}/bundle.json`,
        subject: { type: 'bundle', bundleID: BUNDLE, slug: 'maths', displayName: 'Maths', isEnabled: true, inTrash: true },
        changed: ['softDeletedAt'],
        caller: undefined,
      } as AuditRecord,
      time,
    );
    expect(byLabel(trashed.facts)).toMatchObject({
      What: 'Bundle “Maths” (maths)',
      Operation: 'Changed: softDeletedAt',
      Who: 'rest',
      After: 'switched on, in the Trash',
    });
    const created = recordFacts(
      { ...CHAIN, kind: 'change', path: 'config.json', subject: { type: 'config' }, op: 'create', actor: 'app', after: 'e'.repeat(64) },
      time,
    );
    expect(byLabel(created.facts)).toEqual({ What: 'The settings', Operation: 'Created', Who: 'app', When: 'at 2026-11-29T10:00:00.000Z' });
    const old = recordFacts(
      { ...CHAIN, kind: 'change', path: `bundles/${BUNDLE}/tools/${TOOL}/tool.json`, op: 'delete', actor: 'cli', before: 'f'.repeat(64) },
      time,
    );
    expect(byLabel(old.facts).What).toBe(`Tool ${TOOL.slice(0, 13)}…`);
    expect(byLabel(old.facts).Operation).toBe('Deleted');
  });

  it('reads a call and an approval by tool, result, decision and who; their digests and IDs are details', () => {
    const call = recordFacts(
      {
        ...CHAIN,
        kind: 'call',
        toolID: TOOL,
        bundleID: BUNDLE,
        slug: 'sum',
        version: 'v1',
        caller: 'mcp:claude',
        transport: 'mcp',
        profile: 'team',
        argsDigest: '1'.repeat(64),
        status: 'error',
        errorCode: 'TIMEOUT',
        durationMs: 12.4,
        invocationID: 'inv-1',
      },
      time,
    );
    expect(byLabel(call.facts)).toMatchObject({ Tool: 'sum v1', Result: 'error (TIMEOUT), 12 ms', Who: 'mcp:claude, through mcp, profile team' });
    expect(byLabel(call.details)).toMatchObject({ 'Arguments (SHA-256)': '1'.repeat(64), 'Invocation ID': 'inv-1', 'Tool ID': TOOL, 'Bundle ID': BUNDLE });
    const approval = recordFacts(
      {
        ...CHAIN,
        kind: 'approval',
        approvalID: 'ap-1',
        decision: 'deny',
        decidedBy: 'rest',
        decider: 'rest@oauth:bob',
        toolID: TOOL,
        slug: 'rm',
        version: 'v2',
        argsDigest: '2'.repeat(64),
        caller: 'mcp:cursor',
      },
      time,
    );
    expect(byLabel(approval.facts)).toMatchObject({
      Decision: 'Denied',
      Tool: 'rm v2',
      'Decided by': 'rest@oauth:bob (through rest)',
      'Asked by': 'mcp:cursor',
    });
  });

  it('leaves no field out: every field of any record is a fact or a detail, an unknown one as it is', () => {
    const future = { ...toolChange, reviewer: { name: 'carol' } } as unknown as AuditRecord;
    const { facts, details } = recordFacts(future, time);
    expect(byLabel(details)['reviewer']).toBe('{"name":"carol"}');
    const shown = [...facts, ...details].map((f) => f.value).join('\n');
    for (const v of [toolChange.kind === 'change' && toolChange.path, BUNDLE, TOOL, 'c'.repeat(64), 'rest@oauth:alice']) expect(shown).toContain(v);
    const gap = recordFacts({ ...CHAIN, kind: 'gap', reason: 'dropped', lost: 3, from: '2026-11-29T09:00:00Z', to: '2026-11-29T09:01:00Z' }, time);
    expect(byLabel(gap.facts)).toMatchObject({
      Lost: '3 records (the log could not be written)',
      Between: 'at 2026-11-29T09:00:00Z and at 2026-11-29T09:01:00Z',
    });
  });

  it("says a person accepted the guard's findings, apart from a change of the guard's output mode", () => {
    const accepted = { ...toolChange, changed: ['guard.accepted'] } as AuditRecord;
    expect(auditSummary(accepted)).toBe("Accepted the guard's findings on tool “Sum” (sum v1)");
    expect(byLabel(recordFacts(accepted, time).facts).Operation).toBe('Changed: guard.accepted');
    expect(auditSummary({ ...toolChange, changed: ['guard.output'] } as AuditRecord)).toBe('Changed tool “Sum” (sum v1): guard.output');
  });
});
