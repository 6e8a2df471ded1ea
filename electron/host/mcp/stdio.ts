/**
 * `toolwright mcp`: the MCP server on stdin/stdout, started by an agent as a subprocess. stdout
 * carries protocol messages only; everything else (logs, warnings, stray console output) goes
 * to stderr. The store is watched, so switches flipped in the app or by another process reach
 * this connection as notifications/tools/list_changed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCore } from '../../core/app-core.js';
import { stderrLogger } from '../../core/log.js';
import { createMcpServer } from './mcp-server.js';

export interface StdioOptions {
  dataDir: string;
  bundles?: string[];
  version?: string;
}

export async function runStdioServer(opts: StdioOptions): Promise<void> {
  // Nothing but the protocol may reach stdout.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const core = await createCore({ dataDir: opts.dataDir, watch: true, transport: 'rest', logger: stderrLogger(), scheduler: true });
  const connection = createMcpServer(core, {
    transport: 'stdio',
    ...(opts.bundles ? { bundles: opts.bundles } : {}),
    ...(opts.version ? { version: opts.version } : {}),
  });
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await connection.dispose();
    await connection.server.close().catch(() => undefined);
    await core.close().catch(() => undefined);
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await connection.server.connect(transport);
}
