/** `audit verify|export`: the data folder's audit log, through the operations audit.verify and audit.list. */
import type { Command } from 'commander';
import { AUDIT_KINDS, type AuditKind, type AuditRecord } from '../../../shared/audit.js';
import type { CliContext } from '../context.js';
import { CliFailure } from '../failure.js';
import { printJson } from '../output.js';

const DURATION = /^(\d+)\s*(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: an ISO time, or a duration back from now (90s, 30m, 24h, 7d). */
export function sinceOf(text: string, now = Date.now()): string {
  const d = DURATION.exec(text.trim());
  if (d) return new Date(now - Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS]).toISOString();
  const at = Date.parse(text);
  if (Number.isNaN(at)) {
    throw new CliFailure({ code: 'INVALID_INPUT', message: `--since ${text} is neither an ISO time (2026-11-25T10:00:00Z) nor a duration (30m, 24h, 7d)` });
  }
  return new Date(at).toISOString();
}

function kindsOf(text: string): AuditKind[] {
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const bad = kinds.filter((k) => !(AUDIT_KINDS as readonly string[]).includes(k));
  if (bad.length) throw new CliFailure({ code: 'INVALID_INPUT', message: `--kind ${bad.join(',')}: the kinds are ${AUDIT_KINDS.join(', ')}` });
  return kinds as AuditKind[];
}

export function registerAuditCommands(program: Command, cli: CliContext): void {
  const audit = program.command('audit').description('the tamper-evident audit log: verify (exit 1 when the chain is broken), export [--since] [--kind]');
  audit
    .command('verify')
    .description('check every record and link of the audit log; report the first problem by file and line')
    .action(async () => {
      const session = await cli.session();
      const result = await session.call('audit.verify', {});
      if (cli.json()) printJson(result);
      else process.stdout.write(`${result.ok ? '' : 'audit log broken: '}${result.summary}\n`);
      if (!result.ok) process.exitCode = 1;
    });
  audit
    .command('export')
    .description('print records as JSON Lines, oldest first')
    .option('--since <time>', 'an ISO time or a duration back from now (24h, 7d)')
    .option('--kind <kinds>', `comma-separated: ${AUDIT_KINDS.join(',')}`)
    .action(async (opts: { since?: string; kind?: string }) => {
      const filter = { ...(opts.since ? { since: sinceOf(opts.since) } : {}), ...(opts.kind ? { kind: kindsOf(opts.kind) } : {}) };
      const session = await cli.session();
      const newestFirst: AuditRecord[] = [];
      let pageToken: string | undefined;
      do {
        const page = await session.call('audit.list', { ...filter, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
        newestFirst.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      for (let i = newestFirst.length - 1; i >= 0; i--) process.stdout.write(JSON.stringify(newestFirst[i]) + '\n');
    });
}
