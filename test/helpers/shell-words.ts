import { execFileSync } from 'node:child_process';

/**
 * The arguments a POSIX shell hands to a command line's program (after `curl`, say), by having
 * sh print each one: what quoting and variable expansion really give, without running it.
 */
export function shellArgs(commandLine: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const rest = commandLine.slice(commandLine.indexOf(' ') + 1);
  return execFileSync('sh', ['-c', `set -- ${rest}; for a in "$@"; do printf '%s\\n' "$a"; done`], { env })
    .toString()
    .trimEnd()
    .split('\n');
}
