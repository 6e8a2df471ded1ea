/**
 * Opaque page tokens for keyset paging, one codec for every list: a token carries the cursor to
 * continue after plus a short hash of the query that made it (its binding), so a token handed to
 * another query is refused instead of silently paging through the wrong list. Wire form:
 * `<prefix>` + base64url(JSON [binding, ...cursor]).
 */
import { createHash } from 'node:crypto';
import { CoreError } from '../errors.js';

/** Identifies one query: equal parts, equal binding. */
export function queryBinding(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export interface PageTokenCodecOptions<C extends unknown[]> {
  /** Marks the kind of list ('' for none); a token of another kind is refused as foreign. */
  prefix: string;
  /** Checks a decoded cursor's shape; undefined when it is damaged. */
  cursor(values: unknown[]): C | undefined;
  messages: { foreign: string; damaged: string; otherQuery: string };
}

export class PageTokenCodec<C extends unknown[]> {
  constructor(private readonly opts: PageTokenCodecOptions<C>) {}

  encode(binding: string, cursor: C): string {
    return this.opts.prefix + Buffer.from(JSON.stringify([binding, ...cursor]), 'utf8').toString('base64url');
  }

  /** The cursor to continue after; throws INVALID_INPUT (field pageToken) saying what is wrong. */
  decode(token: string, binding: string): C {
    const { prefix, messages } = this.opts;
    if (!token.startsWith(prefix)) throw badToken(messages.foreign);
    const body = token.slice(prefix.length);
    let value: unknown;
    try {
      if (!/^[A-Za-z0-9_-]+$/.test(body)) throw new Error('not base64url');
      value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw badToken(prefix ? messages.damaged : messages.foreign);
    }
    if (!Array.isArray(value) || typeof value[0] !== 'string') throw badToken(prefix ? messages.damaged : messages.foreign);
    const cursor = this.opts.cursor(value.slice(1));
    if (!cursor) throw badToken(messages.damaged);
    if (value[0] !== binding) throw badToken(messages.otherQuery);
    return cursor;
  }
}

function badToken(message: string): CoreError {
  return new CoreError('INVALID_INPUT', message, { issues: [{ field: 'pageToken', message }] });
}
