/**
 * The container contract, inbound: one CMD argument, base64 of
 * `{"params": args, "settings": …, "telemetry": …}`.
 */
import { CoreError } from '../../errors.js';
import type { RunContext } from '../types.js';

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
