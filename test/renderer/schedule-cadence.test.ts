/** The editor's schedule drafts keep a one-off and an interval as they are, and check them before the server does. */
import { describe, expect, it } from 'vitest';
import { newScheduleDraft, scheduleIssues, schedulesFromTool, schedulesToInput } from '../../renderer/src/features/schedules/scheduleDraft.js';

const ID1 = '0190a000-0000-7000-8000-000000000001';
const ID2 = '0190a000-0000-7000-8000-000000000002';

describe('schedule drafts of every cadence', () => {
  it('send a one-off and an interval back as they came, with no cron or zone added', () => {
    const drafts = schedulesFromTool({
      schedules: [
        { scheduleID: ID1, at: '2027-01-01T09:00:00+01:00', args: {}, isEnabled: true },
        { scheduleID: ID2, everySeconds: 900, args: { a: 1 }, isEnabled: false },
      ],
    });
    expect(drafts.map((d) => d.kind)).toEqual(['once', 'interval']);
    expect(schedulesToInput(drafts)).toEqual([
      { scheduleID: ID1, at: '2027-01-01T09:00:00+01:00', args: {}, isEnabled: true, approval: null },
      { scheduleID: ID2, everySeconds: 900, args: { a: 1 }, isEnabled: false, approval: null },
    ]);
    // Switching a draft to a cron pattern sends the pattern and its zone instead.
    expect(schedulesToInput([{ ...drafts[0]!, kind: 'cron', cron: '0 9 * * *' }])[0]).toMatchObject({ cron: '0 9 * * *', timezone: null });
    expect(schedulesToInput([{ ...drafts[0]!, kind: 'cron', cron: '0 9 * * *' }])[0]).not.toHaveProperty('at');
  });

  it('check a missing or malformed time and an interval that is not a whole number of seconds', () => {
    const issues = new Map<string, string>();
    const set = (f: string, m: string | undefined) => m && issues.set(f, m);
    scheduleIssues(
      [
        { ...newScheduleDraft(), kind: 'once', at: '' },
        { ...newScheduleDraft(), kind: 'once', at: 'soon' },
        { ...newScheduleDraft(), kind: 'interval', everySeconds: 1.5 },
        { ...newScheduleDraft(), kind: 'once', at: '2027-01-01T09:00:00Z', cron: 'not a cron' },
      ],
      { type: 'object' },
      false,
      set,
    );
    expect(Object.fromEntries(issues)).toEqual({
      'schedules[0].at': 'choose the date and time it runs',
      'schedules[1].at': expect.stringContaining('RFC 3339'),
      'schedules[2].everySeconds': 'must be a whole number of seconds',
    });
  });
});
