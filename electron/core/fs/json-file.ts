/** Small JSON documents read whole and rewritten atomically (config, built-in state). */
import { canonicalJson } from '../../../shared/canonical.js';
import { writeFileAtomic } from './atomic.js';
import { readJsonPath } from './json-text.js';

export type ReadResult<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'bad'; reason: string };

export async function readJsonFile<T>(path: string, check: (value: unknown) => string | undefined): Promise<ReadResult<T>> {
  const read = await readJsonPath(path);
  if (read.kind === 'missing') return read;
  if (read.kind === 'bad') return { kind: 'bad', reason: `${read.reason}; fix it in an editor or delete it` };
  const reason = check(read.value);
  return reason ? { kind: 'bad', reason } : { kind: 'ok', value: read.value as T };
}

export async function writeJsonFile(path: string, value: Record<string, unknown>, keyOrder: readonly string[], mode?: number): Promise<void> {
  await writeFileAtomic(path, canonicalJson(value, keyOrder), mode === undefined ? {} : { mode });
}
