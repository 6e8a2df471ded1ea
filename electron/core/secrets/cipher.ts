/**
 * How secret values are encrypted at rest: Electron's safeStorage in the desktop app (passed in
 * as a SecretCipher), or AES-256-GCM with a random 32-byte key file elsewhere: a fresh 12-byte IV
 * per value, stored as base64 of IV ‖ ciphertext ‖ 16-byte tag.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretCipher {
  /** Recorded with every entry it writes; default "safeStorage" for a cipher passed in. */
  readonly name?: string;
  encrypt(plain: string): string;
  decrypt(b64: string): string;
}

export const AES = 'aes-256-gcm';
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function aesGcmCipher(key: Buffer): SecretCipher {
  if (key.length !== KEY_BYTES) throw new Error(`an AES-256 key has ${KEY_BYTES} bytes, got ${key.length}`);
  return {
    name: AES,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const c = createCipheriv(AES, key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, body, c.getAuthTag()]).toString('base64');
    },
    decrypt(b64) {
      const raw = Buffer.from(b64, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('ciphertext too short');
      const d = createDecipheriv(AES, key, raw.subarray(0, IV_BYTES));
      d.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([d.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), d.final()]).toString('utf8');
    },
  };
}
