/**
 * `lint-tools`: what about the tools agents see an agent may misread or confuse, and what the
 * definition guard finds in them (tools.lint), grouped by tool, each finding with where it is
 * (for the guard's: the JSON pointer and the offending text) and its fix. Exit 1 when any finding is an error, else 0.
 * The set checked is an operation input, so a profile's tool IDs can be passed the same way.
 */
import type { Command } from 'commander';
import type { OpInput } from '../../../shared/operations.js';
import type { ToolLintFinding } from '../../../shared/types.js';
import { plural } from '../../../shared/format.js';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { printJson } from '../output.js';
import { CliFailure } from '../failure.js';
import { allTools, bundleSlugs } from '../pages.js';

const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/** The findings as text: one block per tool (`bundle/slug@version`), then a count. */
export function lintReport(items: ToolLintFinding[], checked: number, refOf: (toolID: string) => string): string {
  const byTool = new Map<string, ToolLintFinding[]>();
  for (const f of items) (byTool.get(f.toolID) ?? byTool.set(f.toolID, []).get(f.toolID)!).push(f);
  const lines: string[] = [];
  for (const [toolID, findings] of byTool) {
    lines.push(`${refOf(toolID)} (agents see '${findings[0]!.name}')`);
    for (const f of findings) {
      lines.push(`  ${f.severity.padEnd(8)} ${f.rule}: ${f.message}`);
      if (f.pointer) lines.push(`          at ${f.pointer}${f.span ? `: ${JSON.stringify(clip(f.span.text))}` : ''}`);
      lines.push(`          fix: ${f.fix}`);
    }
    lines.push('');
  }
  const errors = items.filter((f) => f.severity === 'error').length;
  lines.push(
    `${plural(checked, 'tool')} checked: ${plural(errors, 'error')}, ${plural(items.length - errors, 'warning')}` +
      (items.length ? ` in ${plural(byTool.size, 'tool')}` : ''),
  );
  return `${lines.join('\n')}\n`;
}

async function lintTools(session: CliSession, cli: CliContext, input: OpInput<'tools.lint'>): Promise<void> {
  const result = await session.call('tools.lint', input);
  process.exitCode = result.items.some((f) => f.severity === 'error') ? 1 : 0;
  if (cli.json()) return printJson(result);
  const slugs = await bundleSlugs(session);
  const refs = new Map(
    (await allTools(session, { includeDisabled: true })).map((t) => [t.toolID, `${slugs.get(t.bundleID) ?? t.bundleID}/${t.slug}@${t.version}`]),
  );
  process.stdout.write(lintReport(result.items, result.checked, (id) => refs.get(id) ?? id));
}

export function registerLintCommand(program: Command, cli: CliContext): void {
  program
    .command('lint-tools')
    .description(
      'find what agents may misread (near-duplicate names or descriptions, vague descriptions, arguments without a description or type) and poisoned definitions (orders to the model, exfiltration, shadowing, commands, hidden characters or text); exit 1 on an error',
    )
    .option('--bundle <slug...>', 'only the tools agents see in these bundles (compared with every tool agents see)')
    .option('--profile <slug>', "only the tools a profile's address lists")
    .action(async (o: { bundle?: string[]; profile?: string }) => {
      const session = await cli.session();
      if (o.profile !== undefined) {
        if (o.bundle?.length) throw new CliFailure({ code: 'INVALID_INPUT', message: 'give --profile or --bundle, not both' });
        const profile = (await session.call('profiles.list', {})).items.find((p) => p.slug === o.profile);
        if (!profile) throw new CliFailure({ code: 'NOT_FOUND', message: `no profile '${o.profile}' (toolwright profiles lists them)` });
        const { tools } = await session.call('profiles.get', { profileID: profile.profileID });
        if (!tools.length) {
          process.stdout.write(`profile '${o.profile}' lists no tools\n`);
          return;
        }
        return lintTools(session, cli, { toolIDs: tools.map((t) => t.toolID) });
      }
      const bundleIDs = o.bundle?.map((slug) => session.bundleID(slug));
      await lintTools(session, cli, bundleIDs?.length ? { bundleIDs } : {});
    });
}
