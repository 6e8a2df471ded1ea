/**
 * How far a run is, as the tool's server reports it (an upstream MCP server's progress
 * notifications): a bar that fills when the server gave a total and moves without one, the
 * count, and the server's message when it sent one.
 */
import type { ProgressUpdate } from '../../../../../shared/types.js';
import './RunProgress.css';

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function progressText(update: ProgressUpdate): string {
  const done = update.total !== undefined ? `${count.format(update.progress)} of ${count.format(update.total)}` : count.format(update.progress);
  return update.message ? `${done} · ${update.message}` : done;
}

export function RunProgress({ update }: { update: ProgressUpdate }) {
  const known = update.total !== undefined && update.total > 0;
  const text = progressText(update);
  return (
    <div className="run-progress" data-testid="run-progress">
      <progress
        className="run-progress-bar"
        aria-label="Progress the server reported"
        aria-valuetext={text}
        {...(known ? { value: Math.min(update.progress, update.total!), max: update.total } : {})}
      />
      <span className="run-progress-text muted" data-testid="run-progress-text">
        {text}
      </span>
    </div>
  );
}
