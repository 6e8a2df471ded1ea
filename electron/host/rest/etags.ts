/**
 * ETag, If-Match and If-None-Match of the tool and bundle routes (RFC 9110 §8.8.3, §13.1). The
 * tag is the view's `etag` (a hash of the file's bytes), sent strong and quoted; the store does
 * the If-Match comparison under the bundle's lock (core/store/preconditions.ts), so the host only
 * carries the header into the operation's input.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpName } from '../../../shared/operations.js';

/** Writes that take If-Match, and the reads and writes whose answer carries an ETag. */
const GUARDED: ReadonlySet<OpName> = new Set(['tools.update', 'tools.patch', 'bundles.put', 'bundles.patch']);
const TAGGED: ReadonlySet<OpName> = new Set(['tools.get', 'tools.put', 'tools.update', 'tools.patch', 'bundles.get', 'bundles.put', 'bundles.patch']);
const READS: ReadonlySet<OpName> = new Set(['tools.get', 'bundles.get']);

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

/** Sets the ETag of an answer that carries one; true when a GET's If-None-Match already names it (answer 304). */
export function tagAnswer(name: OpName, req: FastifyRequest, reply: FastifyReply, data: unknown): boolean {
  if (!TAGGED.has(name)) return false;
  const view = (name === 'bundles.put' ? (data as { bundle?: unknown }).bundle : data) as { etag?: unknown } | undefined;
  if (typeof view?.etag !== 'string') return false;
  void reply.header('etag', `"${view.etag}"`);
  if (!READS.has(name)) return false;
  const none = req.headers['if-none-match'];
  if (none === undefined) return false;
  // If-None-Match compares weakly: any listed tag, with or without W/, or `*`.
  return String(none)
    .split(',')
    .map((t) => t.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((t) => t === '*' || t === view.etag);
}
