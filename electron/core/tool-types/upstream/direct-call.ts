/**
 * tools/call to a stdio server past the SDK Client's per-message work (issue 32, point 5). The
 * Client parses every message with zod (the envelope, then the result against its era's schema),
 * looks up an output validator and builds its request through several layers: a third of the
 * host's part of a gateway hop. Here the request is the Client's own (same envelope, same era),
 * sent on the same transport under an id of the transport's own; the answer is read as JSON and
 * checked for what Toolwright uses (content blocks, structuredContent, isError). The result's value
 * is checked against the tool's accepted output schema by the engine, as for every tool.
 *
 * Progress (reset of the timeout included), cancel (`notifications/cancelled`) and the timeout
 * behave as the Client's. A 2026 server that answers `input_required` (it asks a question before
 * any work) gets the call again through the Client, which runs that flow; `undefined` says so.
 */
import type { CallToolResult, Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ProgressUpdate } from '../../../../shared/types.js';
import type { DirectAnswer, GroupStdioTransport } from './stdio-transport.js';
import { isPlainObject } from '../../../../shared/plain-object.js';

type Sdk = Pick<typeof import('@modelcontextprotocol/client'), 'ProtocolError' | 'SdkError' | 'SdkErrorCode'>;

export interface DirectCallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs: number;
}

/** The per-request `_meta` envelope the Client adds in the 2026 era (none in 2025); undefined when this SDK has no such seam. */
function envelopeOf(client: Client): ((m: JSONRPCMessage) => JSONRPCMessage) | undefined {
  const seam = (client as unknown as { _envelopeOutbound?: (m: JSONRPCMessage) => JSONRPCMessage })._envelopeOutbound;
  return typeof seam === 'function' ? seam.bind(client) : undefined;
}

/** Whether this connection can take the direct path: a stdio server whose Client offers its envelope. */
export function canCallDirect(client: Client, stdio: GroupStdioTransport | undefined): stdio is GroupStdioTransport {
  return stdio !== undefined && client.transport === stdio && envelopeOf(client) !== undefined;
}

/** Why a result cannot be used, or undefined: what the runner and the answer read of it. */
function resultProblem(result: Record<string, unknown>): string | undefined {
  const { content, structuredContent, isError } = result;
  if (isError !== undefined && typeof isError !== 'boolean') return 'isError is not a boolean';
  if (structuredContent !== undefined && !isPlainObject(structuredContent)) return 'structuredContent is not an object';
  if (content === undefined) return undefined;
  if (!Array.isArray(content)) return 'content is not an array';
  for (const block of content) {
    if (!isPlainObject(block) || typeof block['type'] !== 'string') return 'a content block has no type';
    if (block['type'] === 'text' && typeof block['text'] !== 'string') return 'a text block has no text';
  }
  return undefined;
}

/** The complete result of an answer, or undefined for a 2026 `input_required` (the Client's flow). */
function resultOf(sdk: Sdk, answer: DirectAnswer, modern: boolean): CallToolResult | undefined {
  const error = answer['error'];
  if (error !== undefined) {
    if (isPlainObject(error) && typeof error['code'] === 'number' && typeof error['message'] === 'string') {
      throw sdk.ProtocolError.fromError(error['code'], error['message'], error['data']);
    }
    throw new sdk.SdkError(sdk.SdkErrorCode.InvalidResult, 'Invalid result for tools/call: the error response has no code or message');
  }
  const raw = answer['result'];
  if (!isPlainObject(raw)) throw new sdk.SdkError(sdk.SdkErrorCode.InvalidResult, 'Invalid result for tools/call: not an object');
  const { resultType, ...result } = raw;
  if (modern) {
    if (resultType === 'input_required') return undefined;
    if (resultType === undefined) {
      throw new sdk.SdkError(
        sdk.SdkErrorCode.InvalidResult,
        'Invalid result for tools/call: missing required resultType — servers implementing protocol revision 2026-07-28 MUST include it',
      );
    }
    if (resultType !== 'complete')
      throw new sdk.SdkError(sdk.SdkErrorCode.UnsupportedResultType, `Unsupported result type '${String(resultType)}' for tools/call`);
  }
  const problem = resultProblem(result);
  if (problem) throw new sdk.SdkError(sdk.SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${problem}`);
  return result as CallToolResult;
}

export function callToolDirect(
  sdk: Sdk,
  client: Client,
  stdio: GroupStdioTransport,
  name: string,
  args: Record<string, unknown>,
  opts: DirectCallOptions,
): Promise<CallToolResult | undefined> {
  const envelope = envelopeOf(client)!;
  const modern = client.getProtocolEra() === 'modern';
  return new Promise<CallToolResult | undefined>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason as Error);
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const { id, answer, forget } = stdio.request(
      (id) =>
        envelope({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: args, ...(opts.onProgress ? { _meta: { progressToken: id } } : {}) },
        }),
      opts.onProgress
        ? (params) => {
            if (typeof params['progress'] !== 'number') return;
            arm();
            opts.onProgress!(params as unknown as ProgressUpdate);
          }
        : undefined,
    );
    const giveUp = (reason: unknown) => {
      done();
      forget();
      stdio.send(envelope({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } })).catch(() => undefined);
      reject(reason instanceof Error ? reason : new sdk.SdkError(sdk.SdkErrorCode.RequestTimeout, String(reason)));
    };
    const onAbort = () => giveUp(opts.signal!.reason);
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => giveUp(new sdk.SdkError(sdk.SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: opts.timeoutMs })), opts.timeoutMs);
    };
    arm();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (a) => {
        done();
        try {
          resolve(resultOf(sdk, a, modern));
        } catch (e) {
          reject(e as Error);
        }
      },
      (e: unknown) => {
        done();
        reject(e as Error);
      },
    );
  });
}
