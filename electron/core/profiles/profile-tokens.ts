/**
 * A profile's tokens, in `<data>/profiles/<profileID>/tokens.json` (0600): each stored as the
 * SHA-256 of the token, never the token, which is shown once when made. A presented token is
 * hashed and compared in constant time. Use (last use, calls) is counted in memory and written in
 * batches, as metrics.ts does, never a file write per call. The file is re-read whenever it
 * changed on disk before a check, so a token revoked by another process is refused at once.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import type { CreatedProfileToken, ProfileTokenInfo } from '../../../shared/agents/profiles.js';
import { notFound } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import type { DataPaths } from '../data-paths.js';

interface StoredToken extends ProfileTokenInfo {
  /** Hex SHA-256 of the token. */
  sha256: string;
}

interface Loaded {
  /** mtime and size of the file when read; undefined when there was none. */
  stamp: string | undefined;
  tokens: StoredToken[];
}

interface Pending {
  calls: number;
  lastUsedAt: string;
}

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

function parseTokens(text: string): StoredToken[] {
  try {
    const v = JSON.parse(text) as { tokens?: unknown };
    if (!Array.isArray(v.tokens)) return [];
    return v.tokens.filter(
      (t): t is StoredToken =>
        typeof t === 'object' && t !== null && typeof (t as StoredToken).tokenID === 'string' && /^[0-9a-f]{64}$/.test(String((t as StoredToken).sha256)),
    );
  } catch {
    return [];
  }
}

export class ProfileTokens {
  private readonly loaded = new Map<string, Loaded>();
  private readonly pending = new Map<string, Map<string, Pending>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly paths: DataPaths,
    private readonly now: () => string,
    private readonly flushDelayMs = 1000,
  ) {}

  private async stampOf(profileID: string): Promise<string | undefined> {
    const s = await fsp.stat(this.paths.profileTokensFile(profileID)).catch(() => undefined);
    return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : undefined;
  }

  /** The tokens as on disk now (re-read only when the file changed since the last read). */
  private async current(profileID: string): Promise<StoredToken[]> {
    const stamp = await this.stampOf(profileID);
    const known = this.loaded.get(profileID);
    if (known && known.stamp === stamp) return known.tokens;
    const text = stamp ? await fsp.readFile(this.paths.profileTokensFile(profileID), 'utf8').catch(() => '') : '';
    const tokens = parseTokens(text);
    this.loaded.set(profileID, { stamp, tokens });
    return tokens;
  }

  private async write(profileID: string, tokens: StoredToken[]): Promise<void> {
    await writeFileAtomic(this.paths.profileTokensFile(profileID), JSON.stringify({ tokens }, null, 2) + '\n', { mode: 0o600 });
    this.loaded.set(profileID, { stamp: await this.stampOf(profileID), tokens });
  }

  private change<T>(profileID: string, fn: (tokens: StoredToken[]) => { tokens?: StoredToken[]; result: T }): Promise<T> {
    return withLock(this.paths.profileLock(profileID), async () => {
      this.loaded.delete(profileID);
      const out = fn(await this.current(profileID));
      if (out.tokens) await this.write(profileID, out.tokens);
      return out.result;
    });
  }

  async list(profileID: string): Promise<ProfileTokenInfo[]> {
    const tokens = await this.current(profileID);
    const pending = this.pending.get(profileID);
    return tokens.map((t) => {
      const p = pending?.get(t.tokenID);
      return {
        tokenID: t.tokenID,
        label: t.label,
        createdAt: t.createdAt,
        lastUsedAt: p ? p.lastUsedAt : t.lastUsedAt,
        calls: t.calls + (p?.calls ?? 0),
      };
    });
  }

  create(profileID: string, label: string): Promise<CreatedProfileToken> {
    const token = `twp_${randomBytes(32).toString('base64url')}`;
    const stored: StoredToken = { tokenID: uuidv7(), label, createdAt: this.now(), lastUsedAt: null, calls: 0, sha256: digest(token).toString('hex') };
    return this.change(profileID, (tokens) => ({
      tokens: [...tokens, stored],
      result: { tokenID: stored.tokenID, label, createdAt: stored.createdAt, token },
    }));
  }

  revoke(profileID: string, tokenID: string): Promise<void> {
    this.pending.get(profileID)?.delete(tokenID);
    return this.change(profileID, (tokens) => {
      if (!tokens.some((t) => t.tokenID === tokenID)) throw notFound(`token ${tokenID} of profile ${profileID}`);
      return { tokens: tokens.filter((t) => t.tokenID !== tokenID), result: undefined };
    });
  }

  /** The token's ID when `token` is one of the profile's tokens; its use is counted. */
  async verify(profileID: string, token: string): Promise<string | undefined> {
    const presented = digest(token);
    let match: StoredToken | undefined;
    // Every stored token is compared, so the time taken does not say which one came close.
    for (const t of await this.current(profileID)) if (timingSafeEqual(presented, Buffer.from(t.sha256, 'hex'))) match = t;
    if (!match) return undefined;
    this.recordUse(profileID, match.tokenID);
    return match.tokenID;
  }

  private recordUse(profileID: string, tokenID: string): void {
    let perProfile = this.pending.get(profileID);
    if (!perProfile) this.pending.set(profileID, (perProfile = new Map()));
    const p = perProfile.get(tokenID) ?? { calls: 0, lastUsedAt: this.now() };
    p.calls += 1;
    p.lastUsedAt = this.now();
    perProfile.set(tokenID, p);
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
  }

  /** Writes the counted uses; a profile or token gone meanwhile just drops its counts. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    const run = this.flushing.then(async () => {
      for (const [profileID, uses] of batch) {
        try {
          await this.change(profileID, (tokens) => ({
            tokens: tokens.map((t) => {
              const u = uses.get(t.tokenID);
              if (!u) return t;
              return { ...t, calls: t.calls + u.calls, lastUsedAt: !t.lastUsedAt || u.lastUsedAt > t.lastUsedAt ? u.lastUsedAt : t.lastUsedAt };
            }),
            result: undefined,
          }));
        } catch {
          // The profile was deleted (its lock folder is gone): nothing to count any more.
        }
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  forget(profileID: string): void {
    this.loaded.delete(profileID);
    this.pending.delete(profileID);
  }

  close(): Promise<void> {
    return this.flush();
  }
}
