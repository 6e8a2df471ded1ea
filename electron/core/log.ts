/**
 * Where the core reports what nobody awaits: background work (watcher, reaper, orphan sweep,
 * history writes) and unexpected errors. Always stderr by default: stdout belongs to protocols
 * (the MCP stdio server, `--json` output of the CLI).
 */
export interface Logger {
  error(what: string, e: unknown): void;
  warn(message: string): void;
  info(message: string): void;
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return String(e);
}

export function stderrLogger(prefix = 'toolwright'): Logger {
  return {
    error: (what, e) => process.stderr.write(`${prefix}: ${what} failed: ${describe(e)}\n`),
    warn: (message) => process.stderr.write(`${prefix}: ${message}\n`),
    info: (message) => process.stderr.write(`${prefix}: ${message}\n`),
  };
}

export const silentLogger: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined };

/** A logger from the older `log(e)` callback of CoreOptions. */
export function loggerFrom(log: (e: unknown) => void): Logger {
  return { error: (_what, e) => log(e), warn: (m) => log(m), info: () => undefined };
}
