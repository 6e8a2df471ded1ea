/** `run` and `cancel`: a tool run through tools.invoke, printed as it streams, stopped by Ctrl-C or from elsewhere. */
import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { constants as osConstants } from 'node:os';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { collect, parseArgs } from '../args.js';
import { CliFailure, exitCodeFor } from '../failure.js';
import { printJson, printResult } from '../output.js';
import { StreamPrinter, stopOnSignal } from '../run-live.js';
import { prompt, readStdin } from '../terminal.js';

interface RunOptions {
  args?: string;
  arg: string[];
  yes?: boolean;
  stream?: boolean;
  invocationId?: string;
}

/** A cancel sent while the run goes; a failure to send it leaves the run to end by itself. */
const cancelRun = (session: CliSession, invocationID: string) => void session.call('tools.cancel', { invocationID }).catch(() => undefined);

export function registerRunCommands(program: Command, cli: CliContext): void {
  program
    .command('run <tool>')
    .description('run a tool: arguments as --args JSON, repeated --arg name=value, or JSON on stdin')
    .option('--args <json>', 'the arguments as one JSON object')
    .option('--arg <name=value>', 'one argument, typed by the argSchema (repeatable)', collect, [])
    .option('-y, --yes', 'confirm a privileged tool without asking')
    .option('--stream', 'print the output as it arrives (the default when stdout is a terminal; --json never streams)')
    .option('--no-stream', 'print only the result, at the end')
    .option('--invocation-id <id>', "the run's ID, to cancel it from elsewhere (POST /tools/invocations/{id}/cancel, toolwright cancel)")
    .action(async (ref: string, o: RunOptions) => {
      const session = await cli.session({ docker: true });
      const key = session.toolKey(ref);
      const tool = await session.call('tools.get', key);
      const stdin = o.args === undefined && o.arg.length === 0 && !process.stdin.isTTY ? await readStdin() : undefined;
      const args = parseArgs(tool.argSchema, o.args, o.arg, stdin);
      let confirm = o.yes === true;
      if ((tool.effectiveSafety ?? tool.safety) === 'privileged' && !confirm) {
        if (!process.stdin.isTTY || stdin !== undefined) {
          throw new CliFailure({ code: 'CONFIRMATION_REQUIRED', message: `${ref} is privileged: run it again with --yes to confirm` });
        }
        confirm = /^y(es)?$/i.test((await prompt(`${tool.displayName || tool.slug} is privileged. Run it? [y/N] `)).trim());
        if (!confirm) throw new CliFailure({ code: 'CONFIRMATION_REQUIRED', message: 'not confirmed; nothing ran' });
      }
      const streaming = !cli.json() && (o.stream ?? process.stdout.isTTY === true);
      const live = streaming ? new StreamPrinter() : undefined;
      const invocationID = o.invocationId ?? randomUUID();
      const stop = stopOnSignal(() => cancelRun(session, invocationID));
      let result;
      try {
        result = await session.call(
          'tools.invoke',
          { ...key, args, confirm, invocationID },
          {
            // A signal that came while the call was being admitted stops it as soon as it starts.
            onStart: () => stop.signal && cancelRun(session, invocationID),
            ...(live ? { onEvent: live.onEvent } : {}),
          },
        );
      } finally {
        stop.dispose();
      }
      if (cli.json()) printJson(result);
      else if (live) live.result(result, printResult);
      else printResult(result);
      process.exitCode = stop.signal ? 128 + osConstants.signals[stop.signal] : result.ok ? 0 : exitCodeFor(result.error?.code);
    });

  program
    .command('cancel <invocationID>')
    .description("stop a run in progress, wherever it runs (this CLI elsewhere, the app, the host, an agent's MCP server)")
    .action(async (invocationID: string) => {
      const session = await cli.session();
      const { cancelled } = await session.call('tools.cancel', { invocationID });
      if (cli.json()) printJson({ cancelled });
      else process.stdout.write(cancelled ? `cancelled ${invocationID}\n` : `no run ${invocationID} is in progress\n`);
      if (!cancelled) process.exitCode = 2;
    });
}
