/**
 * ETag and If-Match of the tool and bundle routes (RFC 9110 §8.8.3, §13.1.1). The tag is the
 * view's `etag` (a hash of the file's bytes), sent strong and quoted; the store does the If-Match
 * comparison under the bundle's lock (core/store/preconditions.ts), so the host only carries the
 * header into the operation's input. If-None-Match is not honoured with a 304: an answer also
 * holds what the file does not (availability, metrics), which moves while the tag stays, and a
 * browser revalidating its cached copy would keep showing the old one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpName } from '../../../shared/operations.js';

/** Writes that take If-Match, and the reads and writes whose answer carries an ETag. */
const GUARDED: ReadonlySet<OpName> = new Set(['tools.update', 'tools.patch', 'bundles.put', 'bundles.patch', 'profiles.put']);
const TAGGED: ReadonlySet<OpName> = new Set(['tools.get', 'tools.put', 'tools.update', 'tools.patch', 'bundles.get', 'bundles.put', 'bundles.patch']);

/** The first entity tag of a header, unquoted (`*` as is); a weak prefix is dropped, as this host's tags are all strong. */
function firstTag(header: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined) return undefined;
  const first = raw.split(',')[0]!.trim();
  return first.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** `ifMatch` for the operation's input, when the route takes it and the request sent it. */
export function ifMatchOf(name: OpName, req: FastifyRequest): string | undefined {
  return GUARDED.has(name) ? firstTag(req.headers['if-match']) : undefined;
}

/** Sets the ETag of an answer that carries one. */
export function tagAnswer(name: OpName, reply: FastifyReply, data: unknown): void {
  if (!TAGGED.has(name)) return;
  const view = (name === 'bundles.put' ? (data as { bundle?: unknown }).bundle : data) as { etag?: unknown } | undefined;
  if (typeof view?.etag === 'string') void reply.header('etag', `"${view.etag}"`);
}
