/** SecretsStore on a real temp data folder, and redaction of secret values (electron/core/secrets/redact.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maskSecret, SecretsStore, type SecretCipher } from '../../../../electron/core/secrets/secrets-store.js';
import { SecretRedactor } from '../../../../electron/core/secrets/redact.js';

/** The one redactor, used the way the http runner uses it: built for the values at hand. */
const redactSecrets = (value: unknown, secrets: string[]): unknown => SecretRedactor.of(secrets).deep(value);
import { CoreError } from '../../../../electron/core/errors.js';

let dir: string;
const paths = () => ({ file: join(dir, 'secrets.json'), keyFile: join(dir, 'secrets.key') });
const open = (cipher?: SecretCipher) => SecretsStore.open({ ...paths(), ...(cipher ? { cipher } : {}) });

/** Stand-in for Electron safeStorage: a different, recognisable encryption. */
const fakeSafeStorage: SecretCipher = {
  encrypt: (plain) => Buffer.from(`safe:${plain}`).toString('base64'),
  decrypt: (b64) => {
    const text = Buffer.from(b64, 'base64').toString();
    if (!text.startsWith('safe:')) throw new Error('not ours');
    return text.slice(5);
  },
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectInvalid(p: Promise<unknown>, field: string): Promise<CoreError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CoreError);
  expect((err as CoreError).code).toBe('INVALID_INPUT');
  expect((err as CoreError).details?.issues?.[0]?.field).toBe(field);
  return err as CoreError;
}

describe('SecretsStore', () => {
  it('starts empty without creating files', async () => {
    const store = await open();
    expect(store.list()).toEqual([]);
    expect(store.get('X')).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('encrypts at rest with AES-256-GCM, a 0600 key file and a fresh IV per value', async () => {
    const store = await open();
    const value = 'super-secret-value-123';
    await store.set('API_KEY', value);
    await store.set('SAME_VALUE', value);
    await store.set('API_KEY', value);

    const raw = await readFile(paths().file, 'utf8');
    expect(raw).not.toContain(value);
    expect(raw).not.toContain(Buffer.from(value).toString('base64'));
    const file = JSON.parse(raw) as { schemaVersion: string; secrets: Record<string, { encryption: string; value: string }> };
    expect(file.schemaVersion).toBe('1');
    expect(file.secrets['API_KEY']!.encryption).toBe('aes-256-gcm');
    expect(file.secrets['API_KEY']!.value).not.toBe(file.secrets['SAME_VALUE']!.value);
    // IV (12) + tag (16) + ciphertext
    expect(Buffer.from(file.secrets['API_KEY']!.value, 'base64')).toHaveLength(12 + 16 + Buffer.byteLength(value));

    const key = await stat(paths().keyFile);
    expect(key.size).toBe(32);
    if (process.platform !== 'win32') {
      expect(key.mode & 0o777).toBe(0o600);
      expect((await stat(paths().file)).mode & 0o777).toBe(0o600);
    }
    expect(store.get('API_KEY')).toBe(value);
    expect((await readdir(dir)).sort()).toEqual(['secrets.json', 'secrets.key']); // no temp files or locks left
  });

  it('persists: a new store on the same folder reads the values back', async () => {
    await (await open()).set('TOKEN', 'abc-123');
    const again = await open();
    expect(again.get('TOKEN')).toBe('abc-123');
    expect(again.has('TOKEN')).toBe(true);
    expect(again.values()).toEqual(['abc-123']);
  });

  it('lists names with masked values, never a value', async () => {
    const store = await open();
    const long = 'sk-live-0123456789abcdefWXYZ';
    const info = await store.set('LONG_KEY', long);
    await store.set('SHORT', 'hunter2');
    expect(info).toMatchObject({ name: 'LONG_KEY', masked: '••••••••WXYZ' });
    const list = store.list();
    expect(list.map((i) => i.name)).toEqual(['LONG_KEY', 'SHORT']);
    expect(list[1]!.masked).toBe('••••••••');
    expect(JSON.stringify(list)).not.toContain('hunter2');
    expect(JSON.stringify(list)).not.toContain(long);
    expect(list[0]!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(maskSecret('abc')).not.toContain('abc');
  });

  it('deletes', async () => {
    const store = await open();
    await store.set('A_KEY', 'v1');
    expect(await store.delete('A_KEY')).toBe(true);
    expect(await store.delete('A_KEY')).toBe(false);
    expect(store.get('A_KEY')).toBeUndefined();
    expect((await open()).list()).toEqual([]);
  });

  it('validates names and values without echoing the value', async () => {
    const store = await open();
    await expectInvalid(store.set('lower_case', 'v'), 'name');
    await expectInvalid(store.set('1ABC', 'v'), 'name');
    await expectInvalid(store.set(`A${'B'.repeat(200)}`, 'v'), 'name');
    await expectInvalid(store.delete('bad-name'), 'name');
    await expectInvalid(store.set('EMPTY', ''), 'value');
    const tooBig = 'q'.repeat(65537);
    const err = await expectInvalid(store.set('BIG', tooBig), 'value');
    expect(err.message).not.toContain('qqqq');
  });

  it('keeps entries it cannot decrypt, lists and reports them, and still serves the rest', async () => {
    const store = await open();
    await store.set('GOOD', 'good-value');
    await store.set('DAMAGED', 'damaged-value');
    const file = JSON.parse(await readFile(paths().file, 'utf8')) as { secrets: Record<string, { value: string }> };
    const bytes = Buffer.from(file.secrets['DAMAGED']!.value, 'base64');
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff; // break the GCM tag
    file.secrets['DAMAGED']!.value = bytes.toString('base64');
    await writeFile(paths().file, JSON.stringify(file));

    await store.reload();
    expect(store.get('GOOD')).toBe('good-value');
    expect(store.has('DAMAGED')).toBe(false);
    expect(store.list().find((i) => i.name === 'DAMAGED')!.masked).toContain('cannot be decrypted');
    const problems = store.problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'secrets', path: paths().file });
    expect(problems[0]!.reason).toContain('DAMAGED');

    await store.set('OTHER', 'x');
    const after = JSON.parse(await readFile(paths().file, 'utf8')) as { secrets: Record<string, { value: string }> };
    expect(after.secrets['DAMAGED']!.value).toBe(file.secrets['DAMAGED']!.value); // untouched, recoverable with the right key
    await store.set('DAMAGED', 'fresh');
    expect(store.get('DAMAGED')).toBe('fresh');
    expect(store.problems()).toEqual([]);
  });

  it('a lost key file makes values unreadable, not the app broken', async () => {
    await (await open()).set('API_KEY', 'v');
    await rm(paths().keyFile);
    const store = await open();
    expect(store.has('API_KEY')).toBe(false);
    expect(store.problems()[0]!.reason).toContain('API_KEY');
  });

  it('a key file of the wrong size is reported, and writing explains it', async () => {
    await writeFile(paths().keyFile, 'short');
    const store = await open();
    expect(store.problems()[0]!.reason).toContain('32-byte');
    await expect(store.set('A', 'v')).rejects.toThrow(/32-byte key/);
  });

  it('tightens a key file that others can read', async () => {
    if (process.platform === 'win32') return;
    await (await open()).set('A', 'v');
    await chmod(paths().keyFile, 0o644);
    await open();
    expect((await stat(paths().keyFile)).mode & 0o777).toBe(0o600);
  });

  it('a broken secrets.json is reported; setting a secret moves it aside and starts afresh', async () => {
    await writeFile(paths().file, '{ not json');
    const store = await open();
    expect(store.list()).toEqual([]);
    expect(store.problems()[0]!.reason).toContain('not valid JSON');
    await store.set('NEW', 'n');
    const names = await readdir(dir);
    expect(names.some((n) => n.startsWith('secrets.json.broken-'))).toBe(true);
    expect(store.get('NEW')).toBe('n');
    expect(
      await readFile(
        join(
          dir,
          names.find((n) => n.startsWith('secrets.json.broken-'))!,
        ),
        'utf8',
      ),
    ).toBe('{ not json');
  });

  it('uses a supplied cipher (safeStorage) and records it per entry; AES entries stay readable beside it', async () => {
    const aes = await open();
    await aes.set('FROM_HEADLESS', 'h-value');
    const desktop = await open(fakeSafeStorage);
    expect(desktop.encryption).toBe('safeStorage');
    await desktop.set('FROM_DESKTOP', 'd-value');
    expect(desktop.get('FROM_HEADLESS')).toBe('h-value');
    const file = JSON.parse(await readFile(paths().file, 'utf8')) as { secrets: Record<string, { encryption: string }> };
    expect(file.secrets['FROM_DESKTOP']!.encryption).toBe('safeStorage');

    // A process without safeStorage cannot read that entry and says why.
    const headless = await open();
    expect(headless.get('FROM_HEADLESS')).toBe('h-value');
    expect(headless.has('FROM_DESKTOP')).toBe(false);
    expect(headless.problems()[0]!.reason).toContain('safeStorage');
  });

  it('two stores writing the same folder do not lose each other’s writes', async () => {
    const a = await open();
    const b = await open();
    await Promise.all([...Array.from({ length: 10 }, (_, i) => a.set(`A_${i}`, `a${i}`)), ...Array.from({ length: 10 }, (_, i) => b.set(`B_${i}`, `b${i}`))]);
    const c = await open();
    expect(c.list()).toHaveLength(20);
    expect(c.get('A_9')).toBe('a9');
    expect(c.get('B_0')).toBe('b0');
    await b.reload();
    expect(b.get('A_3')).toBe('a3');
  });
});

describe('redaction of secret values', () => {
  it('replaces secret values inside strings at any depth, keys included, without touching the input', () => {
    const input = {
      msg: 'token=abc123 and again abc123',
      nested: [{ deep: 'xabc123y' }, 42, null, true],
      abc123: 'key',
      when: new Date(0),
    };
    const copy = structuredClone(input);
    const out = redactSecrets(input, ['abc123']) as typeof input;
    expect(out.msg).toBe('token=[redacted] and again [redacted]');
    expect(out.nested).toEqual([{ deep: 'x[redacted]y' }, 42, null, true]);
    expect(Object.keys(out)).toContain('[redacted]');
    expect(out.when).toBe(input.when);
    expect(input).toEqual(copy);
  });

  it('redacts the longer of overlapping secrets whole, and special characters literally', () => {
    expect(redactSecrets('pass and password1', ['pass', 'password1'])).toBe('[redacted] and [redacted]');
    expect(redactSecrets('a.b*c a-b-c', ['a.b*c'])).toBe('[redacted] a-b-c');
  });

  // One behaviour for both former redactors: what leaves is JSON, so an Error becomes its
  // redacted message and a cycle becomes "[circular]" (JSON.stringify would throw on it).
  it('handles errors, cycles and empty lists', () => {
    const err = new Error('failed with s3cr3t');
    expect(redactSecrets(err, ['s3cr3t'])).toBe('failed with [redacted]');
    expect(redactSecrets({ error: err }, ['s3cr3t'])).toEqual({ error: 'failed with [redacted]' });

    const cyclic: Record<string, unknown> = { a: 's3cr3t' };
    cyclic['self'] = cyclic;
    const out = redactSecrets(cyclic, ['s3cr3t']) as Record<string, unknown>;
    expect(out['a']).toBe('[redacted]');
    expect(out['self']).toBe('[circular]');
    expect(() => JSON.stringify(out)).not.toThrow();

    const same = { a: 'x' };
    expect(redactSecrets(same, [])).toBe(same);
    expect(redactSecrets('keep', [''])).toBe('keep');
  });
});
