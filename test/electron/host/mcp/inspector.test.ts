/**
 * MCP Inspector v2's CLI (@modelcontextprotocol/inspector 2.12.0, a client other than the SDK's)
 * against Toolwright in both protocol eras (`--protocol-era legacy` = 2025-11-25 with a session,
 * `modern` = 2026-07-28 stateless) over Streamable HTTP (the headless host's /mcp) and stdio
 * (`toolwright mcp`, a real process on the same data folder): it lists the tools, calls one and,
 * over HTTP, reads a schedule's output resource.
 *
 * The Inspector lives outside the app's dependencies, in .ci/inspector (installed by .ci/run with
 * `npm ci --prefix .ci/inspector`); without that folder the file is skipped and says how to install
 * it. It writes ~/.mcp-inspector/, so each run gets a temporary HOME.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/store.js';

const ROOT = join(import.meta.dirname, '../../../..');
const INSPECTOR = join(ROOT, '.ci/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const BIN = join(ROOT, 'bin/toolwright.js');
const installed = existsSync(INSPECTOR);
if (!installed) console.warn(`inspector.test.ts skipped: MCP Inspector is not installed; run \`npm ci --prefix .ci/inspector\` (.ci/run does)`);

let h: TestHost;
let home: string;
let scheduleID: string;

beforeAll(async () => {
  if (!installed) return;
  home = await tempDir('tw-inspector-home-');
  h = await startHost();
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'news', displayName: 'News' });
  const digest = await h.api('PUT', `/tools/bundles/${bundleID}/tools/digest/version/v1`, {
    type: 'function',
    displayName: 'Digest',
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    schedules: [{ cron: '0 6 1 1 *', timezone: 'Europe/Malta', args: { expression: '40+2' } }],
  });
  expect(digest.status, JSON.stringify(digest.body)).toBe(201);
  scheduleID = digest.body.schedules[0].scheduleID;
}, 60_000);

afterAll(async () => {
  await h?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

type Transport = 'http' | 'stdio';

/** One Inspector CLI call; the result payload (`--format json`) parsed. */
function inspect(era: 'legacy' | 'modern', transport: Transport, method: string, ...args: string[]): Promise<any> {
  const target =
    transport === 'http' ? [`${h.url}/mcp`, '--header', `Authorization: Bearer ${h.token}`] : ['--', process.execPath, BIN, 'mcp', '--data-dir', h.dataDir];
  // `toolwright mcp` starts in seconds, more on a loaded machine than the Inspector's 15 s default allows.
  const argv = [INSPECTOR, '--cli', '--protocol-era', era, '--connect-timeout', '60000', '--method', method, ...args, '--format', 'json', '-q', ...target];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { timeout: 120_000, env: { ...process.env, HOME: home, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`inspector ${method} (${era}, ${transport}) failed: ${error.message}\n${stdout}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`inspector ${method} (${era}, ${transport}) printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

const CASES = (['legacy', 'modern'] as const).flatMap((era) => (['http', 'stdio'] as const).map((transport) => [era, transport] as const));

describe.skipIf(!installed).each(CASES)('MCP Inspector v2 CLI, era %s over %s', (era, transport) => {
  it('lists the tools, calls one and reads a schedule output resource', async () => {
    const listed = await inspect(era, transport, 'tools/list');
    const tools = (listed.result ?? listed).tools as { name: string; annotations?: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toContain('digest');
    expect(tools.find((t) => t.name === 'digest')?.annotations).toMatchObject({ readOnlyHint: true });

    const called = await inspect(era, transport, 'tools/call', '--tool-name', 'digest', '--tool-args-json', '{"expression":"6*7"}');
    const call = called.result ?? called;
    expect(call.isError, JSON.stringify(call)).toBeFalsy();
    expect(call.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/"value": 42/) });
    // The card travels for MCP Apps hosts, and the Inspector sees the tool's app (ui://… with a CSP of no outside domains).
    expect(call._meta?.['dev.toolwright/card']).toMatchObject({ text: '6*7 = 42' });
    expect(called.appInfo).toMatchObject({ hasApp: true, resourceMimeType: 'text/html;profile=mcp-app', csp: { connectDomains: [], resourceDomains: [] } });

    // Each Inspector start costs seconds: resources over stdio and unknown names are the SDK tests' (mcp.test.ts, schedule-resources.test.ts).
    if (transport === 'http') {
      const uri = `toolwright://schedules/${scheduleID}/latest`;
      const read = await inspect(era, transport, 'resources/read', '--uri', uri);
      const contents = (read.result ?? read).contents as { uri: string; mimeType: string; text: string }[];
      expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
      expect(JSON.parse(contents[0]!.text)).toMatchObject({ schedule: { scheduleID } });
    }
  }, 400_000);
});
