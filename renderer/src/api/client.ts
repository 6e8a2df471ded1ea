/**
 * The renderer's one way to reach the core: `call(name, input)` over the operations contract.
 * Desktop: the preload's named functions (`window.toolwright.bundlesList(...)`), which answer
 * envelopes. Browser mode (`npm run serve`): REST on the same origin, with the bearer token the
 * host printed in the page URL's fragment. Only modules of renderer/src/api/ import this one (a
 * lint zone): the rest of the renderer calls the named operations of api/operations.ts and the
 * hooks of api/queries.ts and mutations.ts.
 */
import type { OpInput, OpName, OpOutput, StoreEvent } from '../../../shared/operations.js';
import { buildRestRequest, EVENTS_PATH, REST_ROUTES, RESULT_EVENT, STREAM_QUERY } from '../../../shared/rest.js';
import { createParser } from 'eventsource-parser';
import type { InvokeResult, InvokeStreamEvent } from '../../../shared/types.js';
// op-names.ts, not operations.ts: the latter's TypeBox schemas are main's business (~50 KB).
import { opFunctionName } from '../../../shared/op-names.js';
import { isApiError, type ApiError, type Envelope } from '../../../shared/errors.js';
import { ApiCallError, errorMessage } from './errors.js';
import { token, transportKind } from './session.js';
import { takeFirstRequest } from './first-requests.js';

type PreloadFn = (input: unknown) => Promise<Envelope<unknown>>;
type PreloadStreamFn = (input: unknown, onEvent: (e: InvokeStreamEvent) => void) => Promise<Envelope<unknown>>;
export interface PreloadApi {
  onEvent(cb: (e: StoreEvent) => void): () => void;
  /** tools.invoke with its events sent back while it runs (electron/preload.ts). */
  toolsInvokeStream?: PreloadStreamFn;
  [fn: string]: PreloadFn | PreloadStreamFn | ((cb: (e: StoreEvent) => void) => () => void) | undefined;
}

declare global {
  interface Window {
    toolwright?: PreloadApi;
  }
}

async function callIpc<N extends OpName>(name: N, input: OpInput<N>): Promise<OpOutput<N>> {
  const fn = window.toolwright![opFunctionName(name)] as PreloadFn | undefined;
  if (typeof fn !== 'function') {
    throw new ApiCallError({ code: 'INTERNAL', message: `the desktop bridge has no function for ${name}; update the app` });
  }
  const envelope = await fn(input);
  if (envelope.ok) return envelope.data as OpOutput<N>;
  throw new ApiCallError(envelope.error);
}

async function readError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (isApiError(body.error)) return body.error;
  } catch {
    // not JSON: fall through
  }
  if (res.status === 401) {
    return { code: 'UNAUTHORIZED', message: 'The host refused the token. Open the address that `npm run serve` printed (it carries #token=…).' };
  }
  return { code: 'INTERNAL', message: `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` };
}

function fileNameFrom(res: Response, fallback: string): string {
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? plain[1]! : fallback;
}

function authHeaders(): Record<string, string> {
  const t = token();
  return t ? { Authorization: `Bearer ${t}` } : {};
}

async function callRest<N extends OpName>(name: N, input: OpInput<N>, signal?: AbortSignal): Promise<OpOutput<N>> {
  const route = REST_ROUTES[name];
  const inputForUrl = name === 'bundles.import' ? { ...(input as Record<string, unknown>), zip: undefined } : input;
  const req = buildRestRequest(name, inputForUrl as OpInput<N>);
  const headers: Record<string, string> = { ...req.headers, ...authHeaders() };
  let body: BodyInit | undefined;
  if (name === 'bundles.import') {
    headers['Content-Type'] = 'application/zip';
    body = (input as OpInput<'bundles.import'>).zip as Uint8Array<ArrayBuffer>;
  } else if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  let res: Response;
  try {
    // The first screen's GETs may already be on their way (public/first-requests.js).
    const early = req.method === 'GET' && !signal ? takeFirstRequest(req.url, token()) : undefined;
    res = await (early ?? fetch(req.url, { method: req.method, headers, body, signal }));
  } catch (e) {
    if (signal?.aborted) throw e; // given up by the caller: not a host that cannot be reached
    throw new ApiCallError({ code: 'INTERNAL', message: `Cannot reach the Toolwright host: ${errorMessage(e)}` });
  }
  if (!res.ok) throw new ApiCallError(await readError(res));
  if (route.binary && name === 'bundles.export') {
    const zip = new Uint8Array(await res.arrayBuffer());
    return { zip, fileName: fileNameFrom(res, 'bundles.zip') } as OpOutput<N>;
  }
  if (res.status === 204) return { deleted: true } as OpOutput<N>;
  const data: unknown = await res.json();
  if (route.unwrap) return { [route.unwrap]: data, created: res.status === 201 } as unknown as OpOutput<N>;
  return data as OpOutput<N>;
}

/**
 * Calls one operation; resolves with its data or throws ApiCallError. `signal` aborts a REST
 * request nobody waits for any more (a search superseded by the next keystroke); over IPC the
 * answer is just dropped.
 */
export function call<N extends OpName>(name: N, input: OpInput<N>, signal?: AbortSignal): Promise<OpOutput<N>> {
  return transportKind() === 'ipc' ? callIpc(name, input) : callRest(name, input, signal);
}

/**
 * Parses a server-sent-event stream (eventsource-parser, as the core does for http upstreams):
 * each event's data, with its name when it has one.
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, onData: (data: string, event?: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (e) => onData(e.data, e.event) });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

export type InvokeInput = OpInput<'tools.invoke'> & { invocationID: string };

/**
 * Runs a tool with its output streamed: onEvent gets each chunk (and pipeline step) as it
 * happens, the promise the usual invoke answer. A refusal before the run throws ApiCallError,
 * as call('tools.invoke') does. Desktop: the preload's streamed invoke; browser: REST with
 * `?stream=true`, read as server-sent events. Stop it with call('tools.cancel', {invocationID}).
 */
export async function invokeStream(input: InvokeInput, onEvent: (e: InvokeStreamEvent) => void): Promise<InvokeResult> {
  if (transportKind() === 'ipc') {
    const fn = window.toolwright!.toolsInvokeStream;
    if (typeof fn !== 'function') return callIpc('tools.invoke', input);
    const envelope = await fn(input, onEvent);
    if (envelope.ok) return envelope.data as InvokeResult;
    throw new ApiCallError(envelope.error);
  }
  const req = buildRestRequest('tools.invoke', input);
  let res: Response;
  try {
    res = await fetch(`${req.url}${req.url.includes('?') ? '&' : '?'}${STREAM_QUERY}=true`, {
      method: req.method,
      headers: { ...req.headers, ...authHeaders(), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(req.body),
    });
  } catch (e) {
    throw new ApiCallError({ code: 'INTERNAL', message: `Cannot reach the Toolwright host: ${errorMessage(e)}` });
  }
  if (!res.ok) throw new ApiCallError(await readError(res));
  if (!res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return (await res.json()) as InvokeResult;
  let result: InvokeResult | undefined;
  await readEventStream(res.body, (data, event) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return; // not ours
    }
    if (event === RESULT_EVENT) result = parsed as unknown as InvokeResult;
    else if (event) onEvent({ type: event, ...parsed } as InvokeStreamEvent);
  });
  if (!result) throw new ApiCallError({ code: 'INTERNAL', message: 'The connection to the Toolwright host ended before the run did.' });
  return result;
}

/**
 * Subscribes to store events. REST: fetch streaming (EventSource cannot send Authorization),
 * reconnecting with back-off. `onStatus` reports whether live updates are flowing.
 */
export function subscribeEvents(onEvent: (e: StoreEvent) => void, onStatus?: (live: boolean) => void): () => void {
  if (transportKind() === 'ipc') {
    onStatus?.(true);
    return window.toolwright!.onEvent(onEvent);
  }
  let stopped = false;
  let controller: AbortController | undefined;
  let delay = 500;
  const loop = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const res = await fetch(EVENTS_PATH, { headers: { ...authHeaders(), Accept: 'text/event-stream' }, signal: controller.signal });
        if (res.ok && res.body) {
          onStatus?.(true);
          delay = 500;
          await readEventStream(res.body, (data) => {
            try {
              onEvent(JSON.parse(data) as StoreEvent);
            } catch {
              // a malformed event is skipped; the next refetch corrects any drift
            }
          });
        }
      } catch {
        // network error or abort: retry below unless stopped
      }
      onStatus?.(false);
      if (stopped) break;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  };
  void loop();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
