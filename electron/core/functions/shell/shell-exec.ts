/**
 * core.shellExec: one command in the container sandbox, never on the host. The container runner's
 * engine, limits and clean-up (tool-types/container/command.ts); no network unless config.shell.sandbox
 * says "bridge"; the workspace at /workspace, read-only unless config.shell.workspace says
 * otherwise; the command split into words and run without a shell, its program on the allow-list
 * (command-line.ts). A non-zero exit is an answer (the agent reads the exit code and stderr),
 * not a failure.
 */
import { CoreError } from '../../errors.js';
import { SHELL_DEFAULTS, type ShellSettings } from '../../../../shared/core-tools.js';
import type { Config } from '../../../../shared/schemas.js';
import type { Availability } from '../../../../shared/types.js';
import { defineFunction } from '../types.js';
import { clip, escapeHtml, preBlock } from '../html.js';
import { resolveInWorkspace, workspaceRootOf } from '../workspace.js';
import type { CommandMount, FunctionServices } from '../services.js';

/** Each of stdout and stderr is kept up to this; past it the command is stopped. */
export const SHELL_OUTPUT_CAP_BYTES = 100 * 1024;
import { MAX_COMMAND_LENGTH, parseCommand } from './command-line.js';

export interface ShellExecValue {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  stopped?: 'timeout' | 'output-cap' | 'out-of-memory';
}

/** config.shell with its defaults filled in. */
export function shellSettings(config: Config): Required<Omit<ShellSettings, 'sandbox'>> & Pick<ShellSettings, 'sandbox'> {
  const s = config.shell ?? {};
  return {
    image: s.image ?? SHELL_DEFAULTS.image,
    allowedCommands: s.allowedCommands ?? [...SHELL_DEFAULTS.allowedCommands],
    workspace: s.workspace ?? SHELL_DEFAULTS.workspace,
    timeoutSeconds: s.timeoutSeconds ?? SHELL_DEFAULTS.timeoutSeconds,
    ...(s.sandbox ? { sandbox: s.sandbox } : {}),
  };
}

function shellAvailability(config: Config, services: FunctionServices): Availability {
  const sandbox = services.sandbox();
  if (!sandbox) return { ok: false, reason: 'shell-exec runs commands in a container, and this process has no container runner' };
  const docker = sandbox.status();
  if (!docker.ok) return { ok: false, reason: `shell-exec runs commands in a container: ${docker.reason ?? 'Docker is not reachable'}` };
  const image = shellSettings(config).image;
  if (sandbox.imageStatus(image) === false) {
    return {
      ok: false,
      reason: `the image ${image} is not on the Docker engine; pull or load it (docker pull ${image}), or choose another in Settings (shell.image)`,
    };
  }
  return { ok: true };
}

export const shellExecFunction = defineFunction<{ command: string; cwd?: string; timeoutSeconds?: number }, ShellExecValue>({
  name: 'core.shellExec',
  availability: shellAvailability,
  description:
    'Run one command in a sandboxed container, never on the host: the workspace folder is mounted at /workspace (read-only unless Settings say otherwise), ' +
    'there is no network unless Settings allow it, and memory, CPU and time are capped. One simple command without a shell: no pipes, redirections, ' +
    'variables or substitutions, and the program must be on the allow-list (Settings → shell.allowedCommands). Privileged: a person approves each call. ' +
    'Returns the exit code, stdout and stderr.',
  argSchema: {
    type: 'object',
    properties: {
      command: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_COMMAND_LENGTH,
        description: "The command, e.g. 'grep -rn TODO src' or 'wc -l \"my file.txt\"'.",
      },
      cwd: { type: 'string', maxLength: 4096, default: '.', description: "Folder of the workspace to run in, relative to its root, e.g. 'src'." },
      timeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: 3600,
        description: 'Stop the command after this many seconds (at most the limit in Settings, 30 s by default).',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command as given.' },
      exitCode: { type: ['integer', 'null'], description: 'The exit code; null when the command was stopped.' },
      stdout: { type: 'string', description: `Standard output (at most ${SHELL_OUTPUT_CAP_BYTES / 1024} KB).` },
      stderr: { type: 'string', description: `Standard error (at most ${SHELL_OUTPUT_CAP_BYTES / 1024} KB).` },
      durationMs: { type: 'integer', minimum: 0, description: 'How long the command ran.' },
      stopped: { type: 'string', enum: ['timeout', 'output-cap', 'out-of-memory'], description: 'Why the command was stopped before it ended, when it was.' },
    },
    required: ['command', 'exitCode', 'stdout', 'stderr', 'durationMs'],
    additionalProperties: false,
  },
  safety: 'privileged',
  async run({ command, cwd = '.', timeoutSeconds }, ctx) {
    const settings = shellSettings(ctx.config);
    const argv = parseCommand(command, settings.allowedCommands);
    const sandbox = ctx.services?.sandbox();
    if (!sandbox) throw new CoreError('TOOL_UNAVAILABLE', 'shell-exec runs commands in a container, and this process has no container runner');
    const limit = Math.min(timeoutSeconds ?? settings.timeoutSeconds, settings.timeoutSeconds);
    const mounts: CommandMount[] = [];
    let workdir = '/tmp';
    let user: string | undefined;
    if (settings.workspace !== 'none' && ctx.config.workspaceRoot) {
      const root = await workspaceRootOf(ctx.config.workspaceRoot, 'core.shellExec');
      mounts.push({ source: root, target: '/workspace', readOnly: settings.workspace !== 'readWrite' });
      // As the host user, the workspace reads (and, when writable, is written) with their rights, no more.
      if (process.getuid && process.getgid) user = `${process.getuid()}:${process.getgid()}`;
      const folder = await resolveInWorkspace(ctx.config.workspaceRoot, cwd, 'core.shellExec');
      workdir = folder.display === '.' ? '/workspace' : `/workspace/${folder.display}`;
    } else if (cwd !== '.' && cwd !== '') {
      throw new CoreError('INVALID_ARGS', 'cwd needs the workspace mounted: set workspaceRoot (and shell.workspace other than "none") in Settings', {
        issues: [{ field: 'args.cwd', message: 'no workspace is mounted' }],
      });
    }
    const emit = ctx.emit;
    const result = await sandbox.run({
      image: settings.image,
      argv,
      workdir,
      mounts,
      ...(user ? { user } : {}),
      sandbox: settings.sandbox ?? {},
      timeoutMs: limit * 1000,
      outputCapBytes: SHELL_OUTPUT_CAP_BYTES,
      signal: ctx.signal,
      invocationID: ctx.invocationID ?? 'shell-exec',
      toolID: ctx.tool.toolID,
      ...(emit ? { onStdout: (text: string) => emit({ type: 'chunk', text }) } : {}),
    });
    const value: ShellExecValue = { command, ...result };
    const status = result.stopped ? `stopped (${result.stopped})` : `exit ${result.exitCode}`;
    return {
      value,
      card: {
        title: `$ ${clip(command, 80)} — ${status}`,
        html:
          preBlock(clip(result.stdout, 4000)) + (result.stderr ? `<p>stderr</p>${preBlock(clip(result.stderr, 2000))}` : '') + `<p>${escapeHtml(status)}</p>`,
        text: status,
      },
    };
  },
});
