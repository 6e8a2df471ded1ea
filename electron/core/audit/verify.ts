/**
 * `toolwright audit verify`: walks every audit file in order, checks each record's hash and its
 * link to the one before, and reports the first problem by file and line: an edited record, a
 * removed or reordered one, a file cut off mid-record, a file missing from the sequence.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { AuditProblem, AuditRecord, AuditVerifyResult } from '../../../shared/audit.js';
import { auditFileName, listAuditFiles } from './files.js';
import { GENESIS, hashMatches } from './record.js';
import { parseRecord } from './record.js';

const count = (n: number) => n.toLocaleString('en-US');

interface Walk {
  records: number;
  gaps: number;
  prevHash: string;
  prevSeq: number;
  prevWhere: string;
  first?: AuditRecord;
  last?: AuditRecord;
}

export async function verifyAudit(dir: string): Promise<AuditVerifyResult> {
  const files = await listAuditFiles(dir);
  const walk: Walk = { records: 0, gaps: 0, prevHash: GENESIS, prevSeq: 0, prevWhere: 'the start of the log' };
  const fail = (problem: AuditProblem): AuditVerifyResult => ({
    ok: false,
    records: walk.records,
    files: files.length,
    gaps: walk.gaps,
    problem,
    summary: `${problem.file}${problem.line ? ` line ${problem.line}` : ''}: ${problem.message}`,
  });
  let expectedN = 1;
  for (const { n, name } of files) {
    if (n !== expectedN) {
      const missing = n - expectedN === 1 ? auditFileName(expectedN) : `${auditFileName(expectedN)} to ${auditFileName(n - 1)}`;
      return fail({ file: missing, message: `missing from the sequence (the log goes on with ${name}): a file was deleted` });
    }
    expectedN = n + 1;
    const problem = checkFile(name, await fsp.readFile(join(dir, name), 'utf8'), walk);
    if (problem) return fail(problem);
  }
  const from = walk.first?.at;
  const to = walk.last?.at;
  const gaps = walk.gaps ? `; ${count(walk.gaps)} gap record${walk.gaps === 1 ? '' : 's'} (see audit export --kind gap)` : '';
  return {
    ok: true,
    records: walk.records,
    files: files.length,
    gaps: walk.gaps,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(walk.last ? { head: walk.last.hash } : {}),
    summary: walk.records
      ? `${count(walk.records)} record${walk.records === 1 ? '' : 's'} in ${count(files.length)} file${files.length === 1 ? '' : 's'}, chain intact, from ${from} to ${to}${gaps}; head ${walk.last!.hash}`
      : 'no audit records yet',
  };
}

function checkFile(name: string, text: string, walk: Walk): AuditProblem | undefined {
  const lines = text.split('\n');
  const complete = lines.pop() === '';
  if (!complete) lines.push(text.slice(text.lastIndexOf('\n') + 1));
  const records = lines.map(parseRecord);
  const lineOfSeq = new Map<number, number>();
  records.forEach((r, i) => r && lineOfSeq.set(r.seq, i + 1));
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    if (!complete && i === lines.length - 1) {
      return { file: name, line, message: 'the record is cut off (no end of line): the file was truncated mid-record, or a writer stopped mid-write' };
    }
    const record = records[i];
    if (!record) return { file: name, line, message: 'not a valid record (not JSON with seq, prev and hash): it was edited or damaged' };
    if (!hashMatches(record)) return { file: name, line, message: "the record's hash does not match its content — it was edited" };
    const expected = walk.prevSeq + 1;
    if (record.prev !== walk.prevHash || record.seq !== expected) {
      const later = lineOfSeq.get(expected);
      if (record.seq !== expected && later !== undefined && later > line) {
        return {
          file: name,
          line,
          message: `records are out of order: this is record ${record.seq}, but record ${expected} comes later (line ${later}) — they were reordered`,
        };
      }
      if (record.seq > expected) {
        const what = record.seq - expected === 1 ? `record ${expected} is` : `records ${expected} to ${record.seq - 1} are`;
        return { file: name, line, message: `${what} missing between ${walk.prevWhere} and this line — removed` };
      }
      if (record.seq < expected) {
        return {
          file: name,
          line,
          message: `record ${record.seq} comes after record ${walk.prevSeq} (${walk.prevWhere}) — records were reordered or repeated`,
        };
      }
      return { file: name, line, message: `its link to the record before (${walk.prevWhere}) does not match — that record was replaced` };
    }
    walk.records++;
    if (record.kind === 'gap') walk.gaps++;
    walk.first ??= record;
    walk.last = record;
    walk.prevHash = record.hash;
    walk.prevSeq = record.seq;
    walk.prevWhere = `${name} line ${line}`;
  }
  return undefined;
}
