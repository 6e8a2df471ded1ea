/** Settings → MCP servers: how long an upstream server may sit unused before Toolwright stops it; running servers follow a change at once. */
import { useState } from 'react';
import { TextField } from '../../components/Field.js';
import type { Config } from '../../../../shared/schemas.js';
import { DEFAULT_UPSTREAM_IDLE_MINUTES, MAX_UPSTREAM_IDLE_MINUTES } from '../../../../shared/limits.js';

export function UpstreamIdleSetting({ config, patch }: { config: Config; patch(fields: Partial<Config>): void }) {
  const value = config.upstreamIdleMinutes ?? DEFAULT_UPSTREAM_IDLE_MINUTES;
  // Keyed by the saved value: a save (here or elsewhere) starts the field again from it.
  return <IdleMinutes key={value} value={value} patch={patch} />;
}

function IdleMinutes({ value, patch }: { value: number; patch(fields: Partial<Config>): void }) {
  const [text, setText] = useState(String(value));
  const minutes = Number(text);
  const error =
    text.trim() === '' || !Number.isFinite(minutes) || minutes < 0 || minutes > MAX_UPSTREAM_IDLE_MINUTES
      ? `Enter minutes from 0 to ${MAX_UPSTREAM_IDLE_MINUTES} (0: never stop)`
      : undefined;
  return (
    <section className="panel" aria-labelledby="upstream-title">
      <div className="panel-head">
        <h2 className="panel-title" id="upstream-title">
          MCP servers
        </h2>
      </div>
      <form
        className="panel-body row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!error) patch({ upstreamIdleMinutes: minutes });
        }}
      >
        <TextField
          label="Stop a server after it sits unused for (minutes)"
          className="w-mid"
          hint="It starts again on the next call. 0: never stop."
          error={text !== String(value) ? error : undefined}
          mono
          inputMode="decimal"
          value={text}
          onValue={(v) => setText(v)}
          data-testid="upstream-idle-minutes"
        />
        <button type="submit" className="btn align-end" disabled={text === String(value) || !!error} data-testid="upstream-idle-save">
          Save
        </button>
      </form>
    </section>
  );
}
