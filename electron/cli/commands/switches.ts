/** `enable` and `disable`: a bundle's or a tool's switch, through bundles.patch and tools.patch. */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printJson } from '../output.js';
import { allBundles } from '../pages.js';

export function registerSwitchCommands(program: Command, cli: CliContext): void {
  for (const [name, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    program
      .command(`${name} <target>`)
      .description(`switch ${isEnabled ? 'on' : 'off'} a bundle (<bundle>) or a tool (<bundle>/<tool>[@version])`)
      .action(async (target: string) => {
        const session = await cli.session();
        const asBundle =
          !target.includes('/') &&
          !target.includes('@') &&
          (await allBundles(session, { includeDisabled: true, deleted: 'include' })).some((b) => b.slug === target);
        if (asBundle) {
          const b = await session.call('bundles.patch', { bundleID: session.bundleID(target), patch: { isEnabled } });
          if (cli.json()) return printJson(b);
          process.stdout.write(`bundle ${b.slug} is ${isEnabled ? 'on' : 'off'}\n`);
          return;
        }
        const t = await session.call('tools.patch', { ...session.toolKey(target), patch: { isEnabled } });
        if (cli.json()) return printJson(t);
        process.stdout.write(`tool ${t.slug}@${t.version} is ${isEnabled ? 'on' : 'off'}\n`);
      });
  }
}
