/** UUIDv7: version nibble 7, RFC 9562 variant. Lower-case on disk; comparisons are case-insensitive on input. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidV7(value: unknown): boolean {
  return typeof value === 'string' && UUID_V7.test(value);
}

export function normalizeUuid(value: string): string {
  return value.toLowerCase();
}

export const UUID_V7_PATTERN = UUID_V7.source;
