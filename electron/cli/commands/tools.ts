/** `ls`, `search`, `show`: the tools and bundles of the store, as tables or (--json) the REST shapes. */
import type { Command } from 'commander';
import type { ToolView } from '../../../shared/types.js';
import type { CliContext } from '../context.js';
import { printJson, table } from '../output.js';
import { allTools, bundleSlugs } from '../pages.js';

const TOOL_HEADER = ['TOOL', 'TYPE', 'SAFETY', 'ENABLED', 'AVAILABILITY', 'NAME'];

function toolRows(slugs: Map<string, string>, tools: ToolView[]): string[][] {
  return tools.map((t) => [
    `${slugs.get(t.bundleID) ?? t.bundleID}/${t.slug}@${t.version}`,
    t.type,
    t.safety,
    t.isEnabled ? 'on' : 'off',
    t.availability.ok ? 'available' : `unavailable: ${t.availability.reason ?? ''}`,
    t.displayName,
  ]);
}

export function registerToolCommands(program: Command, cli: CliContext): void {
  program
    .command('ls')
    .description('list tools (or bundles with --bundles)')
    .option('--bundle <slug>', 'only the tools of this bundle')
    .option('--bundles', 'list bundles instead of tools')
    .option('--enabled', 'only the tools agents may use now')
    .action(async (o: { bundle?: string; bundles?: boolean; enabled?: boolean }) => {
      const session = await cli.session();
      if (o.bundles) {
        const items = (await session.call('bundles.list', { includeDisabled: true, pageSize: 500 })).items;
        if (cli.json()) return printJson(items);
        process.stdout.write(
          table(
            items.map((b) => [b.slug, b.isEnabled ? 'on' : 'off', String(b.toolCount), b.isBuiltIn ? 'built-in' : '', b.displayName]),
            ['BUNDLE', 'ENABLED', 'TOOLS', '', 'NAME'],
          ),
        );
        return;
      }
      const bundleIDs = o.bundle ? [session.bundleID(o.bundle)] : undefined;
      const items = await allTools(session, { includeDisabled: !o.enabled, ...(bundleIDs ? { bundleIDs } : {}) });
      if (cli.json()) return printJson(items);
      process.stdout.write(table(toolRows(await bundleSlugs(session), items), TOOL_HEADER));
    });

  program
    .command('search <query...>')
    .description('fuzzy search over names, descriptions and tags')
    .action(async (words: string[]) => {
      const session = await cli.session();
      const page = await session.call('tools.search', { q: words.join(' '), includeDisabled: true, pageSize: 50 });
      if (cli.json()) return printJson(page.items);
      process.stdout.write(table(toolRows(await bundleSlugs(session), page.items), TOOL_HEADER));
    });

  program
    .command('show <tool>')
    .description('a tool in full: <bundle>/<tool>[@version], or <tool> when unique')
    .action(async (ref: string) => {
      const session = await cli.session();
      const tool = await session.call('tools.get', session.toolKey(ref));
      if (cli.json()) return printJson(tool);
      const slugs = await bundleSlugs(session);
      const lines = [
        `${tool.displayName}  (${slugs.get(tool.bundleID)}/${tool.slug}@${tool.version})`,
        tool.description,
        `type ${tool.type}, ${tool.safety}, ${tool.isEnabled ? 'enabled' : 'disabled'}, ${tool.availability.ok ? 'available' : `unavailable: ${tool.availability.reason}`}`,
        `arguments: ${JSON.stringify(tool.argSchema, null, 2)}`,
      ];
      process.stdout.write(lines.filter(Boolean).join('\n') + '\n');
    });
}
