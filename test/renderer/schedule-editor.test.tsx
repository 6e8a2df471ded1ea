// @vitest-environment jsdom
/**
 * The editor's schedules: what is sent (approvals kept, given or withdrawn), what is checked
 * before the server, the Schedules screen's address, and the time zone picker driven by keyboard.
 */
import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { newScheduleDraft, scheduleIssues, schedulesFromTool, schedulesToInput } from '../../renderer/src/features/schedules/scheduleDraft.js';
import { TimeZonePicker } from '../../renderer/src/features/schedules/TimeZonePicker.js';
import { hashOf, routeOf } from '../../renderer/src/lib/nav.js';

const ARGS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('schedule drafts', () => {
  it('send a standing approval back unchanged, a new tick as {}, and no tick as null', () => {
    const approval = { approvedAt: '2026-01-01T00:00:00.000Z', approvedBy: 'Ada' };
    const [kept] = schedulesFromTool({
      schedules: [{ scheduleID: '0190a000-0000-7000-8000-000000000001', cron: '0 9 * * *', args: { city: 'Oslo' }, isEnabled: true, approval }],
    });
    const fresh = { ...newScheduleDraft(), approved: true };
    const withdrawn = { ...kept!, approved: false, approval: undefined };
    expect(schedulesToInput([kept!, fresh, withdrawn]).map((s) => s.approval)).toEqual([approval, {}, null]);
    expect(schedulesToInput([kept!])[0]).toEqual({
      scheduleID: '0190a000-0000-7000-8000-000000000001',
      cron: '0 9 * * *',
      timezone: null,
      args: { city: 'Oslo' },
      isEnabled: true,
      approval,
    });
  });

  it("keep a schedule's name, send a new one, send a cleared one as null, and send nothing for one never named", () => {
    const base = { cron: '0 9 * * *', args: {}, isEnabled: true };
    const [named, unnamed] = schedulesFromTool({
      schedules: [
        { scheduleID: '0190a000-0000-7000-8000-000000000002', name: 'Morning weather for Lisbon', ...base },
        { scheduleID: '0190a000-0000-7000-8000-000000000003', ...base },
      ],
    });
    expect(named!.name).toBe('Morning weather for Lisbon');
    const [kept, cleared, renamed, never] = schedulesToInput([named!, { ...named!, name: '  ' }, { ...unnamed!, name: ' Nightly backup ' }, unnamed!]);
    expect(kept!.name).toBe('Morning weather for Lisbon');
    expect(cleared!.name).toBeNull();
    expect(renamed!.name).toBe('Nightly backup');
    expect(never).not.toHaveProperty('name');
  });

  it('check the pattern, the zone, the arguments of enabled schedules and the approval of privileged ones before the server does', () => {
    const issues = new Map<string, string>();
    const set = (f: string, m: string | undefined) => m && issues.set(f, m);
    const bad = { ...newScheduleDraft(), cron: '0 9 * *', timezone: 'Mars/Base' };
    const noArgs = { ...newScheduleDraft() };
    const off = { ...newScheduleDraft(), isEnabled: false };
    scheduleIssues([bad, noArgs, off], ARGS, true, set);
    expect([...issues.keys()]).toEqual([
      'schedules[0].cron',
      'schedules[0].timezone',
      'schedules[0].approval',
      'schedules[0].args',
      'schedules[1].approval',
      'schedules[1].args',
    ]);
    expect(issues.get('schedules[1].args')).toMatch(/city/);
  });

  it('the Schedules screen has an address', () => {
    expect(hashOf({ name: 'schedules' })).toBe('#/schedules');
    expect(routeOf('#/schedules')).toEqual({ name: 'schedules' });
  });
});

describe('the time zone picker', () => {
  function Picker() {
    const [zone, setZone] = useState('');
    return (
      <>
        <TimeZonePicker id="tz" value={zone} onChange={setZone} testId="tz" />
        <output data-testid="chosen">{zone || 'machine'}</output>
      </>
    );
  }

  it('filters as you type and picks with the keyboard; Escape keeps the value', () => {
    render(<Picker />);
    const input = screen.getByTestId('tz');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'new york' } });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([expect.stringMatching(/^America\/New York/)]);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('chosen').textContent).toBe('America/New_York');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'kolkata' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.getByTestId('chosen').textContent).toBe('America/New_York');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
