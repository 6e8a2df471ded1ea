// @vitest-environment jsdom
/**
 * A schedule's arguments are kept as written: opening a saved schedule in the editor's form does
 * not fill in the argument schema's defaults (a save would write them into tool.json on the
 * person's behalf); a schedule added now shows them, since the person sees what will be saved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ScheduleSettings } from '../../renderer/src/features/schedules/ScheduleSettings.js';
import { schedulesFromTool, type ScheduleDraft } from '../../renderer/src/features/schedules/scheduleDraft.js';
import { NavProvider } from '../../renderer/src/lib/nav.js';

afterEach(() => cleanup());

const ARG_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', default: 'Oslo' }, days: { type: 'integer', default: 3 }, units: { type: 'string', const: 'metric' } },
};

let latest: ScheduleDraft[] = [];

function Schedules({ initial }: { initial: ScheduleDraft[] }) {
  const [schedules, setSchedules] = useState(initial);
  latest = schedules;
  return (
    <NavProvider>
      <ScheduleSettings
        schedules={schedules}
        onChange={setSchedules}
        argSchema={ARG_SCHEMA}
        privileged={false}
        readOnly={false}
        issues={new Map()}
        serverIssues={[]}
      />
    </NavProvider>
  );
}

const saved = schedulesFromTool({
  schedules: [
    { scheduleID: '0190a000-0000-7000-8000-000000000001', cron: '0 9 * * *', args: {}, isEnabled: false },
    { scheduleID: '0190a000-0000-7000-8000-000000000002', cron: '0 10 * * *', args: { days: 5 }, isEnabled: true },
  ],
});

describe('schedule arguments in the editor', () => {
  it('keep a saved schedule’s arguments as written, switched off or on', async () => {
    render(<Schedules initial={saved} />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(latest.map((s) => s.args)).toEqual([{}, { days: 5 }]);
  });

  it('take what the person types, and only that', async () => {
    render(<Schedules initial={saved} />);
    fireEvent.change(screen.getByLabelText('days', { selector: '#schedule1_days' }), { target: { value: '7' } });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(latest.map((s) => s.args)).toEqual([{}, { days: 7 }]);
  });

  it('show the defaults in a schedule added now', async () => {
    render(<Schedules initial={saved} />);
    fireEvent.click(screen.getByTestId('add-schedule'));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(latest.map((s) => s.args)).toEqual([{}, { days: 5 }, { city: 'Oslo', days: 3, units: 'metric' }]);
  });
});
