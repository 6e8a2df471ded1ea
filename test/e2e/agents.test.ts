/**
 * Agents as users, seen from the app: the "Connect an agent" screen with its copy-ready
 * configuration and live list of connected agents, and the approvals panel that pops up over
 * whatever screen is open when an agent (a real MCP client over stdio, its own process) asks
 * to run a privileged tool. Screenshots in light and dark go to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { api, PROJECT_ROOT, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let agent: Client;

describe.runIf(chromiumAvailable())('agents in the app', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        const bundleID = uuidv7();
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'ops', displayName: 'Operations' } });
        await api(host, 'tools.put', {
          bundleID,
          slug: 'rotate-keys',
          version: 'v1',
          tool: {
            type: 'function',
            displayName: 'Rotate keys',
            safety: 'privileged',
            impl: { function: 'core.uuid' },
            argSchema: { type: 'object', properties: { count: { type: 'integer' } } },
          },
        });
        agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
        await agent.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [join(PROJECT_ROOT, 'bin/toolwright.js'), '--data-dir', host.dataDir, 'mcp'],
            stderr: 'ignore',
          }),
        );
      },
    });
    ({ host, page, problems } = app);
  }, 300_000);

  afterAll(async () => {
    await agent?.close();
    await app?.close();
  });

  it('shows copy-ready configuration with absolute paths, the connected agent and what agents can see', async () => {
    await page.getByTestId('nav-agents').click();
    await expect.poll(() => page.getByTestId('agent-config').textContent()).toContain('bin/toolwright.js');
    const config = JSON.parse((await page.getByTestId('agent-config').textContent())!) as { mcpServers: { toolwright: { command: string; args: string[] } } };
    expect(config.mcpServers.toolwright.args).toEqual([join(PROJECT_ROOT, 'bin/toolwright.js'), '--data-dir', host.dataDir, 'mcp']);
    await page.getByTestId('agent-client-vscode').click();
    expect(JSON.parse((await page.getByTestId('agent-config').textContent())!)).toMatchObject({ servers: { toolwright: { type: 'stdio' } } });
    await page.getByTestId('agent-client-http').click();
    expect(await page.getByTestId('agent-config').textContent()).toContain(`${host.url}/mcp`);
    expect(await page.getByTestId('agent-config').textContent()).not.toContain(host.token);
    await expect.poll(() => page.getByTestId('agent-connections').textContent(), { timeout: 15_000 }).toContain('e2e-agent');
    expect(await page.getByTestId('agent-bundles').textContent()).toContain('Operations');
    await page.getByTestId('agent-client-claude').click();
    await screenshot(page, 'agents-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'agents-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 60_000);

  it('pops up an approval over any screen when an agent asks to run a privileged tool, and the yes lets it run', async () => {
    await page.getByTestId('nav-settings').click();
    const call = agent.callTool({ name: 'rotate-keys', arguments: { count: 3 } });
    const panel = page.getByTestId('approvals-panel');
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.textContent()).toContain('Rotate keys');
    expect(await panel.textContent()).toContain('e2e-agent');
    expect(await panel.textContent()).toContain('"count": 3');
    await screenshot(page, 'approval-panel');
    await page.keyboard.press('F6');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('approval-deny');
    await page.getByTestId('approval-approve').click();
    const result = (await call) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    await panel.waitFor({ state: 'detached', timeout: 10_000 });

    const denied = agent.callTool({ name: 'rotate-keys', arguments: {} });
    await panel.waitFor({ timeout: 15_000 });
    await page.getByTestId('approval-deny').click();
    const no = (await denied) as CallToolResult;
    expect(no.isError).toBe(true);
    expect(problems).toEqual([]);
  }, 60_000);
});
