/**
 * Answers for requests Node's HTTP parser refuses before any route runs. Fastify's default
 * writes its own body shape; these keep `{error:{code, message}}` with the right status.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../../../shared/errors.js';
import { httpStatusFor } from '../../../shared/errors.js';

/** Node's default for the request line plus headers (`--max-http-header-size`). */
export const MAX_HEADER_BYTES = 16 * 1024;

export function clientErrorAnswer(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'HEADERS_TOO_LARGE',
        message: `the request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KB; send long values in a JSON body instead of the query string`,
      };
    case 'HPE_REQUEST_TIMEOUT':
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'TIMEOUT', message: 'the request was not sent completely in time' };
    default:
      return { code: 'INVALID_INPUT', message: 'the request is not valid HTTP/1.1' };
  }
}

export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const error = clientErrorAnswer(err.code);
  const status = error.code === 'TIMEOUT' ? 408 : httpStatusFor(error.code);
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
