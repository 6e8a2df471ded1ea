/**
 * Byte caps on what a tool hands back. Sizes are UTF-8 bytes (what travels over IPC/REST and
 * into a model's context), and a cut never splits a UTF-8 sequence or a surrogate pair. The
 * capped text ends with a suffix that states the original size, and the whole, suffix included,
 * stays within the cap.
 */

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function truncationSuffix(originalBytes: number): string {
  return `… [truncated: original ${originalBytes} bytes]`;
}

/** The last chunk of a stream cut at maxOutputBytes: the value's wording, and where the stream stopped. */
export function streamTruncationNotice(originalBytes: number, sentBytes: number): string {
  return `… [truncated: original ${originalBytes} bytes; the stream stopped after ${sentBytes}]`;
}

/** The longest prefix of text whose UTF-8 encoding fits in maxBytes. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  // Every UTF-16 unit encodes to at least one byte, so the first maxBytes units hold enough.
  let head = text.length > maxBytes ? text.slice(0, maxBytes) : text;
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1); // half of a surrogate pair
  const bytes = Buffer.from(head, 'utf8');
  if (bytes.length <= maxBytes) return head;
  let cut = maxBytes;
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--; // back to the start of a sequence
  return bytes.subarray(0, cut).toString('utf8');
}

export interface Capped<T> {
  value: T;
  /** Set when the value was cut: its size before the cut. */
  originalBytes?: number;
}

/** Caps a text at maxBytes, suffix included. */
export function capText(text: string, maxBytes: number): Capped<string> {
  const originalBytes = utf8Bytes(text);
  if (originalBytes <= maxBytes) return { value: text };
  const suffix = truncationSuffix(originalBytes);
  return { value: utf8Prefix(text, maxBytes - utf8Bytes(suffix)) + suffix, originalBytes };
}

/**
 * Caps a JSON value measured as the UTF-8 bytes of its JSON text. Over the cap it becomes a
 * string: the start of the string itself when the value was a string, else the start of its
 * JSON text. `json` may pass the already serialised text to save a second stringify.
 */
export function capJsonValue(value: unknown, maxBytes: number, json?: string): Capped<unknown> {
  const text = json ?? JSON.stringify(value) ?? 'null';
  const originalBytes = utf8Bytes(text);
  if (originalBytes <= maxBytes) return { value };
  const source = typeof value === 'string' ? value : text;
  const suffix = truncationSuffix(originalBytes);
  return { value: utf8Prefix(source, maxBytes - utf8Bytes(suffix)) + suffix, originalBytes };
}
