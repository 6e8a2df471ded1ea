/** Human output of the CLI: aligned tables on a terminal; `--json` prints the REST shapes instead. */
import type { InvokeResult } from '../../shared/types.js';
import { valueText } from '../../shared/format.js';

export function table(rows: string[][], header: string[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => [...(r[c] ?? '')].length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell + ' '.repeat(widths[c]! - [...cell].length)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** A one-line progress bar on a terminal (stderr), nothing when piped. */
export function progressBar(label: string): { update(done: number, total?: number): void; end(): void } {
  const tty = process.stderr.isTTY;
  return {
    update(done, total) {
      if (!tty) return;
      const width = 24;
      const bar = total ? '█'.repeat(Math.round((done / total) * width)).padEnd(width, '░') : '';
      const amount = total ? `${Math.round((done / total) * 100)}%` : `${(done / 1024).toFixed(0)} KB`;
      process.stderr.write(`\r${label} ${bar} ${amount}`);
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}

/** A run's answer: its value on stdout, or its error on stderr. */
export function printResult(result: InvokeResult): void {
  if (result.ok) {
    process.stdout.write(valueText(result.value) + '\n');
  } else {
    process.stderr.write(`toolwright: ${result.error?.code ?? 'ERROR'}: ${result.error?.message ?? 'the tool failed'}\n`);
  }
}
