/**
 * shell-exec's command line: one simple command, split into words as a POSIX shell would
 * (quotes and backslashes, by shell-quote) and run without any shell, so nothing in it is
 * interpreted. Whatever a shell would interpret is refused with the reason rather than passed
 * on as literal text: pipes, lists and background jobs (`|`, `;`, `&&`, `||`, `&`), redirections,
 * command substitution (`$(…)`, backquotes), variables (`$HOME`), unquoted wildcards, comments,
 * several lines. The first word must be on the allow-list, by bare name; `find`'s actions that
 * start other programs are refused whatever the allow-list says.
 */
import { parse } from 'shell-quote';
import { CoreError } from '../../errors.js';

export const MAX_COMMAND_LENGTH = 8192;

const SHELL_WORDS: Record<string, string> = {
  '|': 'a pipe (|)',
  '||': 'a list (||)',
  '&&': 'a list (&&)',
  ';': 'a list (;)',
  ';;': 'a list (;;)',
  '&': 'a background job (&)',
  '|&': 'a pipe (|&)',
  '(': 'a subshell ( … )',
  ')': 'a subshell ( … )',
  '<': 'a redirection (<)',
  '>': 'a redirection (>)',
  '>>': 'a redirection (>>)',
  '>&': 'a redirection (>&)',
  '<(': 'process substitution <( … )',
  $: 'a variable or command substitution ($…)',
  glob: 'an unquoted wildcard',
};

/** Arguments that make a program start another one, bypassing the allow-list. */
const SPAWNING_ARGUMENTS: Record<string, readonly string[]> = {
  find: ['-exec', '-execdir', '-ok', '-okdir'],
};

function refuse(why: string, fix: string): CoreError {
  return new CoreError('INVALID_ARGS', `command refused: it uses ${why}; ${fix}`, { issues: [{ field: 'args.command', message: `uses ${why}` }] });
}

/** The command's words, or INVALID_ARGS saying what a shell would have made of it. */
export function parseCommand(command: string, allowed: readonly string[]): string[] {
  if (command.trim() === '') throw new CoreError('INVALID_ARGS', 'command is empty', { issues: [{ field: 'args.command', message: 'is empty' }] });
  if (command.length > MAX_COMMAND_LENGTH) throw new CoreError('INVALID_ARGS', `command is longer than ${MAX_COMMAND_LENGTH} characters`);
  if (/[\n\r]/.test(command)) throw refuse('several lines', 'run one command per call');
  if (command.includes('\0')) throw refuse('a NUL character', 'remove it');
  if (command.includes('`')) throw refuse('command substitution (`…`)', 'run the inner command in its own call');
  const tokens = parse(command, (name) => ({ op: '$', name }) as never);
  const words: string[] = [];
  for (const t of tokens) {
    if (typeof t === 'string') {
      words.push(t);
      continue;
    }
    if ('comment' in t) throw refuse('a comment (#)', "quote the '#' if it belongs to an argument");
    const op = 'op' in t ? String(t.op) : 'glob';
    const what = SHELL_WORDS[op] ?? `the shell operator ${op}`;
    const fix =
      op === 'glob'
        ? 'quote it to pass it as it is, or find the files with the glob tool and name them'
        : op === '$'
          ? 'quote it with single quotes to pass it as it is; commands run without a shell, so nothing is expanded'
          : 'commands run one at a time without a shell: call the tool once per command and combine the results yourself';
    throw refuse(what, fix);
  }
  if (words.length === 0) throw new CoreError('INVALID_ARGS', 'command is empty');
  const program = words[0]!;
  if (program.includes('/')) throw refuse(`a path to a program (${program})`, 'name the program alone, e.g. ls');
  if (!allowed.includes(program)) {
    throw new CoreError(
      'FORBIDDEN',
      `command refused: ${program} is not an allowed command; allowed are ${allowed.join(', ')} (a person can change shell.allowedCommands in Settings)`,
      { program, issues: [{ field: 'args.command', message: `${program} is not an allowed command` }] },
    );
  }
  const spawning = SPAWNING_ARGUMENTS[program]?.find((a) => words.includes(a));
  if (spawning) throw refuse(`${program} ${spawning}, which starts other programs`, `list what ${program} finds and run the next command yourself`);
  return words;
}
