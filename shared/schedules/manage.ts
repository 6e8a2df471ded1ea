/**
 * Managing schedules as operations (shared/operations/schedules.ts) and as the agent tools of the
 * built-in `schedules` bundle: the answers' shapes and their bounds, shared by the core, the
 * contract and the tests. docs/contracts.md ("Schedules an agent manages") says who sees what.
 */
import type { ApiError } from '../errors.js';
import type { ScheduleRunStatus, ScheduleView } from '../types.js';
import type { CadenceKind } from './cadence.js';

/** search: results per page when the caller does not say, and at most. */
export const SCHEDULE_SEARCH_DEFAULT_LIMIT = 20;
export const SCHEDULE_SEARCH_MAX_LIMIT = 50;
/** runs: the same paging. */
export const SCHEDULE_RUNS_DEFAULT_LIMIT = 20;
export const SCHEDULE_RUNS_MAX_LIMIT = 50;
/** run_output: characters per chunk (default, least, most). */
export const RUN_OUTPUT_DEFAULT_CHARS = 4000;
export const RUN_OUTPUT_MIN_CHARS = 200;
export const RUN_OUTPUT_MAX_CHARS = 8000;
/** What is kept of runs (docs/limits.md): the newest runs per schedule, and characters of each run's output. */
export const KEPT_RUNS_PER_SCHEDULE = 50;
export const KEPT_OUTPUT_CHARS = 64_000;
/** The longest offset a page may start at (far past any real list: a bound, not a limit people meet). */
export const MAX_OFFSET = 1_000_000_000;

export type ScheduleState = 'active' | 'paused';

/** A schedule as its manager sees it: the list's view, what it runs, and who made it. */
export interface ManagedSchedule extends ScheduleView {
  /** The tool it runs, as `<bundleSlug>/<toolSlug>@<version>`. */
  tool: string;
  cadence: CadenceKind;
  /** The cadence in words ("every 15 minutes"). */
  cadenceText: string;
  args: Record<string, unknown>;
  /** `paused` while switched off. */
  state: ScheduleState;
  /** Who created it through these operations (a caller's label); absent for one a person wrote in the tool. */
  createdBy?: string;
}

export interface ScheduleSearchPage {
  items: ManagedSchedule[];
  /** Matches in all. */
  total: number;
  /** Matches after this page (0 on the last). */
  remaining: number;
  offset: number;
  limit: number;
}

/** One run of a schedule, as kept (newest first in a page). */
export interface ScheduleRunEntry {
  invocationID: string;
  /** The fire it ran for; null for a run started by hand. */
  fireAt: string | null;
  startedAt: string;
  finishedAt?: string;
  durationMs: number;
  status: Exclude<ScheduleRunStatus, 'running'>;
  error?: ApiError;
  /** Characters of output kept (read them with run_output). */
  outputChars: number;
  /** The output was longer than what is kept: this many characters in all. */
  outputTruncatedFrom?: number;
}

export interface ScheduleRunsPage {
  scheduleID: string;
  items: ScheduleRunEntry[];
  total: number;
  remaining: number;
  offset: number;
  limit: number;
}

export interface ScheduleRunOutputChunk {
  scheduleID: string;
  invocationID: string;
  status: ScheduleRunEntry['status'];
  /** The characters from `offset`, at most `maxChars` of them. */
  text: string;
  offset: number;
  /** Where the next chunk starts; null when this one reached the end. */
  nextOffset: number | null;
  /** Characters of kept output after this chunk. */
  remaining: number;
  totalChars: number;
  /** The run's output was longer than what is kept: this many characters in all. */
  truncatedFrom?: number;
}
