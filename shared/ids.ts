/**
 * IDs. The app generates UUIDv7 (time-ordered, so lists come in creation order). IDs a client
 * chooses (the bundleID of a PUT) may be any RFC 9562 UUID — `uuidgen` and
 * `crypto.randomUUID()` give v4 — because what the layout needs is a name that is the same on
 * case-insensitive file systems, not a particular version. Lower-case on disk; input is
 * lower-cased.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): boolean {
  return typeof value === 'string' && UUID.test(value);
}

export function normalizeUuid(value: string): string {
  return value.toLowerCase();
}

export const UUID_PATTERN = UUID.source;
