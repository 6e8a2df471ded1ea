/**
 * `guard show|accept <tool>`: the definition guard's findings on one tool as it is now (tools.guard),
 * and a person's acceptance of them (tools.acceptGuard), so a bundle whose policy is withhold
 * offers the tool to agents again. `accept` shows what it accepts and asks (or takes --yes), and
 * sends the digest of what it showed: a definition changed in between is refused, never accepted
 * unseen. The acceptance holds for this definition only; any later change is checked again.
 */
import type { Command } from 'commander';
import type { ToolGuardReview } from '../../../shared/guard/types.js';
import { plural } from '../../../shared/format.js';
import type { CliContext } from '../context.js';
import { CliFailure } from '../failure.js';
import { printJson } from '../output.js';
import { prompt } from '../terminal.js';

const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/** The review as text: the tool, the policy and whether agents get it, each finding with where and the fix, the acceptance. */
export function guardReport(ref: string, r: ToolGuardReview): string {
  const lines = [`${ref}: ${r.findings.length ? plural(r.findings.length, 'finding') : 'the guard finds nothing'}; policy ${r.policy}`];
  for (const f of r.findings) {
    lines.push(`  ${f.severity.padEnd(8)} ${f.class}: ${f.message}`);
    lines.push(`          at ${f.pointer}: ${JSON.stringify(clip(f.span.text))}`);
    lines.push(`          fix: ${f.fix}`);
  }
  if (r.accepted) {
    const who = r.accepted.by ? ` by ${r.accepted.by}` : '';
    lines.push(
      r.accepted.current
        ? `accepted${who} at ${r.accepted.acceptedAt}${r.accepted.classes?.length ? `: ${r.accepted.classes.join(', ')}` : ''}`
        : `an acceptance${who} at ${r.accepted.acceptedAt} was of an earlier definition: it no longer holds`,
    );
  }
  if (r.withheld) lines.push(`withheld from agents: ${r.withheld}`);
  lines.push(`definition ${r.digest}`);
  return `${lines.join('\n')}\n`;
}

export function registerGuardCommands(program: Command, cli: CliContext): void {
  const guard = program
    .command('guard')
    .description("the definition guard's findings on a tool: show <tool>, accept <tool> [--yes] (a withhold policy offers it to agents again)");
  guard
    .command('show <tool>')
    .description("the guard's findings on <bundle>/<tool>[@version] as it is now, its bundle's policy, and whether a person accepted them")
    .action(async (ref: string) => {
      const session = await cli.session();
      const review = await session.call('tools.guard', session.toolKey(ref));
      if (cli.json()) return printJson(review);
      process.stdout.write(guardReport(ref, review));
    });
  guard
    .command('accept <tool>')
    .description("accept the guard's findings on <bundle>/<tool>[@version] as its definition is now; a later change of the definition is checked again")
    .option('-y, --yes', 'accept without asking')
    .action(async (ref: string, o: { yes?: boolean }) => {
      const session = await cli.session();
      const key = session.toolKey(ref);
      const review = await session.call('tools.guard', key);
      if (!review.classes.length) {
        if (cli.json()) return printJson(review);
        process.stdout.write(`${ref}: the guard finds no error in its definition; nothing to accept\n`);
        return;
      }
      if (review.accepted?.current) {
        if (cli.json()) return printJson(review);
        process.stdout.write(
          `${ref}: its findings (${review.classes.join(', ')}) are already accepted, by ${review.accepted.by ?? 'someone'} at ${review.accepted.acceptedAt}\n`,
        );
        return;
      }
      if (!o.yes) {
        if (!process.stdin.isTTY) {
          throw new CliFailure({
            code: 'CONFIRMATION_REQUIRED',
            message: `${ref} has guard errors (${review.classes.join(', ')}): read them with \`toolwright guard show ${ref}\`, then run this again with --yes to accept them`,
          });
        }
        process.stdout.write(guardReport(ref, review));
        const question = `Accept ${plural(review.classes.length, 'class', 'classes')} of findings (${review.classes.join(', ')}) on ${ref} as its definition is now? [y/N] `;
        if (!/^y(es)?$/i.test((await prompt(question)).trim())) {
          throw new CliFailure({ code: 'CONFIRMATION_REQUIRED', message: 'not confirmed; nothing accepted' });
        }
      }
      const tool = await session.call('tools.acceptGuard', { ...key, digest: review.digest });
      if (cli.json()) return printJson(tool);
      const agents =
        review.policy === 'withhold' ? (tool.availability.ok ? '; agents are offered it again' : `; still unavailable: ${tool.availability.reason}`) : '';
      process.stdout.write(
        `accepted the guard's findings on ${ref} (${review.classes.join(', ')}), definition ${review.digest}${agents}. A later change of the definition is checked again.\n`,
      );
    });
}
