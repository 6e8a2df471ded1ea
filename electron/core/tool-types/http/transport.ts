/**
 * One HTTP request/response over undici, with the connect-time address guard and a streamed
 * size cap.
 *
 * undici (the engine under Node's own fetch) rather than global fetch: its Agent takes a
 * `connect.lookup`, so the private-address check runs on the very socket being opened (no
 * DNS-rebinding gap between a check and the connect), `request()` never follows redirects on
 * its own (each hop is checked here), and it skips fetch's WHATWG stream layers, which keeps
 * the runner's overhead below a raw fetch. node:http could do the same with more code.
 */
import { formatBytes } from '../../../../shared/format.js';
import type { Agent, Dispatcher } from 'undici';
import { CoreError } from '../../errors.js';
import { guardedLookup, type Classify, type LookupAll } from './addresses.js';

export interface SendInput {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal;
  maxBytes: number;
  /** Permissive agents skip the connect-time address guard (config.allowPrivateNetwork). */
  allowPrivateNetwork: boolean;
  /** Given the answer's status and headers, where the body's bytes go as they arrive (streaming), or nowhere. */
  streamBody?: (status: number, headers: Record<string, string>) => BodySink | undefined;
}

export interface BodySink {
  write(bytes: Buffer): void;
  /** The body is complete. */
  end(): void;
}

export interface SendResult {
  status: number;
  headers: Record<string, string>;
  /** Raw body bytes (empty for HEAD and redirects). */
  body: Buffer;
}

// Loaded by the first request, not by every process that opens the core (most never send one).
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => (undici ??= import('undici'));

export class Transport {
  private guarded: Agent | undefined;
  private permissive: Agent | undefined;

  constructor(
    private readonly lookup: LookupAll,
    private readonly classify: Classify,
  ) {}

  private agent({ Agent }: typeof import('undici'), allowPrivateNetwork: boolean): Dispatcher {
    // Separate pools, so a connection opened while private addresses were allowed is never
    // reused after they are not.
    if (allowPrivateNetwork)
      return (this.permissive ??= new Agent({ keepAliveTimeout: 4000, connect: { lookup: guardedLookup(this.lookup, undefined) as never } }));
    return (this.guarded ??= new Agent({ keepAliveTimeout: 4000, connect: { lookup: guardedLookup(this.lookup, this.classify) as never } }));
  }

  async send(input: SendInput, readBody: (status: number) => boolean): Promise<SendResult> {
    const client = await loadUndici();
    const res = await client.request(input.url, {
      dispatcher: this.agent(client, input.allowPrivateNetwork),
      method: input.method as Dispatcher.HttpMethod,
      headers: input.headers,
      body: input.body,
      signal: input.signal,
    });
    const headers = flattenHeaders(res.headers);
    if (input.method === 'HEAD' || !readBody(res.statusCode)) {
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { status: res.statusCode, headers, body: Buffer.alloc(0) };
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > input.maxBytes) {
      res.body.destroy();
      throw tooLarge(input.url.hostname, input.maxBytes, declared);
    }
    const sink = input.streamBody?.(res.statusCode, headers);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > input.maxBytes) {
        res.body.destroy();
        throw tooLarge(input.url.hostname, input.maxBytes);
      }
      chunks.push(chunk as Buffer);
      sink?.write(chunk as Buffer);
    }
    sink?.end();
    return { status: res.statusCode, headers, body: Buffer.concat(chunks, size) };
  }

  async close(): Promise<void> {
    await Promise.all([this.guarded?.close(), this.permissive?.close()]);
  }
}

function tooLarge(host: string, cap: number, declared?: number): CoreError {
  const size = declared === undefined ? 'more than' : `${declared} bytes, over`;
  return new CoreError(
    'UPSTREAM_ERROR',
    `the response from ${host} is ${size} the ${formatBytes(cap)} cap; ask for less (e.g. a filter or page size in the URL)`,
    {
      host,
      reason: 'response-too-large',
      capBytes: cap,
    },
  );
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
