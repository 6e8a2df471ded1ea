/**
 * Redaction of secret values in whatever leaves an invocation: the value, the card, the error,
 * the HTTP exchange and the history entry. Besides the raw value it catches the forms a secret
 * takes on its way through an http tool: percent-encoded (URL), form-encoded and JSON-escaped.
 * Values shorter than 4 characters are left alone: replacing "a" everywhere would destroy the
 * output and hide nothing.
 *
 * The wire forms come from electron/core/secrets.ts; unlike its redactSecrets, this redactor is
 * built once per set of secrets (the regex is reused across invocations), skips values too short
 * to redact, and has a cheap mentionedIn() check so large outputs without secrets are not copied.
 */
import { REDACTED, secretWireForms } from '../secrets.js';

export { REDACTED };
export const MIN_SECRET_LENGTH = 4;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MAX_DEPTH = 64;

export class SecretRedactor {
  private readonly pattern: RegExp | undefined;

  private constructor(variants: string[]) {
    // Longest first, so a secret that contains another is replaced whole.
    const sorted = [...new Set(variants)].sort((a, b) => b.length - a.length);
    this.pattern = sorted.length ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined;
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
    if (!this.pattern) return s;
    this.pattern.lastIndex = 0;
    return s.replace(this.pattern, REDACTED);
  }

  /** A copy of a JSON-like value with every string and key redacted. */
  deep<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value, 0, new WeakSet()) as T;
  }

  private walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) return '[too deep]';
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.walk(v, depth + 1, seen));
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return this.walk(withJson.toJSON(), depth + 1, seen);
      if (value instanceof Error) return this.text(value.message);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.walk(v, depth + 1, seen);
      return out;
    } finally {
      seen.delete(value);
    }
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
