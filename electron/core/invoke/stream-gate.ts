/**
 * What a run streams passes here on its way to the caller, so the rules of the answer hold for
 * the stream too: chunks are redacted by the one redactor (text that may begin a secret waits
 * for the next chunk), their total stops at maxOutputBytes (cut at a UTF-8 boundary; after it
 * only a last chunk saying so, once the run ended, with the size the stream had), step events are redacted whole, and nothing passes once the run has ended. A
 * listener that throws never hurts the run: the stream just stops for it.
 */
import type { InvokeStreamEvent } from '../../../shared/types.js';
import type { SecretRedactor, StreamingRedaction } from '../secrets/redact.js';
import { streamTruncationNotice, utf8Bytes, utf8Prefix } from './truncate.js';

export class StreamGate {
  private readonly redaction: StreamingRedaction;
  private sentBytes = 0;
  /** Every byte of text the run streamed (after redaction), sent or not. */
  private streamedBytes = 0;
  private closed = false;
  /** Set once chunks reached maxOutputBytes: later ones are dropped. */
  capped = false;

  constructor(
    private readonly listener: (event: InvokeStreamEvent) => void,
    private readonly redactor: SecretRedactor,
    private readonly maxBytes: number,
    private readonly onListenerError: (error: unknown) => void = () => undefined,
  ) {
    this.redaction = redactor.streaming();
  }

  /** The runner's emit. */
  readonly emit = (event: InvokeStreamEvent): void => {
    if (this.closed) return;
    if (event.type === 'chunk') {
      if (typeof event.text !== 'string' || event.text === '') return;
      this.chunk(this.redaction.push(event.text));
    } else this.deliver(this.redactor.deep(event));
  };

  /** The run ended: held-back text goes out, then the gate shuts. */
  finish(): void {
    if (this.closed) return;
    this.chunk(this.redaction.end());
    if (this.capped) this.deliver({ type: 'chunk', text: streamTruncationNotice(this.streamedBytes, this.sentBytes) });
    this.closed = true;
  }

  /** Set when the stream was cut: the size it had and where it stopped (InvokeResult.streamTruncated). */
  truncation(): { originalBytes: number; sentBytes: number } | undefined {
    return this.capped ? { originalBytes: this.streamedBytes, sentBytes: this.sentBytes } : undefined;
  }

  private chunk(text: string): void {
    if (!text) return;
    let bytes = utf8Bytes(text);
    this.streamedBytes += bytes;
    if (this.capped) return;
    const room = this.maxBytes - this.sentBytes;
    if (bytes > room) {
      this.capped = true;
      text = utf8Prefix(text, room);
      if (!text) return;
      bytes = utf8Bytes(text);
    }
    this.sentBytes += bytes;
    this.deliver({ type: 'chunk', text });
  }

  private deliver(event: InvokeStreamEvent): void {
    try {
      this.listener(event);
    } catch (error) {
      this.closed = true;
      this.onListenerError(error);
    }
  }
}
