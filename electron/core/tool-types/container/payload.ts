/**
 * The container contract, inbound: one CMD argument, base64 of
 * `{"params": args, "settings": …, "telemetry": …}`. telemetry carries the run's identity and
 * the fields Chalie's runner passes its tools (lat, lon, location_name, city, country, time,
 * locale, language), so a tool written for Chalie finds every one it reads: Toolwright knows no
 * place, so lat/lon are null and the place names empty; time is this machine's local time.
 */
import { CoreError } from '../../errors.js';
import type { RunContext } from '../../invoke/types.js';

/** Linux refuses a single argv string longer than 32 pages (MAX_ARG_STRLEN) including its NUL. */
export const MAX_PAYLOAD_CHARS = 128 * 1024 - 1;

export function encodePayload(ctx: RunContext, settings: Record<string, unknown>): string {
  const payload = {
    params: ctx.args,
    settings,
    telemetry: {
      invocationID: ctx.invocationID,
      toolID: ctx.tool.toolID,
      bundleID: ctx.tool.bundleID,
      slug: ctx.tool.slug,
      version: ctx.tool.version,
      startedAt: new Date().toISOString(),
      ...seedTelemetry(new Date()),
    },
  };
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
  if (encoded.length > MAX_PAYLOAD_CHARS) {
    throw new CoreError(
      'INVALID_ARGS',
      `The arguments are too large for a container tool: ${Math.ceil(encoded.length / 1024)} KB once encoded, and at most ${Math.floor(MAX_PAYLOAD_CHARS / 1024)} KB fit in its command argument. Pass less data.`,
    );
  }
  return encoded;
}

/** Local time with its UTC offset, as a person's clock reads it: 2026-05-14T15:44:00+02:00. */
function localIsoTime(now: Date): string {
  const offset = -now.getTimezoneOffset();
  const pad = (n: number) => String(Math.trunc(Math.abs(n))).padStart(2, '0');
  const local = new Date(now.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${offset >= 0 ? '+' : '-'}${pad(offset / 60)}:${pad(offset % 60)}`;
}

function seedTelemetry(now: Date): Record<string, unknown> {
  const locale = Intl.DateTimeFormat().resolvedOptions().locale;
  return {
    lat: null,
    lon: null,
    location_name: '',
    city: '',
    country: '',
    time: localIsoTime(now),
    locale,
    language: locale.split('-')[0] ?? '',
  };
}
