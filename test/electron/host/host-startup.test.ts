/**
 * What the headless host does before it listens: every e2e file and many host tests start it, so
 * what it need not do first (count context costs, reach Docker, build the MCP server) waits until
 * its listening line is out. Each package the process imports is written to stdout, in order with
 * that line.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { tempDir } from '../../helpers/store.js';
import { nodeArgsFor } from '../../helpers/procs.js';

// Node's in-thread module hooks; written to fd 1 so that they keep their order with the host's own lines.
const REPORT_PACKAGES_ON_STDOUT = `data:text/javascript,${encodeURIComponent(
  `import { registerHooks } from 'node:module';
import { writeSync } from 'node:fs';
registerHooks({ resolve(specifier, context, next) {
  if (!/^(node:|[./]|file:|data:)/.test(specifier)) writeSync(1, 'package ' + specifier + '\\n');
  return next(specifier, context);
} });`,
)}`;

interface HostStart {
  beforeListening: string[];
  afterListening: string[];
  url: string;
  token: string;
  stop(): void;
}

/** Starts the host and resolves once `until` holds of the packages imported after its listening line (or before it: nothing more to wait for). */
function startHostReporting(dataDir: string, until: (after: string[]) => boolean): Promise<HostStart> {
  const child = spawn(
    process.execPath,
    ['--import', REPORT_PACKAGES_ON_STDOUT, ...nodeArgsFor('electron/host/serve.ts'), '--data-dir', dataDir, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TOOLWRIGHT_TOKEN: 'host-startup-token' },
    },
  );
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const settle = () => {
      const listening = /^Toolwright listening on (\S+)$/m.exec(stdout);
      if (!listening) return;
      const [before, after] = [stdout.slice(0, listening.index), stdout.slice(listening.index)].map((s) =>
        [...s.matchAll(/^package (\S+)$/gm)].map((m) => m[1]!),
      );
      if (!until(after!) && !until(before!)) return;
      resolve({ beforeListening: before!, afterListening: after!, url: listening[1]!, token: 'host-startup-token', stop: () => child.kill() });
    };
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      settle();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the host ended (${code}) before the test saw what it waited for:\n${stdout}\n${stderr}`)));
  });
}

describe('host start-up', () => {
  it('listens before it loads the tokenizer, Docker client or MCP server SDK; it counts context costs and answers MCP after', async () => {
    const dataDir = await tempDir('tw-host-startup-');
    const host = await startHostReporting(dataDir, (after) => after.some((p) => p.startsWith('gpt-tokenizer')));
    try {
      const heavy = /^(gpt-tokenizer|dockerode|@modelcontextprotocol\/)/;
      expect(host.beforeListening).toContain('fastify');
      expect(host.beforeListening.filter((p) => heavy.test(p))).toEqual([]);
      // The built-in tools' counts are there once the count after listening is done.
      const toolList = async () => (await fetch(`${host.url}/tools/tools`, { headers: { authorization: `Bearer ${host.token}` } })).text();
      await expect.poll(toolList, { timeout: 20_000, interval: 100 }).toMatch(/"contextTokens":\d+/);
      const mcp = await fetch(`${host.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host-startup-test', version: '1' } },
        }),
      });
      expect(mcp.status, await mcp.clone().text()).toBe(200);
      expect(await mcp.text()).toContain('"serverInfo"');
    } finally {
      host.stop();
    }
  }, 60_000);
});
