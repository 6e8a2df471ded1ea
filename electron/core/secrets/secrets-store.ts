/**
 * App-scoped secrets (name → value), encrypted at rest in <data>/secrets.json.
 *
 * Each entry records the cipher that wrote it: "safeStorage" (the desktop app passes an
 * Electron safeStorage cipher) or "aes-256-gcm" (the default: a random 32-byte key in
 * <data>/secrets.key, mode 0600, a fresh 12-byte IV per value, stored as base64 of
 * IV ‖ ciphertext ‖ 16-byte tag). The AES key file, when present, can always decrypt
 * aes-256-gcm entries, so a data folder shared by the desktop app and the headless host
 * stays readable where it can be; an entry no cipher here can open is kept untouched on
 * disk, listed as unreadable and reported as a problem until it is set again.
 *
 * Decrypted values live only in memory. No message, problem or list entry carries a value.
 * Writes happen under the data folder's lock, re-read the file first (another process may
 * have written it) and replace it atomically.
 */
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { SECRET_NAME } from '../../../shared/template.js';
import { canonicalJson } from '../../../shared/canonical.js';
import type { Problem, SecretInfo } from '../../../shared/types.js';
import { CoreError, invalid } from '../errors.js';
import { fsyncDir, writeDurableTemp, writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import type { SecretsReader } from './types.js';
import { AES, KEY_BYTES, aesGcmCipher, type SecretCipher } from './cipher.js';
import { readJsonPath } from '../fs/json-text.js';
import type { ChangeRecorder } from '../audit/changes.js';

export { aesGcmCipher, type SecretCipher };

export interface SecretsStoreOptions {
  file: string;
  keyFile: string;
  cipher?: SecretCipher;
  /** The data folder's cross-process lock; default `<dir of file>/.lock`. */
  lockFile?: string;
  /** The audit log: told the digests of secrets.json before and after a write, never a value. */
  changes?: ChangeRecorder;
  /** A write of this process changed the secrets (another process's is heard by the store's watcher). */
  onChanged?: () => void;
}

export const MAX_SECRET_BYTES = 65536;
const SECRET_NAME_MAX = 128;

/** Shown instead of a value: the last 4 characters only for long values, so a key can be recognised. */
export function maskSecret(value: string): string {
  return value.length >= 20 ? `••••••••${value.slice(-4)}` : '••••••••';
}

interface StoredEntry {
  encryption: string;
  value: string;
  updatedAt: string;
}

function isStoredEntry(v: unknown): v is StoredEntry {
  const e = v as StoredEntry;
  return typeof v === 'object' && v !== null && typeof e.encryption === 'string' && typeof e.value === 'string' && typeof e.updatedAt === 'string';
}

type FileState = { kind: 'missing' } | { kind: 'ok'; entries: Map<string, unknown> } | { kind: 'bad'; reason: string };

const FILE_KEY_ORDER = ['schemaVersion', 'secrets'];

export class SecretsStore implements SecretsReader {
  private entries = new Map<string, unknown>();
  private plain = new Map<string, { value: string; updatedAt: string }>();
  private unreadable = new Map<string, string>();
  private fileProblem: string | undefined;
  private keyProblem: string | undefined;
  private aes: SecretCipher | undefined;
  private readonly lockFile: string;

  private constructor(private readonly opts: SecretsStoreOptions) {
    this.lockFile = opts.lockFile ?? join(dirname(opts.file), '.lock');
  }

  static async open(opts: SecretsStoreOptions): Promise<SecretsStore> {
    const store = new SecretsStore(opts);
    await store.reload();
    return store;
  }

  /** What new values are encrypted with. */
  get encryption(): 'safeStorage' | 'aes-256-gcm' {
    return this.opts.cipher ? 'safeStorage' : AES;
  }

  get(name: string): string | undefined {
    return this.plain.get(name)?.value;
  }

  has(name: string): boolean {
    return this.plain.has(name);
  }

  values(): string[] {
    return [...this.plain.values()].map((e) => e.value);
  }

  list(): SecretInfo[] {
    const names = [...new Set([...this.plain.keys(), ...this.unreadable.keys()])].sort();
    return names.map((name) => {
      const p = this.plain.get(name);
      if (p) return { name, masked: maskSecret(p.value), updatedAt: p.updatedAt };
      const e = this.entries.get(name);
      const info: SecretInfo = { name, masked: '(cannot be decrypted here; set it again)' };
      if (isStoredEntry(e)) info.updatedAt = e.updatedAt;
      return info;
    });
  }

  problems(): Problem[] {
    const detectedAt = new Date().toISOString();
    const out: Problem[] = [];
    if (this.fileProblem) out.push({ path: this.opts.file, kind: 'secrets', reason: this.fileProblem, detectedAt });
    if (this.keyProblem) out.push({ path: this.opts.keyFile, kind: 'secrets', reason: this.keyProblem, detectedAt });
    for (const [name, reason] of this.unreadable) out.push({ path: this.opts.file, kind: 'secrets', reason: `secret ${name} ${reason}`, detectedAt });
    return out;
  }

  async set(name: string, value: string): Promise<SecretInfo> {
    checkName(name);
    if (typeof value !== 'string' || value.length === 0) throw invalid([{ field: 'value', message: 'must be a non-empty string' }]);
    if (Buffer.byteLength(value, 'utf8') > MAX_SECRET_BYTES) throw invalid([{ field: 'value', message: `must be at most ${MAX_SECRET_BYTES} bytes` }]);
    const updatedAt = new Date().toISOString();
    await this.mutate(async () => {
      const cipher = this.opts.cipher ?? (await this.aesForWriting());
      this.entries.set(name, { encryption: cipher.name ?? 'safeStorage', value: cipher.encrypt(value), updatedAt } satisfies StoredEntry);
      return true;
    });
    return { name, masked: maskSecret(value), updatedAt };
  }

  async delete(name: string): Promise<boolean> {
    checkName(name);
    let existed = false;
    await this.mutate(async () => {
      existed = this.entries.delete(name);
      return existed;
    });
    return existed;
  }

  /** Deletes a secret that is set; NOT_FOUND when it is not. */
  async remove(name: string): Promise<{ deleted: true }> {
    if (!(await this.delete(name))) throw new CoreError('NOT_FOUND', `secret ${name} is not set`);
    return { deleted: true };
  }

  /** Re-reads secrets.json (and the key file) from disk, e.g. after another process wrote them. */
  async reload(): Promise<void> {
    this.aes ??= await this.readKey();
    this.apply(await this.readFile());
  }

  private async mutate(change: () => Promise<boolean>): Promise<void> {
    let changed = false;
    await fsp.mkdir(dirname(this.opts.file), { recursive: true });
    await withLock(this.lockFile, async () => {
      this.aes ??= await this.readKey();
      const state = await this.readFile();
      if (state.kind === 'bad') {
        // Keep the unreadable file for a person to inspect; start a fresh one.
        const aside = `${this.opts.file}.broken-${Date.now()}`;
        await fsp.rename(this.opts.file, aside);
        this.apply({ kind: 'missing' });
        this.fileProblem = `${basename(this.opts.file)} ${state.reason}; it was moved to ${basename(aside)} and a new one started`;
      } else {
        this.apply(state);
      }
      if (!(await change())) return;
      const secrets: Record<string, unknown> = {};
      for (const key of [...this.entries.keys()].sort()) secrets[key] = this.entries.get(key);
      const text = canonicalJson({ schemaVersion: '1', secrets }, FILE_KEY_ORDER);
      const before = await this.opts.changes?.before(this.opts.file);
      await writeFileAtomic(this.opts.file, text, { mode: 0o600 });
      this.opts.changes?.changed(this.opts.file, before, text);
      this.apply({ kind: 'ok', entries: this.entries });
      changed = true;
    });
    // Tools that name a secret become available (or not) with it: the app and agents' lists follow.
    if (changed) this.opts.onChanged?.();
  }

  private async readFile(): Promise<FileState> {
    const read = await readJsonPath(this.opts.file);
    if (read.kind !== 'ok') return read;
    const json = read.value;
    const secrets = (json as { secrets?: unknown } | null)?.secrets;
    if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
      return { kind: 'bad', reason: 'has no "secrets" object' };
    }
    return { kind: 'ok', entries: new Map(Object.entries(secrets)) };
  }

  private apply(state: FileState): void {
    this.plain = new Map();
    this.unreadable = new Map();
    this.fileProblem = undefined;
    if (state.kind === 'bad') {
      this.entries = new Map();
      this.fileProblem = `${basename(this.opts.file)} ${state.reason}; no secrets are available. Fix it or delete it (setting a secret moves it aside)`;
      return;
    }
    this.entries = state.kind === 'ok' ? state.entries : new Map();
    for (const [name, entry] of this.entries) {
      if (!SECRET_NAME.test(name)) {
        this.unreadable.set(name, 'has an invalid name (secret names are UPPER_SNAKE_CASE)');
        continue;
      }
      if (!isStoredEntry(entry)) {
        this.unreadable.set(name, 'is not a {encryption, value, updatedAt} entry');
        continue;
      }
      const cipher = this.cipherFor(entry.encryption);
      if (!cipher) {
        this.unreadable.set(name, `was encrypted with ${entry.encryption}, which is not available in this process (set it again here)`);
        continue;
      }
      try {
        this.plain.set(name, { value: cipher.decrypt(entry.value), updatedAt: entry.updatedAt });
      } catch {
        this.unreadable.set(name, `cannot be decrypted with ${entry.encryption} (the key changed or the entry is damaged); set it again`);
      }
    }
  }

  private cipherFor(encryption: string): SecretCipher | undefined {
    if (this.opts.cipher && encryption === (this.opts.cipher.name ?? 'safeStorage')) return this.opts.cipher;
    if (encryption === AES) return this.aes;
    return undefined;
  }

  private async readKey(): Promise<SecretCipher | undefined> {
    let key: Buffer;
    try {
      key = await fsp.readFile(this.opts.keyFile);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.keyProblem = code === 'ENOENT' ? undefined : `${basename(this.opts.keyFile)} cannot be read (${code ?? 'error'})`;
      return undefined;
    }
    if (key.length !== KEY_BYTES) {
      this.keyProblem = `${basename(this.opts.keyFile)} is not a ${KEY_BYTES}-byte key (it has ${key.length} bytes); restore it from a backup, or delete it and set the secrets again`;
      return undefined;
    }
    this.keyProblem = undefined;
    if (process.platform !== 'win32') {
      const st = await fsp.stat(this.opts.keyFile);
      if ((st.mode & 0o077) !== 0) await fsp.chmod(this.opts.keyFile, 0o600);
    }
    return aesGcmCipher(key);
  }

  /** The AES cipher, creating the key file on first use (exclusively: another process may race). */
  private async aesForWriting(): Promise<SecretCipher> {
    if (this.aes) return this.aes;
    if (this.keyProblem) throw new CoreError('INTERNAL', this.keyProblem);
    const tmp = await writeDurableTemp(this.opts.keyFile, randomBytes(KEY_BYTES), 0o600);
    try {
      await fsp.link(tmp, this.opts.keyFile);
      await fsyncDir(dirname(this.opts.keyFile));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      await fsp.rm(tmp, { force: true });
    }
    this.aes = await this.readKey();
    if (!this.aes) throw new CoreError('INTERNAL', `could not create ${this.opts.keyFile}`);
    return this.aes;
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !SECRET_NAME.test(name) || name.length > SECRET_NAME_MAX) {
    throw invalid([
      { field: 'name', message: `must be UPPER_SNAKE_CASE (a capital letter, then capitals, digits or _), at most ${SECRET_NAME_MAX} characters` },
    ]);
  }
}
