/**
 * Cron patterns in time zones: the checks, the fire times (DST gaps and doubled hours as
 * docs/contracts.md says), catch-up's "latest missed fire", and the readable preview.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cron } from 'croner';
import {
  canonicalTimeZone,
  cronIssue,
  describeCron,
  formatFireTime,
  latestFireBetween,
  nextFireAfter,
  nextFires,
  schedulePreview,
  timeZoneIssue,
  uuidV7Time,
  wallClockOf,
} from '../../../shared/schedules/cron.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (s: string) => Date.parse(s);

describe('cron checks', () => {
  it.each([['0 9 * * 1-5'], ['*/5 * * * *'], ['0 0 1 * *'], ['30 2 * * SUN'], ['0 12 L * *'], ['  0   9 * * *  ']])('accepts %s', (cron) => {
    expect(cronIssue(cron)).toBeUndefined();
  });

  it.each([
    ['', /is empty/],
    ['* * * *', /must have 5 fields.*it has 4/],
    ['0 0 9 * * *', /seconds are not supported/],
    ['@daily', /nicknames.*0 0 \* \* \*/],
    ['61 * * * *', /minute/],
    ['*/0 * * * *', /stepping/],
    ['0 9 31 2 *', /never matches/],
    ['0 9 * * funday', /not a valid cron pattern/],
  ])('refuses %j saying why', (cron, why) => {
    expect(cronIssue(cron)).toMatch(why);
  });

  it('knows IANA zones and refuses the rest', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(timeZoneIssue('America/New_York')).toBeUndefined();
    expect(timeZoneIssue('UTC')).toBeUndefined();
    expect(timeZoneIssue('Europe/Pari')).toMatch(/not an IANA time zone.*Europe\/Paris/);
    expect(timeZoneIssue('+02:00')).toMatch(/not an IANA/);
  });
});

describe('fire times', () => {
  it('follows the zone: 09:00 on weekdays in Paris is 08:00Z in winter, 07:00Z in summer', () => {
    expect(nextFires('0 9 * * 1-5', 'Europe/Paris', at('2026-01-02T09:00:00Z'), 2).map(iso)).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-06T08:00:00.000Z']);
    expect(iso(nextFireAfter('0 9 * * 1-5', 'Europe/Paris', at('2026-06-01T00:00:00Z')))).toBe('2026-06-01T07:00:00.000Z');
  });

  it('a fire time is strictly after the reference', () => {
    expect(iso(nextFireAfter('* * * * *', 'UTC', at('2026-01-01T10:00:00Z')))).toBe('2026-01-01T10:01:00.000Z');
    expect(iso(nextFireAfter('* * * * *', 'UTC', at('2026-01-01T10:00:00.001Z')))).toBe('2026-01-01T10:01:00.000Z');
  });

  describe('DST in Europe/Paris (29 March 2026: 02:00 → 03:00; 25 October 2026: 03:00 → 02:00)', () => {
    it('a time that does not exist runs at the next valid minute', () => {
      // 02:30 does not exist on 29 March: it runs at 03:00 local (01:00Z), then at 02:30 again the next day.
      expect(nextFires('30 2 * * *', 'Europe/Paris', at('2026-03-28T12:00:00Z'), 3).map(iso)).toEqual([
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
        '2026-03-31T00:30:00.000Z',
      ]);
    });

    it('also for patterns with wildcards: every hour at :30 runs at 03:00 instead of the missing 02:30', () => {
      expect(nextFires('30 * * * *', 'Europe/Paris', at('2026-03-29T00:00:00Z'), 3).map(iso)).toEqual([
        '2026-03-29T00:30:00.000Z', // 01:30 CET
        '2026-03-29T01:00:00.000Z', // 02:30 does not exist → 03:00 CEST
        '2026-03-29T01:30:00.000Z', // 03:30 CEST
      ]);
    });

    it('several missing times that land on one minute run once', () => {
      expect(nextFires('*/20 * * * *', 'Europe/Paris', at('2026-03-29T00:30:00Z'), 4).map(iso)).toEqual([
        '2026-03-29T00:40:00.000Z', // 01:40 CET
        '2026-03-29T01:00:00.000Z', // 02:00, 02:20, 02:40 and 03:00 are one instant
        '2026-03-29T01:20:00.000Z',
        '2026-03-29T01:40:00.000Z',
      ]);
    });

    it('a time that occurs twice runs once, at its first occurrence', () => {
      expect(nextFires('30 2 * * *', 'Europe/Paris', at('2026-10-24T12:00:00Z'), 2).map(iso)).toEqual([
        '2026-10-25T00:30:00.000Z', // 02:30 CEST, not 02:30 CET an hour later
        '2026-10-26T01:30:00.000Z',
      ]);
      expect(nextFires('30 * * * *', 'Europe/Paris', at('2026-10-25T00:00:00Z'), 3).map(iso)).toEqual([
        '2026-10-25T00:30:00.000Z', // 02:30 CEST
        '2026-10-25T02:30:00.000Z', // 03:30 CET (02:30 CET is the same wall time again)
        '2026-10-25T03:30:00.000Z',
      ]);
    });

    it('a scheduler that starts inside the repeated hour does not run its times again', () => {
      // 01:10Z is 02:10 CET, the second pass: 02:30 already ran at 00:30Z.
      expect(iso(nextFireAfter('30 2 * * *', 'Europe/Paris', at('2026-10-25T01:10:00Z')))).toBe('2026-10-26T01:30:00.000Z');
    });
  });

  describe('DST in America/New_York (8 March 2026: 02:00 → 03:00; 1 November 2026: 02:00 → 01:00)', () => {
    it('skipped and doubled hours', () => {
      expect(iso(nextFireAfter('15 2 * * *', 'America/New_York', at('2026-03-08T05:00:00Z')))).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
      expect(nextFires('30 1 * * *', 'America/New_York', at('2026-10-31T12:00:00Z'), 2).map(iso)).toEqual([
        '2026-11-01T05:30:00.000Z', // 01:30 EDT only
        '2026-11-02T06:30:00.000Z',
      ]);
    });
  });

  it('a missing time runs at the end of its gap to the second, wherever the gap falls in the hour', () => {
    // Found by the property below (seed 604100070): Santiago skips from Sunday 00:00 to 01:00 on 6 September 2026.
    expect(iso(nextFireAfter('1 0 * * 0,6', 'America/Santiago', at('2026-09-05T04:01:00Z')))).toBe('2026-09-06T04:00:00.000Z');
    // 02:01 and 02:59 on the night Paris skips 02:00–03:00 run at 03:00 CEST, as 02:30 does.
    for (const minute of [1, 17, 30, 59]) {
      expect(iso(nextFireAfter(`${minute} 2 * * *`, 'Europe/Paris', at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:00:00.000Z');
    }
  });

  it('agrees with croner for fixed-time patterns in any zone (croner applies the same DST rule to them)', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom('* * *', '1 * *', '15 * *', '* * 1-5', '* * 0,6', '29 2 *'),
        fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2028-01-01T00:00:00Z') }),
        (zone, minute, hour, days, start) => {
          const cron = `${minute} ${hour} ${days}`;
          const theirs = new Cron(cron, { mode: '5-part', timezone: zone, paused: true }).nextRuns(4, new Date(start)).map((d) => d.getTime());
          expect(nextFires(cron, zone, start, 4)).toEqual(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the latest fire of a span is what catch-up runs; older ones are skipped', () => {
    expect(iso(latestFireBetween('0 * * * *', 'UTC', at('2026-01-01T00:30:00Z'), at('2026-01-01T05:10:00Z')))).toBe('2026-01-01T05:00:00.000Z');
    expect(iso(latestFireBetween('0 9 1 * *', 'UTC', at('2025-12-15T00:00:00Z'), at('2026-03-20T00:00:00Z')))).toBe('2026-03-01T09:00:00.000Z');
    expect(latestFireBetween('0 9 1 * *', 'UTC', at('2026-01-02T00:00:00Z'), at('2026-01-20T00:00:00Z'))).toBeNull();
    expect(latestFireBetween('0 * * * *', 'UTC', at('2026-01-01T05:00:00Z'), at('2026-01-01T05:00:00Z'))).toBeNull();
  });
});

describe('words', () => {
  it('describes a pattern and previews the next run in its zone', () => {
    expect(describeCron('0 9 * * 1-5')).toBe('At 09:00, Monday through Friday');
    const preview = schedulePreview('0 9 * * 1-5', 'Europe/Paris', at('2026-11-28T12:00:00Z'));
    expect(preview).toBe('At 09:00, Monday through Friday (Europe/Paris), next: Mon 30 Nov 09:00');
    expect(schedulePreview('0 9 * *', 'UTC')).toMatch(/^The pattern must have 5 fields/);
  });

  it('names the year of a fire that is not this year', () => {
    expect(formatFireTime(at('2027-01-04T08:00:00Z'), 'Europe/Paris', at('2026-12-30T00:00:00Z'))).toBe('Mon 4 Jan 2027 09:00');
  });

  it('reads the wall clock of an instant and the time of a UUIDv7', () => {
    expect(new Date(wallClockOf(at('2026-06-01T07:00:00Z'), 'Europe/Paris')).toISOString()).toBe('2026-06-01T09:00:00.000Z');
    expect(uuidV7Time('0190a000-0000-7000-8000-00000000c0e0')).toBe(0x0190a0000000);
    expect(uuidV7Time('9b2c2a4e-4c5e-4b7e-9c3a-1d2e3f4a5b6c')).toBeUndefined();
  });
});
