import { describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { atIssue, cadenceKind, describeCadence, latestRunBetween, nextRun } from '../../../shared/schedules/cadence.js';

const made = Date.parse('2026-03-01T10:00:00.000Z');
const scheduleID = uuidv7({ msecs: made });

describe('cadences', () => {
  it('a one-off fires once, at its time, whatever its offset says', () => {
    const s = { scheduleID, at: '2026-03-01T12:30:00+02:00' };
    const at = Date.parse('2026-03-01T10:30:00Z');
    expect(cadenceKind(s)).toBe('once');
    expect(nextRun(s, 'UTC', made)).toBe(at);
    expect(nextRun(s, 'UTC', at)).toBeNull();
    expect(latestRunBetween(s, 'UTC', made, at)).toBe(at);
    expect(latestRunBetween(s, 'UTC', at, at + 3_600_000)).toBeNull();
    expect(describeCadence(s)).toBe('once at 2026-03-01T12:30:00+02:00');
  });

  it('an interval fires on the grid anchored at its creation, the first one interval after it', () => {
    const s = { scheduleID, everySeconds: 300 };
    expect(cadenceKind(s)).toBe('interval');
    expect(nextRun(s, 'UTC', made - 10_000)).toBe(made + 300_000);
    expect(nextRun(s, 'UTC', made)).toBe(made + 300_000);
    expect(nextRun(s, 'UTC', made + 300_000)).toBe(made + 600_000);
    expect(nextRun(s, 'UTC', made + 301_000)).toBe(made + 600_000);
    // Of the fires missed between two instants, the latest.
    expect(latestRunBetween(s, 'UTC', made, made + 1_000_000)).toBe(made + 900_000);
    expect(latestRunBetween(s, 'UTC', made + 900_000, made + 1_000_000)).toBeNull();
    expect(latestRunBetween(s, 'UTC', made - 5000, made + 200_000)).toBeNull();
    expect(describeCadence(s)).toBe('every 5 minutes');
    expect(describeCadence({ scheduleID, everySeconds: 90 })).toBe('every 90 seconds');
    expect(describeCadence({ scheduleID, everySeconds: 7200 })).toBe('every 2 hours');
  });

  it('a cron pattern is a cron pattern', () => {
    const s = { scheduleID, cron: '0 9 * * *' };
    expect(cadenceKind(s)).toBe('cron');
    expect(nextRun(s, 'Europe/Paris', made)).toBe(Date.parse('2026-03-02T08:00:00Z'));
  });

  it.each([
    ['2026-07-01T09:00:00Z', undefined],
    ['2026-07-01T09:00:00.123+05:30', undefined],
    ['2026-07-01T09:00', 'RFC 3339'],
    ['2026-07-01', 'RFC 3339'],
    ['tomorrow', 'RFC 3339'],
    ['2026-13-01T09:00:00Z', 'RFC 3339'],
  ])('checks the one-off time %s', (at, problem) => {
    if (problem) expect(atIssue(at)).toContain(problem);
    else expect(atIssue(at)).toBeUndefined();
  });
});
