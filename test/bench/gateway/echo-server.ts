/**
 * The upstream server the gateway's benches call (gateway.ts, hop-profile.ts): the tests'
 * file-tools fixture, a real child process over stdio, serving one read-only `echo` tool.
 */
import { join } from 'node:path';

export const ECHO_SERVER = join(import.meta.dirname, '../../fixtures/mcp/file-tools-server.mjs');

export const ECHO = {
  name: 'echo',
  description: 'Repeats',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};
