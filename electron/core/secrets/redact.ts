/**
 * The one redaction of secret values in whatever leaves the core: a run's value, card, error,
 * HTTP exchange and history entry, and the http runner's own messages. Besides the raw value it
 * catches the forms a secret takes on its way through an http tool: percent-encoded (URL),
 * form-encoded and JSON-escaped. Values shorter than 4 characters are left alone: replacing
 * "a" everywhere would destroy the output and hide nothing.
 *
 * A redactor is built once per set of secrets (RedactorCache reuses its regex across calls).
 * What it returns is meant for JSON: an Error becomes its (redacted) message, a cycle becomes
 * "[circular]", nesting past 64 levels "[too deep]"; the input is never changed.
 */
import type { SecretPart } from '../../../shared/types.js';

export const REDACTED = '[redacted]';
export const MIN_SECRET_LENGTH = 4;
const MAX_DEPTH = 64;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms a secret value takes on the wire: as is, percent-encoded (URLs, forms) and
 * JSON-escaped. Redacting all of them keeps an exchange record free of the value.
 */
export function secretWireForms(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    out.add(v);
    const component = encodeURIComponent(v);
    out.add(component);
    out.add(component.replace(/%20/g, '+'));
    // A URL's query as the WHATWG URL class writes it (it also escapes the apostrophe), and the
    // strict RFC 3986 form that URLSearchParams and many clients use (also !, (, ), *).
    out.add(component.replace(/'/g, '%27'));
    const strict = component.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    out.add(strict);
    out.add(strict.replace(/%20/g, '+'));
    out.add(new URLSearchParams({ v }).toString().slice(2));
    out.add(JSON.stringify(v).slice(1, -1));
  }
  return [...out];
}

/** The texts, longest first (a secret that contains another is matched whole), and a pattern for any of them. */
function anyOf(texts: Iterable<string>): { sorted: string[]; pattern: RegExp | undefined } {
  const sorted = [...new Set(texts)].sort((a, b) => b.length - a.length);
  return { sorted, pattern: sorted.length ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined };
}

export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  private readonly variants: readonly string[];

  private constructor(variants: string[]) {
    const { sorted, pattern } = anyOf(variants);
    this.variants = sorted;
    this.pattern = pattern;
  }

  static of(secretValues: readonly string[]): SecretRedactor {
    const usable = secretValues.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
    return new SecretRedactor(secretWireForms(usable));
  }

  get active(): boolean {
    return this.pattern !== undefined;
  }

  /** Whether text holds any secret (in any covered form). */
  mentionedIn(text: string): boolean {
    if (!this.pattern) return false;
    this.pattern.lastIndex = 0;
    return this.pattern.test(text);
  }

  text(s: string): string {
    if (!this.pattern || s.length === 0) return s;
    this.pattern.lastIndex = 0;
    return s.replace(this.pattern, REDACTED);
  }

  /**
   * Redaction of text that arrives in pieces (streamed output): what each piece releases is
   * redacted, and text that may be the start of a secret completed by a later piece is held
   * back until it is decided. The concatenation of everything released equals text() of the
   * whole, so a secret split across two pieces is caught as if it came in one.
   */
  streaming(): StreamingRedaction {
    return new StreamingRedaction(this);
  }

  /**
   * Where text may be cut so that what comes before is final: before any secret (in any form)
   * that the text ends in the middle of, and never inside a complete one.
   */
  safeCut(text: string): number {
    if (!this.pattern) return text.length;
    let cut = text.length;
    for (const v of this.variants) {
      for (let k = Math.min(v.length - 1, text.length); k > 0 && text.length - k < cut; k--) {
        if (text.endsWith(v.slice(0, k))) {
          cut = text.length - k;
          break;
        }
      }
    }
    this.pattern.lastIndex = 0;
    for (let m = this.pattern.exec(text); m; m = this.pattern.exec(text)) {
      if (m.index >= cut) break;
      if (m.index + m[0].length > cut) return m.index;
    }
    return cut;
  }

  /** A copy of a JSON-like value with every string and key redacted. */
  deep<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value, 0, new WeakSet()) as T;
  }

  private walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Date) return value; // no free text to scan
    if (depth >= MAX_DEPTH) return '[too deep]';
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.walk(v, depth + 1, seen));
      if (value instanceof Error) return this.text(value.message);
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return this.walk(withJson.toJSON(), depth + 1, seen);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.walk(v, depth + 1, seen);
      return out;
    } finally {
      seen.delete(value);
    }
  }
}

/**
 * Cuts text where named secrets stand (in any wire form), each piece replaced by its name;
 * undefined for text with no secret in it. Built once for a run's secrets, used on each part of
 * its request. The literal pieces are left as they are (the caller scrubs them).
 */
export function secretSplitter(named: ReadonlyMap<string, string>): (text: string) => SecretPart[] | undefined {
  const nameOf = new Map<string, string>();
  for (const [name, value] of named) {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) continue;
    for (const form of secretWireForms([value])) if (!nameOf.has(form)) nameOf.set(form, name);
  }
  const { pattern } = anyOf(nameOf.keys());
  return (text) => {
    if (!pattern) return undefined;
    const parts: SecretPart[] = [];
    let at = 0;
    for (const m of text.matchAll(pattern)) {
      if (m.index > at) parts.push(text.slice(at, m.index));
      parts.push({ secret: nameOf.get(m[0])! });
      at = m.index + m[0].length;
    }
    if (at === 0) return undefined;
    if (at < text.length) parts.push(text.slice(at));
    return parts;
  };
}

/** One stream's redaction state; see SecretRedactor.streaming(). */
export class StreamingRedaction {
  private pending = '';

  constructor(private readonly redactor: SecretRedactor) {}

  /** Takes the next piece; returns the redacted text that is now final (maybe ''). */
  push(piece: string): string {
    const text = this.pending + piece;
    const cut = this.redactor.safeCut(text);
    this.pending = text.slice(cut);
    return this.redactor.text(text.slice(0, cut));
  }

  /** The stream ended: whatever was held back, redacted. */
  end(): string {
    const rest = this.redactor.text(this.pending);
    this.pending = '';
    return rest;
  }
}

/** A redactor per distinct set of secrets; rebuilt only when the set changes. */
export class RedactorCache {
  private key: string | undefined;
  private current: SecretRedactor = SecretRedactor.of([]);

  for(secretValues: readonly string[]): SecretRedactor {
    const key = secretValues.join('\u0000');
    if (key !== this.key) {
      this.current = SecretRedactor.of(secretValues);
      this.key = key;
    }
    return this.current;
  }
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);

/**
 * Credential headers of a recorded HTTP exchange keep only their scheme ("Bearer [redacted]"):
 * a token fetched by OAuth is no stored secret, yet just as sensitive.
 */
export function maskCredentialHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      out[name] = value;
      continue;
    }
    const scheme = /^([A-Za-z][A-Za-z0-9-]*) +\S/.exec(value)?.[1];
    out[name] = scheme && name.toLowerCase().endsWith('authorization') ? `${scheme} ${REDACTED}` : REDACTED;
  }
  return out;
}
