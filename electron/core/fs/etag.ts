/**
 * The entity tag of a file in the data folder: a hash of its bytes as they are on disk, so a
 * hand edit or a `git pull` changes it even when the file's `modifiedAt` stays the same.
 */
import { createHash } from 'node:crypto';

/** SHA-256 of the bytes, base64url (43 characters): strong, and never mistaken for a timestamp. */
export function etagOf(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}
