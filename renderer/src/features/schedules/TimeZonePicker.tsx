/**
 * A time zone picker with search: an ARIA 1.2 combobox over the IANA zones this engine knows
 * (Intl), each with its current UTC offset. Typing filters by any part of the name ("paris",
 * "new york", "+05:30"); arrows move, Enter picks, Escape gives the value back. The empty value
 * is "this machine's zone", which is what a schedule without a zone runs in.
 */
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { machineTimeZone } from '../../../../shared/schedules/cron.js';
import './TimeZonePicker.css';

interface ZoneOption {
  value: string;
  label: string;
  offset: string;
  search: string;
}

let zoneCache: ZoneOption[] | undefined;

function offsetOf(zone: string, now: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(now).find((p) => p.type === 'timeZoneName');
    return (part?.value ?? 'GMT').replace('GMT', 'UTC') || 'UTC';
  } catch {
    return '';
  }
}

function zones(): ZoneOption[] {
  if (zoneCache) return zoneCache;
  const now = new Date();
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = [...new Set(['UTC', ...names])];
  zoneCache = all.map((value) => {
    const label = value.replace(/_/g, ' ');
    const offset = offsetOf(value, now);
    return { value, label, offset: offset === 'UTC' ? 'UTC+00:00' : offset, search: `${label} ${value} ${offset}`.toLowerCase() };
  });
  return zoneCache;
}

const MAX_SHOWN = 150;

export function TimeZonePicker({
  id,
  value,
  onChange,
  disabled,
  describedBy,
  testId,
}: {
  id: string;
  /** '' for this machine's zone. */
  value: string;
  onChange(zone: string): void;
  disabled?: boolean;
  describedBy?: string;
  testId?: string;
}) {
  const listId = useId();
  const machine = useMemo(() => machineTimeZone(), []);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const options = useMemo(() => {
    const machineOption: ZoneOption = {
      value: '',
      label: `This machine (${machine.replace(/_/g, ' ')})`,
      offset: '',
      search: `this machine local ${machine}`.toLowerCase(),
    };
    const words = query
      .toLowerCase()
      .split(/[\s/_]+/)
      .filter(Boolean);
    const all = [machineOption, ...zones()];
    return words.length ? all.filter((o) => words.every((w) => o.search.includes(w))) : all;
  }, [query, machine]);
  const shown = options.slice(0, MAX_SHOWN);

  const display = value ? value.replace(/_/g, ' ') : `This machine (${machine.replace(/_/g, ' ')})`;
  const choose = (o: ZoneOption | undefined) => {
    if (o) onChange(o.value);
    setOpen(false);
    setQuery('');
  };
  const move = (to: number) => {
    const next = Math.max(0, Math.min(shown.length - 1, to));
    setActive(next);
    listRef.current?.children[next]?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else move(active + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      move(active - 1);
    } else if (e.key === 'Enter') {
      if (open) {
        e.preventDefault();
        choose(shown[active]);
      }
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setQuery('');
    }
  };

  return (
    <div className="tz-picker">
      <input
        id={id}
        className="input"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={open ? 'Search: Paris, New York, +05:30…' : undefined}
        value={open ? query : display}
        onFocus={() => {
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => {
          setOpen(false);
          setQuery('');
        }}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        data-testid={testId}
      />
      {open && (
        <ul className="tz-list" role="listbox" id={listId} ref={listRef} aria-label="Time zones">
          {shown.map((o, i) => (
            <li
              key={o.value || 'machine'}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`tz-option${i === active ? ' is-active' : ''}${o.value === value ? ' is-current' : ''}`}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              onMouseMove={() => setActive(i)}
            >
              <span>{o.label}</span>
              {o.offset && <span className="tz-offset">{o.offset}</span>}
            </li>
          ))}
          {shown.length === 0 && <li className="tz-empty">No time zone matches “{query}”</li>}
          {options.length > shown.length && <li className="tz-empty">{options.length - shown.length} more: type to narrow the list</li>}
        </ul>
      )}
    </div>
  );
}
