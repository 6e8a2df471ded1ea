/** Human formats shared by messages of the core and labels of the renderer. */
const KiB = 1024;
const MiB = 1024 * 1024;

/** A date and time to the second, every part as a number: Date#toLocaleString's default, and the parts a zone's wall clock is read from. */
export const NUMERIC_DATE_TIME = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
} as const satisfies Intl.DateTimeFormatOptions;

/** 512 → "512 bytes", 4096 → "4 KB", 1.5 MiB → "1.5 MB" (binary units; whole numbers stay whole). */
export function formatBytes(n: number): string {
  if (n >= MiB) return `${(n / MiB).toFixed(n % MiB === 0 ? 0 : 1)} MB`;
  if (n >= KiB) return `${(n / KiB).toFixed(n % KiB === 0 ? 0 : 1)} KB`;
  return `${n} bytes`;
}

/**
 * "1 call", "3 calls". `count` writes the number: as it is in messages of the core and the
 * contract, grouped in the reader's locale by the renderer (renderer/src/lib/format.ts).
 */
export function plural(n: number, word: string, pluralWord = `${word}s`, count: (n: number) => string = String): string {
  return `${count(n)} ${n === 1 ? word : pluralWord}`;
}

/** A tool's value as people and models read it: a string as it is, anything else as pretty JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
}
