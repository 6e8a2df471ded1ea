/**
 * One front door: REST, IPC, the CLI and MCP (both eras) run a tool through the same operation
 * (tools.invoke, through the dispatcher), so a rule added there once holds for every transport.
 * The rule here is added around the host's dispatcher, the one place every transport calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../helpers/host.js';
import type { Dispatch } from '../../../../electron/core/operations/dispatch.js';
import { callerLabel } from '../../../../shared/caller.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const RULE = 'expressions that divide by zero are refused by a rule of this host';

let h: TestHost;
const seen: { transport: string; caller?: string }[] = [];

beforeAll(async () => {
  h = await startHost();
  const dispatch = h.core.dispatch;
  const guarded: Dispatch = async (name, input, ctx) => {
    if (name === 'tools.invoke') {
      seen.push({ transport: ctx?.caller.transport ?? 'app', ...(ctx ? { caller: callerLabel(ctx.caller) } : {}) });
      const args = (input as { args?: { expression?: string } }).args;
      if (args?.expression?.includes('/ 0')) return { ok: false, error: { code: 'INVALID_ARGS', message: RULE } };
    }
    return dispatch(name, input, ctx);
  };
  h.core.dispatch = guarded;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function historyLength(): Promise<number> {
  return (await h.api('GET', `/tools/bundles/${CORE}/tools/calc/version/v1/history`)).body.items.length;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('a rule of the tools.invoke operation', () => {
  it('holds for REST', async () => {
    const before = await historyLength();
    const refused = await h.api('POST', `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`, { args: { expression: '1 / 0' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(RULE);
    expect(await historyLength()).toBe(before);
  });

  for (const era of [
    { label: '2025-11-25', options: {} },
    { label: '2026-07-28', options: { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } },
  ]) {
    it(`holds for MCP ${era.label}, which calls it with the client as caller`, async () => {
      const client = new Client({ name: `door-${era.label}`, version: '1' }, era.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
      try {
        const before = await historyLength();
        seen.length = 0;
        const refused = (await client.callTool({ name: 'calc', arguments: { expression: '1 / 0' } })) as CallToolResult;
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toBe(RULE);
        expect(await historyLength()).toBe(before);

        const ok = (await client.callTool({ name: 'calc', arguments: { expression: '6 * 7' } })) as CallToolResult;
        expect(ok.isError, textOf(ok)).toBeFalsy();
        expect(ok.structuredContent).toMatchObject({ value: 42 });
        expect(seen).toEqual([
          { transport: 'mcp', caller: `mcp:door-${era.label}` },
          { transport: 'mcp', caller: `mcp:door-${era.label}` },
        ]);
      } finally {
        await client.close();
      }
    });
  }

  it("holds the contract's own check of the input over MCP too", async () => {
    // The contract bounds how deep an input may nest (100 levels); the engine alone only looks at the args (64).
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 120; i++) deep = { a: deep };
    const client = new Client({ name: 'door-deep', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      const refused = (await client.callTool({ name: 'calc', arguments: { expression: '1', deep } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/nests deeper than 100 levels/);
    } finally {
      await client.close();
    }
  });
});
