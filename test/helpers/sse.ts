/** Reads a streamed invoke (`…/invoke?stream=true`) as a client would: fetch, then server-sent events. */
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  event: string;
  data: any;
}

export interface SseAnswer {
  status: number;
  headers: Headers;
  /** The JSON body when the answer is not an event stream (a refusal). */
  body?: any;
  events: SseEvent[];
}

export async function postSse(
  url: string,
  token: string,
  body: unknown,
  opts: { signal?: AbortSignal; onEvent?: (e: SseEvent, all: SseEvent[]) => void } = {},
): Promise<SseAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const events: SseEvent[] = [];
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()), events };
  }
  const parser = createParser({
    onEvent: (e) => {
      const parsed = { event: e.event ?? 'message', data: JSON.parse(e.data) };
      events.push(parsed);
      opts.onEvent?.(parsed, events);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch (e) {
    if (!opts.signal?.aborted) throw e;
  }
  return { status: res.status, headers: res.headers, events };
}

export const chunkText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'chunk')
    .map((e) => e.data.text as string)
    .join('');
