/**
 * Every run of a schedule, kept with its output, under `<data>/scheduler/run-log/<scheduleID>/`:
 * one file per run (`<startedAt>_<invocationID>.json`, written atomically by whichever process ran
 * it), so runs from several processes never contend for one file. Bounded (docs/limits.md): the
 * newest KEPT_RUNS_PER_SCHEDULE runs of each schedule, and KEPT_OUTPUT_CHARS characters of each
 * run's output (the rest is cut, and the entry says how long it was). The latest output also stays
 * where the MCP resource reads it (schedule-files.ts); this is the history an agent pages through.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { isUuid } from '../../../shared/ids.js';
import type { ApiError } from '../../../shared/errors.js';
import { KEPT_OUTPUT_CHARS, KEPT_RUNS_PER_SCHEDULE, type ScheduleRunEntry } from '../../../shared/schedules/manage.js';
import { isTempName, writeFileAtomic } from '../fs/atomic.js';
import { readJsonPath } from '../fs/json-text.js';

/** A kept run: its entry and its output text (cut at KEPT_OUTPUT_CHARS). */
export interface KeptRun extends ScheduleRunEntry {
  output: string;
}

/** What a run gave, as the text an agent reads: a string value as it is, any other value as JSON, else the card's text or the error. */
export function runOutputText(run: { value?: unknown; error?: ApiError; card?: { text?: string } }): string {
  if (typeof run.value === 'string') return run.value;
  if (run.value !== undefined) return JSON.stringify(run.value, null, 2) ?? '';
  if (run.card?.text) return run.card.text;
  return run.error ? `${run.error.code}: ${run.error.message}` : '';
}

/** Cuts text to `max` UTF-16 units without splitting a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const stampOf = (iso: string) => iso.replace(/[:.]/g, '-');
const FILE = /^(\d{4}-\d{2}-\d{2}T[\d-]+Z)_([0-9a-f-]{36})\.json$/;

export class RunLog {
  constructor(
    readonly dir: string,
    private readonly keep = KEPT_RUNS_PER_SCHEDULE,
    private readonly keepChars = KEPT_OUTPUT_CHARS,
  ) {}

  private scheduleDir(scheduleID: string): string {
    return join(this.dir, scheduleID);
  }

  /** Keeps a run (its output cut to the bound), then lets the oldest beyond the bound go. */
  async append(scheduleID: string, entry: Omit<ScheduleRunEntry, 'outputChars' | 'outputTruncatedFrom'>, output: string): Promise<void> {
    if (!isUuid(scheduleID) || !isUuid(entry.invocationID)) return;
    const dir = this.scheduleDir(scheduleID);
    await fsp.mkdir(dir, { recursive: true });
    const kept = cutText(output, this.keepChars);
    const run: KeptRun = {
      ...entry,
      outputChars: kept.length,
      ...(kept.length < output.length ? { outputTruncatedFrom: output.length } : {}),
      output: kept,
    };
    await writeFileAtomic(join(dir, `${stampOf(entry.startedAt)}_${entry.invocationID}.json`), JSON.stringify(run) + '\n', { skipDirSync: true });
    await this.prune(dir);
  }

  /** The kept runs' file names, newest first. */
  private async names(scheduleID: string): Promise<string[]> {
    if (!isUuid(scheduleID)) return [];
    const names = await fsp.readdir(this.scheduleDir(scheduleID)).catch(() => [] as string[]);
    return names.filter((n) => !isTempName(n) && FILE.test(n)).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }

  private async prune(dir: string): Promise<void> {
    const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => FILE.test(n)).sort();
    const excess = names.slice(0, Math.max(0, names.length - this.keep));
    await Promise.all(excess.map((n) => fsp.rm(join(dir, n), { force: true }).catch(() => undefined)));
  }

  private async readFile(scheduleID: string, name: string): Promise<KeptRun | undefined> {
    const r = await readJsonPath(join(this.scheduleDir(scheduleID), name));
    const v = r.kind === 'ok' ? (r.value as KeptRun) : undefined;
    return v && typeof v.invocationID === 'string' && typeof v.output === 'string' ? v : undefined;
  }

  /** A page of runs, newest first, without their outputs. */
  async page(scheduleID: string, offset: number, limit: number): Promise<{ items: ScheduleRunEntry[]; total: number }> {
    const names = await this.names(scheduleID);
    const runs = await Promise.all(names.slice(offset, offset + limit).map((n) => this.readFile(scheduleID, n)));
    const items = runs.filter((r): r is KeptRun => !!r).map(({ output: _output, ...entry }) => entry);
    return { items, total: names.length };
  }

  /** One kept run with its output, or undefined. */
  async get(scheduleID: string, invocationID: string): Promise<KeptRun | undefined> {
    const id = invocationID.toLowerCase();
    const name = (await this.names(scheduleID)).find((n) => n.endsWith(`_${id}.json`));
    return name ? this.readFile(scheduleID, name) : undefined;
  }

  /** Forgets every kept run of a schedule (it was deleted). */
  async remove(scheduleID: string): Promise<void> {
    if (isUuid(scheduleID)) await fsp.rm(this.scheduleDir(scheduleID), { recursive: true, force: true });
  }

  /** Removes the runs of schedules that no longer exist, once their folder is a day old. */
  async sweep(known: ReadonlySet<string>, now: number): Promise<void> {
    for (const name of await fsp.readdir(this.dir).catch(() => [] as string[])) {
      if (!isUuid(name) || known.has(name)) continue;
      const path = join(this.dir, name);
      const st = await fsp.stat(path).catch(() => undefined);
      if (st && now - st.mtimeMs > 24 * 60 * 60 * 1000) await fsp.rm(path, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
