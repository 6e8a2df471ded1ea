/**
 * What a tool container says: stdout and stderr, each kept up to a cap; stdout line by line as
 * it comes (streamed to a caller that listens); and the contract that the answer is the last
 * stdout line that is a JSON object `{text?, html?, title?, error?}` (or all of stdout, when it
 * is one JSON object spread over several lines).
 */
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import type { ErrorCode } from '../../../../shared/errors.js';
import { CoreError } from '../../errors.js';
import type { RunOutput } from '../../invoke/types.js';
import { isPlainObject } from '../../../../shared/plain-object.js';

export const OUTPUT_CAP_BYTES = 100 * 1024;
const STDERR_TAIL_CHARS = 2000;
const SNIPPET_CHARS = 200;
const TOOL_MESSAGE_CHARS = 4000;

export type FailureKind = 'tool-error' | 'exit-code' | 'bad-output' | 'output-cap' | 'out-of-memory';

/**
 * Codes of failures inside the tool: output that breaks the contract is INVALID_OUTPUT (the
 * tool needs fixing); everything else (its own error, a bad exit, out of memory, a flood) is
 * UPSTREAM_ERROR, the code of a failed implementation behind a tool. details.kind says which.
 */
export const FAILURE_CODES = {
  'bad-output': 'INVALID_OUTPUT',
  'tool-error': 'UPSTREAM_ERROR',
  'exit-code': 'UPSTREAM_ERROR',
  'out-of-memory': 'UPSTREAM_ERROR',
  'output-cap': 'UPSTREAM_ERROR',
} as const satisfies Record<FailureKind, ErrorCode>;

export function toolFailure(kind: FailureKind, message: string, details: Record<string, unknown> = {}): CoreError {
  return new CoreError(FAILURE_CODES[kind], message, { kind, ...details });
}

/**
 * Keeps the first `cap` bytes written to it; calls onOverflow once when more arrives. What it
 * keeps also goes to onData as it comes (the stream of a run).
 */
export class CappedSink extends Writable {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;
  overflowed = false;

  constructor(
    private readonly cap: number,
    private readonly onOverflow: () => void,
    private readonly onData?: (piece: Buffer) => void,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.seen += chunk.length;
    if (this.kept < this.cap) {
      const piece = chunk.subarray(0, this.cap - this.kept);
      this.chunks.push(piece);
      this.kept += piece.length;
      this.onData?.(piece);
    }
    if (this.seen > this.cap && !this.overflowed) {
      this.overflowed = true;
      this.onOverflow();
    }
    done();
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

/** A line longer than this goes out in pieces rather than waiting for its end. */
export const MAX_LINE_CHARS = 16 * 1024;

/**
 * Bytes in, whole lines out (each with its line break), decoded as UTF-8 without splitting a
 * character across two lines; what is left at the end comes out by end().
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(private readonly onLine: (text: string) => void) {}

  write(bytes: Buffer): void {
    this.pending += this.decoder.write(bytes);
    let nl = this.pending.indexOf('\n');
    while (nl >= 0) {
      this.onLine(this.pending.slice(0, nl + 1));
      this.pending = this.pending.slice(nl + 1);
      nl = this.pending.indexOf('\n');
    }
    if (this.pending.length > MAX_LINE_CHARS) {
      this.onLine(this.pending);
      this.pending = '';
    }
  }

  end(): void {
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    if (rest) this.onLine(rest);
  }
}

/** Text safe to put in a message: no terminal escapes or control characters. */
export function printable(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

export function stderrTail(stderr: Buffer): string {
  const text = printable(stderr.subarray(Math.max(0, stderr.length - STDERR_TAIL_CHARS * 4)).toString('utf8')).trim();
  return text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text;
}

function snippet(text: string): string {
  const clean = printable(text).trim();
  return clean.length > SNIPPET_CHARS ? `${clean.slice(0, SNIPPET_CHARS)}…` : clean;
}

const CONTRACT =
  'A container tool prints its answer as one JSON object {"text"?, "html"?, "title"?, "error"?} on the last line of stdout; lines before it are progress.';

export interface ToolReply {
  text?: string;
  html?: string;
  title?: string;
  error?: unknown;
  [key: string]: unknown;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** The last line of text that is a JSON object. */
function lastObjectLine(text: string): Record<string, unknown> | undefined {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line.startsWith('{') && line.endsWith('}')) {
      const parsed = parseJson(line);
      if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
    }
    end = start - 1;
  }
  return undefined;
}

/**
 * Parses stdout by the contract: all of it when it is one JSON object (pretty-printed replies
 * keep working), else its last line that is a JSON object. Throws a CoreError that says what
 * was wrong.
 */
export function parseReply(stdout: Buffer): ToolReply {
  const text = stdout.toString('utf8').trim();
  if (!text) throw toolFailure('bad-output', `The container printed nothing on stdout. ${CONTRACT}`);
  const whole = parseJson(text);
  const reply = whole.ok && isPlainObject(whole.value) ? whole.value : lastObjectLine(text);
  if (!reply) {
    if (whole.ok) {
      const value = whole.value;
      throw toolFailure(
        'bad-output',
        `The container printed ${Array.isArray(value) ? 'an array' : `a ${value === null ? 'null' : typeof value}`}, not an object. ${CONTRACT}`,
      );
    }
    const extra = /after JSON at position (\d+)/.exec(whole.message);
    if (extra && text.startsWith('{')) {
      throw toolFailure(
        'bad-output',
        `The container printed more than one JSON value (extra output from byte ${extra[1]}: ${snippet(text.slice(Number(extra[1])))}). ${CONTRACT}`,
      );
    }
    // V8 quotes the input in its message: clean and clip it like any other container output.
    throw toolFailure(
      'bad-output',
      `The container's stdout is not JSON, nor has it a line that is a JSON object (${snippet(whole.message)}); it starts with: ${snippet(text)}. ${CONTRACT}`,
    );
  }
  for (const field of ['text', 'html', 'title'] as const) {
    if (reply[field] !== undefined && reply[field] !== null && typeof reply[field] !== 'string') {
      throw toolFailure('bad-output', `The container's "${field}" is ${typeof reply[field]}, it must be a string. ${CONTRACT}`);
    }
  }
  return reply as ToolReply;
}

/**
 * The tool's own error when a container that exited non-zero printed a reply with `error` on
 * stdout; undefined when it printed none.
 */
export function toolErrorOnStdout(stdout: Buffer, exitCode: number, stderrTail: string): CoreError | undefined {
  let reply: ToolReply;
  try {
    reply = parseReply(stdout);
  } catch {
    return undefined;
  }
  try {
    replyToOutput(reply);
    return undefined;
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    // What the tool printed beside its error (a script's stdout, wrapped by script-image.ts) stays in the answer.
    const text = typeof reply.text === 'string' && reply.text !== '' ? reply.text : undefined;
    const stdout = text && text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
    return toolFailure('tool-error', error.message, { exitCode, ...(stdout ? { stdout } : {}), ...(stderrTail ? { stderrTail } : {}) });
  }
}

/** A reply turned into the runner's output, or the tool's own error. */
export function replyToOutput(reply: ToolReply): RunOutput {
  const error = reply.error;
  if (error !== undefined && error !== null && error !== false && error !== '') {
    const message = typeof error === 'string' ? error : JSON.stringify(error);
    const clipped = message.length > TOOL_MESSAGE_CHARS ? `${message.slice(0, TOOL_MESSAGE_CHARS)}…` : message;
    throw toolFailure('tool-error', clipped || 'The tool reported an error without a message.');
  }
  const card: NonNullable<RunOutput['card']> = {};
  if (typeof reply.title === 'string') card.title = reply.title;
  if (typeof reply.html === 'string') card.html = reply.html;
  if (typeof reply.text === 'string') card.text = reply.text;
  return { value: reply, card };
}
