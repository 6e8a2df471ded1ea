/** Small JSON documents read whole and rewritten atomically (config, built-in state). */
import { promises as fsp } from 'node:fs';
import { canonicalJson } from '../../../shared/canonical.js';
import { writeFileAtomic } from './atomic.js';
import { parseJsonText } from './json-text.js';

export type ReadResult<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'bad'; reason: string };

export async function readJsonFile<T>(path: string, check: (value: unknown) => string | undefined): Promise<ReadResult<T>> {
  let text: string;
  try {
    text = await fsp.readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'bad', reason: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { kind: 'bad', reason: `${parsed.reason}; fix it in an editor or delete it` };
  const value = parsed.value;
  const reason = check(value);
  return reason ? { kind: 'bad', reason } : { kind: 'ok', value: value as T };
}

export async function writeJsonFile(path: string, value: Record<string, unknown>, keyOrder: readonly string[], mode?: number): Promise<void> {
  await writeFileAtomic(path, canonicalJson(value, keyOrder), mode === undefined ? {} : { mode });
}
