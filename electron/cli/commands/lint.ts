/**
 * `lint-tools`: what about the tools agents see an agent may misread or confuse (tools.lint),
 * grouped by tool, each finding with its fix. Exit 1 when any finding is an error, else 0.
 * The set checked is an operation input, so a profile's tool IDs can be passed the same way.
 */
import type { Command } from 'commander';
import type { OpInput } from '../../../shared/operations.js';
import type { ToolLintFinding } from '../../../shared/types.js';
import { plural } from '../../../shared/format.js';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { printJson } from '../output.js';
import { allTools, bundleSlugs } from '../pages.js';

/** The findings as text: one block per tool (`bundle/slug@version`), then a count. */
export function lintReport(items: ToolLintFinding[], checked: number, refOf: (toolID: string) => string): string {
  const byTool = new Map<string, ToolLintFinding[]>();
  for (const f of items) (byTool.get(f.toolID) ?? byTool.set(f.toolID, []).get(f.toolID)!).push(f);
  const lines: string[] = [];
  for (const [toolID, findings] of byTool) {
    lines.push(`${refOf(toolID)} (agents see '${findings[0]!.name}')`);
    for (const f of findings) lines.push(`  ${f.severity.padEnd(8)} ${f.rule}: ${f.message}`, `          fix: ${f.fix}`);
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
      'find what agents may misread: near-duplicate names or descriptions, vague descriptions, arguments without a description or type; exit 1 on an error',
    )
    .option('--bundle <slug...>', 'only the tools agents see in these bundles (compared with every tool agents see)')
    .action(async (o: { bundle?: string[] }) => {
      const session = await cli.session();
      const bundleIDs = o.bundle?.map((slug) => session.bundleID(slug));
      await lintTools(session, cli, bundleIDs?.length ? { bundleIDs } : {});
    });
}
