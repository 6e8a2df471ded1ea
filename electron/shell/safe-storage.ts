/** Secrets encrypted with the OS keychain (Keychain, DPAPI, libsecret) through Electron's safeStorage. */
import { safeStorage } from 'electron';
import type { SecretCipher } from '../core/secrets/cipher.js';

export function safeStorageCipher(): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  return {
    name: 'safeStorage',
    encrypt: (plain: string) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (b64: string) => safeStorage.decryptString(Buffer.from(b64, 'base64')),
  };
}
