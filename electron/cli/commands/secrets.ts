/** `secrets ls|set|rm`: app-scoped secrets; a value comes from stdin or a hidden prompt, never argv. */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliFailure } from '../failure.js';
import { printJson, table } from '../output.js';
import { prompt, readStdin } from '../terminal.js';

export function registerSecretCommands(program: Command, cli: CliContext): void {
  const secrets = program.command('secrets').description('app-scoped secrets: ls, set NAME (value from stdin or a hidden prompt), rm NAME');
  secrets
    .command('ls')
    .description('secret names, values masked')
    .action(async () => {
      const session = await cli.session();
      const items = (await session.call('secrets.list', {})).items;
      if (cli.json()) return printJson(items);
      process.stdout.write(
        table(
          items.map((s) => [s.name, s.masked, s.updatedAt ?? '']),
          ['NAME', 'VALUE', 'UPDATED'],
        ),
      );
    });
  secrets
    .command('set <name>')
    .description('set a secret; the value is read from stdin or a hidden prompt, never from the command line')
    .action(async (name: string) => {
      const session = await cli.session();
      const value = process.stdin.isTTY ? await prompt(`value of ${name}: `, true) : (await readStdin()).replace(/\r?\n$/, '');
      if (!value) throw new CliFailure({ code: 'INVALID_INPUT', message: 'the value is empty; type it at the prompt or pipe it in' });
      const info = await session.call('secrets.set', { name, value });
      if (cli.json()) return printJson(info);
      process.stdout.write(`secret ${info.name} set\n`);
    });
  secrets
    .command('rm <name>')
    .description('remove a secret')
    .action(async (name: string) => {
      const session = await cli.session();
      await session.call('secrets.delete', { name });
      if (cli.json()) return printJson({ deleted: true });
      process.stdout.write(`secret ${name} removed\n`);
    });
}
