/**
 * The upstream server the gateway's benches call (gateway.ts, hop-profile.ts): the tests'
 * file-tools fixture, a real child process over stdio, serving one read-only `echo` tool.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { TestHost } from '../../helpers/host.js';

const ECHO_SERVER = join(import.meta.dirname, '../../fixtures/mcp/file-tools-server.mjs');

export const ECHO = {
  name: 'echo',
  description: 'Repeats',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

/** How to start the server over stdio, serving the tools listed in `toolsFile`. */
export const echoServerCommand = (toolsFile: string) => ({ command: process.execPath, args: [ECHO_SERVER, toolsFile] });

/**
 * On a host with no rate limit in the way, bundle `files` whose server serves `echo` alone (not
 * synced yet: a bench may time the sync). Its tools file is written in `dir`.
 */
export async function addEchoServer(h: Pick<TestHost, 'api'>, dir: string): Promise<{ bundleID: string; toolsFile: string }> {
  const toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [ECHO] }));
  await h.api('PATCH', '/tools/config', { limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'files', source: { kind: 'mcp', transport: 'stdio', ...echoServerCommand(toolsFile) } });
  return { bundleID, toolsFile };
}
