/**
 * `toolwright`: the command line over the same store as the app (docs/contracts.md, "Agents: MCP
 * server and CLI"). Every command opens the data folder itself and calls the operations contract
 * through its session (session.ts), so it works beside a running app, keeps every rule REST and
 * IPC keep, and answers in the REST shapes with `--json`. commander parses the arguments (a
 * maintained parser with help, usage errors and subcommands); each command group registers
 * itself from commands/, and a tool type's own commands from tool-types/ (its registry). Exit codes: failure.ts.
 */
import { Command, CommanderError, Option } from 'commander';
import { toApiError } from '../core/errors.js';
import type { CliContext } from './context.js';
import { CliFailure, exitCodeFor } from './failure.js';
import { printJson } from './output.js';
import { CliSessions, dataDirOf } from './session.js';
import { registerToolCommands } from './commands/tools.js';
import { registerRunCommands } from './commands/run.js';
import { registerSwitchCommands } from './commands/switches.js';
import { registerTransferCommands } from './commands/transfer.js';
import { registerSecretCommands } from './commands/secrets.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerServeCommands } from './commands/serve.js';
import { registerProfileCommands } from './commands/profiles.js';
import { registerLintCommand } from './commands/lint.js';
import { registerAuditCommands } from './commands/audit.js';
import { registerGuardCommands } from './commands/guard.js';
import { TYPE_COMMANDS } from './tool-types/registry.js';

const VERSION = '0.1.0';

interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

/** The program with every command group registered, and the close of the core a command opened. */
export function buildProgram(): { program: Command; close(): Promise<void> } {
  const program = new Command('toolwright')
    .description('Manage and run the tools your LLM agents call, from the same store as the Toolwright app.')
    .version(VERSION)
    .addOption(new Option('--data-dir <dir>', "data folder (default: the app's; or TOOLWRIGHT_DATA_DIR)"))
    .option('--json', "print JSON (the REST API's shapes) instead of tables")
    .showHelpAfterError()
    .exitOverride();
  const dataDir = () => dataDirOf(program.opts<GlobalOptions>().dataDir);
  const sessions = new CliSessions(dataDir);
  const cli: CliContext = {
    session: (options) => sessions.open(options),
    json: () => program.opts<GlobalOptions>().json === true,
    dataDir,
    version: VERSION,
  };
  registerServeCommands(program, cli);
  registerToolCommands(program, cli);
  registerRunCommands(program, cli);
  registerSwitchCommands(program, cli);
  registerTransferCommands(program, cli);
  // The tool types' own commands (tool-types/registry.ts): the upstream servers' add-server, servers, sync, authorize.
  for (const register of Object.values(TYPE_COMMANDS)) register(program, cli);
  registerProfileCommands(program, cli);
  registerSecretCommands(program, cli);
  registerDoctorCommand(program, cli);
  registerLintCommand(program, cli);
  registerGuardCommands(program, cli);
  registerAuditCommands(program, cli);
  return { program, close: () => sessions.close() };
}

function printError(error: CliFailure['error'], json: boolean): void {
  if (json) printJson({ error });
  else process.stderr.write(`toolwright: ${error.code}: ${error.message}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const { program, close } = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are exits with code 0; usage errors are 2.
      return e.exitCode === 0 ? 0 : 2;
    }
    const asJson = program.opts<GlobalOptions>().json === true;
    if (e instanceof CliFailure) {
      printError(e.error, asJson);
      return e.exitCode;
    }
    const error = toApiError(e, { unexpected: 'unexpected error' });
    printError(error, asJson);
    return exitCodeFor(error.code);
  } finally {
    await close();
  }
}
