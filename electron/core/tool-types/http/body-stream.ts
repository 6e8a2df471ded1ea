/**
 * An http tool's response body as it arrives, for a caller that streams: text decoded as UTF-8
 * without splitting a character between two chunks, or, from a `text/event-stream` upstream,
 * one chunk per event (its data and a line break; comments and keep-alives dropped).
 * eventsource-parser (the SSE parser the MCP SDK and the AI SDKs use) reads the events.
 */
import { createParser } from 'eventsource-parser';
import type { BodySink } from './transport.js';

const EVENT_STREAM = /^text\/event-stream\b/i;

export function bodyStream(headers: Record<string, string>, emit: (text: string) => void): BodySink {
  const decoder = new TextDecoder('utf-8');
  if (EVENT_STREAM.test(headers['content-type'] ?? '')) {
    const parser = createParser({ onEvent: (event) => emit(`${event.data}\n`) });
    return { write: (bytes) => parser.feed(decoder.decode(bytes, { stream: true })), end: () => undefined };
  }
  return {
    write(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      if (text) emit(text);
    },
    end() {
      const rest = decoder.decode();
      if (rest) emit(rest);
    },
  };
}
