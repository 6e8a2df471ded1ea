import { describe, it, expect } from 'vitest';
import { nowFunction, convertTimeFunction, describeInstant, parseTime, resolveZone, offsetMsAt } from '../../../../electron/core/functions/time.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

const ctx = contextFor('core.convertTime', {});
const convert = (args: { time?: string; from?: string; to: string }) => convertTimeFunction.run(args, ctx);

/** The zone offset as ICU prints it ("GMT+05:30"), as an independent oracle for ours. */
function icuOffset(epochMs: number, zone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(epochMs))
    .find((p) => p.type === 'timeZoneName')!.value;
  return part === 'GMT' ? '+00:00' : part.replace('GMT', '');
}

describe('core.now', () => {
  it('gives the current instant in the requested zone', async () => {
    const before = Date.now();
    const out = await nowFunction.run({ timeZone: 'asia/tokyo' }, contextFor('core.now', {}));
    const after = Date.now();
    expectMatchesOutputSchema(nowFunction, out.value);
    expect(out.value.timeZone).toBe('Asia/Tokyo');
    expect(out.value.offset).toBe('+09:00');
    expect(out.value.epochMs).toBeGreaterThanOrEqual(before);
    expect(out.value.epochMs).toBeLessThanOrEqual(after);
    expect(Date.parse(out.value.isoWithOffset)).toBe(out.value.epochMs);
    expect(Date.parse(out.value.iso)).toBe(out.value.epochMs);
    expect(out.card?.html).toContain('Asia/Tokyo');
  });

  it('defaults to UTC', async () => {
    const out = await nowFunction.run({}, contextFor('core.now', {}));
    expect(out.value.timeZone).toBe('UTC');
    expect(out.value.offset).toBe('+00:00');
    expect(out.value.local + 'Z').toBe(out.value.iso);
  });

  it('refuses an unknown zone with a hint', async () => {
    const err = await coreErrorOf(() => nowFunction.run({ timeZone: 'Mars/Olympus_Mons' }, contextFor('core.now', {})));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toMatch(/unknown time zone 'Mars\/Olympus_Mons': use an IANA name/);
    const hint = await coreErrorOf(() => nowFunction.run({ timeZone: 'Berlin' }, contextFor('core.now', {})));
    expect(hint.message).toContain("Did you mean 'Europe/Berlin'?");
    for (const bad of ['+05:30', '', 'Europe/../../etc/passwd', 'UTC\u0000']) {
      expect((await coreErrorOf(() => resolveZone(bad))).code).toBe('INVALID_ARGS');
    }
  });
});

describe('zone offsets agree with ICU', () => {
  it.each(['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'UTC'])(
    '%s across a year',
    (zone) => {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * 86_400_000 + 3_600_000) {
        const d = describeInstant(t, zone);
        expect(d.offset, new Date(t).toISOString()).toBe(icuOffset(t, zone));
        expect(Date.parse(d.isoWithOffset)).toBe(t);
      }
    },
  );

  it('keeps historical offsets with seconds', () => {
    const t = Date.UTC(1900, 0, 1);
    expect(describeInstant(t, 'Asia/Kolkata').offset).toBe(icuOffset(t, 'Asia/Kolkata'));
    expect(describeInstant(t, 'Asia/Kolkata').offset).toBe('+05:21:10');
    expect(describeInstant(t, 'Europe/Dublin').offset).toBe('-00:25:21');
    expect(describeInstant(t, 'Europe/Dublin').isoWithOffset).toBe('1899-12-31T23:34:39.000-00:25:21');
  });
});

describe('core.convertTime', () => {
  it('converts an instant with Z between zones', async () => {
    const out = await convert({ time: '2026-01-15T12:00:00Z', to: 'Asia/Kolkata' });
    expectMatchesOutputSchema(convertTimeFunction, out.value);
    expect(out.value.from.timeZone).toBe('UTC');
    expect(out.value.to.isoWithOffset).toBe('2026-01-15T17:30:00.000+05:30');
    expect(out.value.to.iso).toBe('2026-01-15T12:00:00.000Z');
    expect(out.value.note).toBeUndefined();
  });

  it('follows daylight saving time', async () => {
    expect((await convert({ time: '2026-01-15T12:00:00Z', to: 'America/New_York' })).value.to.local).toBe('2026-01-15T07:00:00.000');
    expect((await convert({ time: '2026-07-15T12:00:00Z', to: 'America/New_York' })).value.to.local).toBe('2026-07-15T08:00:00.000');
  });

  it('honours an explicit offset over from', async () => {
    const out = await convert({ time: '2026-07-01T09:00:00+02:00', from: 'Asia/Tokyo', to: 'UTC' });
    expect(out.value.to.iso).toBe('2026-07-01T07:00:00.000Z');
    expect(out.value.from.isoWithOffset).toBe('2026-07-01T16:00:00.000+09:00');
  });

  it('reads a wall-clock time in the from zone', async () => {
    const out = await convert({ time: '2026-07-01 09:00', from: 'europe/berlin', to: 'Asia/Tokyo' });
    expect(out.value.from).toMatchObject({ timeZone: 'Europe/Berlin', local: '2026-07-01T09:00:00.000', offset: '+02:00' });
    expect(out.value.to.local).toBe('2026-07-01T16:00:00.000');
    expect((await convert({ time: '2026-07-01', from: 'America/Los_Angeles', to: 'UTC' })).value.to.iso).toBe('2026-07-01T07:00:00.000Z');
  });

  it('moves a time in the spring-forward gap forward and says so', async () => {
    const out = await convert({ time: '2026-03-29T02:30:00', from: 'Europe/Berlin', to: 'UTC' });
    expect(out.value.to.iso).toBe('2026-03-29T01:30:00.000Z');
    expect(out.value.from.local).toBe('2026-03-29T03:30:00.000');
    expect(out.value.note).toMatch(/does not exist in Europe\/Berlin/);
  });

  it('takes the earlier of a repeated autumn time and says so', async () => {
    const out = await convert({ time: '2026-10-25T02:30:00', from: 'Europe/Berlin', to: 'UTC' });
    expect(out.value.to.iso).toBe('2026-10-25T00:30:00.000Z');
    expect(out.value.from.offset).toBe('+02:00');
    expect(out.value.note).toMatch(/occurs twice/);
  });

  it('round-trips wall-clock times through many zones', () => {
    const zones = ['Europe/London', 'America/Sao_Paulo', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Apia'];
    for (const zone of zones) {
      for (let t = Date.UTC(2026, 0, 1, 0, 17); t < Date.UTC(2027, 0, 1); t += 5 * 86_400_000 + 7_777_000) {
        const d = describeInstant(t, zone);
        const parsed = parseTime(d.local, zone);
        // A time in a fold parses to the earlier instant; anything else maps back exactly.
        if (parsed.note) expect(parsed.epochMs).toBeLessThanOrEqual(t);
        else expect(parsed.epochMs).toBe(t);
        expect(offsetMsAt(t, zone)).toBe(Date.parse(d.local + 'Z') - t);
      }
    }
  });

  it.each([
    ['2026-02-30T10:00:00Z', 'has day 30; that month has 28 days'],
    ['2025-02-29', 'has day 29; that month has 28 days'],
    ['2026-13-01T00:00:00Z', 'has month 13'],
    ['2026-01-01T24:00:00Z', 'out of range'],
    ['0000-01-01T00:00:00Z', 'year 0000'],
    ['yesterday', 'is not an ISO 8601 date-time'],
    ['2026-01-01T10:00:00+25:00', 'offset out of range'],
    ['2026-01-01T10:00:00', "has no UTC offset: add Z or +hh:mm, or set 'from'"],
  ])('refuses %s', async (time, message) => {
    const err = await coreErrorOf(() => convert({ time, to: 'UTC' }));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toContain(message);
  });

  it('accepts 29 February in a leap year and a target zone named wrongly is refused', async () => {
    expect((await convert({ time: '2024-02-29T00:00:00Z', to: 'UTC' })).value.to.local).toBe('2024-02-29T00:00:00.000');
    const err = await coreErrorOf(() => convert({ time: '2024-02-29T00:00:00Z', to: 'Nowhere/Land' }));
    expect(err.details?.issues?.[0]?.field).toBe('args.to');
  });

  it('defaults to now', async () => {
    const before = Date.now();
    const out = await convert({ to: 'UTC' });
    expect(out.value.to.epochMs).toBeGreaterThanOrEqual(before);
    expect(out.value.input).toBe(out.value.to.iso);
  });
});
