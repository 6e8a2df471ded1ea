/**
 * The schedules the store holds, read from memory (which follows other processes through the
 * watcher). A scheduleID is unique across the data folder; should a hand-copied tool.json repeat
 * one, the older tool keeps it and the copy's schedule is ignored until it gets its own ID.
 */
import type { Schedule } from '../../../shared/schedules/schema.js';
import { machineTimeZone } from '../../../shared/schedules/cron.js';
import type { BundleRecord, StoreReader, ToolRecord } from '../store/reader.js';

export interface ScheduleEntry {
  schedule: Schedule;
  tool: ToolRecord;
  /** The zone it runs in: its own, or the machine's. */
  zone: string;
}

export function zoneOf(schedule: Schedule): string {
  return schedule.timezone ?? machineTimeZone();
}

/** Every schedule, oldest tool first. */
export function allSchedules(store: StoreReader): ScheduleEntry[] {
  const tools = [...store.tools()].filter((t) => t.file.schedules?.length);
  tools.sort((a, b) => a.file.createdAt.localeCompare(b.file.createdAt) || a.file.toolID.localeCompare(b.file.toolID));
  const seen = new Set<string>();
  const out: ScheduleEntry[] = [];
  for (const tool of tools) {
    for (const schedule of tool.file.schedules!) {
      if (seen.has(schedule.scheduleID)) continue;
      seen.add(schedule.scheduleID);
      out.push({ schedule, tool, zone: zoneOf(schedule) });
    }
  }
  return out;
}

export function findSchedule(store: StoreReader, scheduleID: string): (ScheduleEntry & { bundle: BundleRecord | undefined }) | undefined {
  const entry = allSchedules(store).find((e) => e.schedule.scheduleID === scheduleID);
  return entry && { ...entry, bundle: store.bundle(entry.tool.file.bundleID) };
}
