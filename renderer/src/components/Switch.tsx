/** An on/off switch: a real checkbox with role="switch", so Space toggles it and readers announce it. */
import type { ChangeEvent } from 'react';
import './Switch.css';

interface SwitchProps {
  checked: boolean;
  onChange(next: boolean): void;
  label: string;
  disabled?: boolean;
  /** Shown visually next to the switch; the accessible name is `label` either way. */
  showLabel?: boolean;
  /** Visible text instead of `label` (e.g. "Disabled" while off); the accessible name stays `label`. */
  text?: string;
  testId?: string;
  tabIndex?: number;
}

export function Switch({ checked, onChange, label, disabled, showLabel, text, testId, tabIndex }: SwitchProps) {
  return (
    <label className={`switch${disabled ? ' is-disabled' : ''}`} onClick={(e) => e.stopPropagation()}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        tabIndex={tabIndex}
        data-testid={testId}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.checked)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (!disabled) onChange(!checked);
          }
        }}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {showLabel && (
        <span className="switch-label" aria-hidden="true">
          {text ?? label}
        </span>
      )}
    </label>
  );
}
