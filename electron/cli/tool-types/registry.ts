/**
 * The commands a tool type brings to the CLI (its own module here, `<type>.ts`), one line per type
 * that has any; cli/main.ts registers them after the generic groups. Like the modules of commands/,
 * a type's commands reach the core only through the session (the operations contract): the lint
 * zone of commands/ covers this folder too.
 */
import type { Command } from 'commander';
import type { ToolType } from '../../../shared/tool-types/catalog.js';
import type { CliContext } from '../context.js';
import { registerUpstreamCommands } from './upstream.js';

export type RegisterTypeCommands = (program: Command, cli: CliContext) => void;

export const TYPE_COMMANDS: Partial<Record<ToolType, RegisterTypeCommands>> = {
  mcp: registerUpstreamCommands,
};
