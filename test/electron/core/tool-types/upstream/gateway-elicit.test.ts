/**
 * An upstream MCP server that asks something during a call (elicitation/create, or
 * sampling/createMessage): the question reaches the agent's client when it can answer, else a
 * person in the app's approvals panel, else it is declined with a reason — through a real host,
 * the file-tools fixture as a child process, and real MCP clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const TOOLS = [
  { name: 'ask', description: 'Asks for a city', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  { name: 'sample', description: 'Asks for the model', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
];

let h: TestHost;
let bundleID: string;
const toolPath = (slug: string) => `/tools/bundles/${bundleID}/tools/${slug}/version/v1`;

async function agent(capabilities: ClientCapabilities): Promise<Client> {
  const client = new Client({ name: 'asking-agent', version: '1' }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp?bundles=files`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
  );
  return client;
}

/** The SSE answer of a streaming invoke (the app's tester), parsed to its result event. */
async function streamInvoke(slug: string): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  const res = await fetch(`${h.url}${toolPath(slug)}/invoke?stream=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ args: {} }),
  });
  const text = await res.text();
  const result = /event: result\ndata: (.*)\n/.exec(text);
  if (!result) throw new Error(`no result event in: ${text.slice(0, 500)}`);
  return JSON.parse(result[1]!);
}

/** The tool's value as an agent reads it (the text of its result; the upstream tools declare no outputSchema). */
const valueOf = (r: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((r.content as { text: string }[])[0]!.text) as unknown;

beforeAll(async () => {
  h = await startHost();
  const dir = await mkdtemp(join(tmpdir(), 'tw-elicit-'));
  const toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: TOOLS }));
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, {
    slug: 'files',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
  });
  expect((await h.api('POST', `/tools/bundles/${bundleID}/sync`)).status).toBe(200);
  for (const slug of ['ask', 'sample']) await h.api('PATCH', toolPath(slug), { isEnabled: true });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('an upstream server that asks during a call', () => {
  it('with nobody to answer (a REST call, no app window), the question is declined with the reason', async () => {
    const t0 = Date.now();
    const r = await h.api('POST', `${toolPath('ask')}/invoke`, { args: {} });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true, value: { answer: { action: 'decline' } } });
    expect(Date.now() - t0).toBeLessThan(10_000); // declined at once, not after the call's timeout
    expect((await h.api('GET', '/tools/approvals')).body.items).toEqual([]);
  }, 30_000);

  it('forwards it to an agent whose client declared elicitation, and passes the answer back upstream', async () => {
    const client = await agent({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(String((req.params as { message?: string }).message));
      return { action: 'accept', content: { city: 'Lisbon' } };
    });
    const r = await client.callTool({ name: 'ask', arguments: {} });
    expect(asked).toEqual([expect.stringContaining('Which city should the forecast be for?')]);
    expect(valueOf(r), JSON.stringify(r)).toMatchObject({ answer: { action: 'accept', content: { city: 'Lisbon' } } });
    await client.close();
  }, 30_000);

  it('asks the person in the app (an answer approval with the server’s form) when the agent’s client cannot', async () => {
    const client = await agent({});
    const call = client.callTool({ name: 'ask', arguments: {} });
    let approval: { approvalID: string; kind?: string; question?: { message: string; requestedSchema: unknown } } | undefined;
    await expect
      .poll(async () => {
        approval = (await h.api('GET', '/tools/approvals')).body.items[0];
        return approval?.kind;
      })
      .toBe('answer');
    expect(approval!.question).toMatchObject({
      message: expect.stringContaining('Which city'),
      requestedSchema: { properties: { city: { type: 'string' } } },
    });
    const bad = await h.api('POST', `/tools/approvals/${approval!.approvalID}`, { decision: 'approve', content: { city: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/city/);
    const ok = await h.api('POST', `/tools/approvals/${approval!.approvalID}`, { decision: 'approve', content: { city: 'Porto' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const r = await call;
    expect(valueOf(r), JSON.stringify(r)).toMatchObject({ answer: { action: 'accept', content: { city: 'Porto' } } });
    await client.close();
  }, 30_000);

  it('the app’s tester (a streaming call) gets the question in the panel; a denial declines it upstream', async () => {
    const call = streamInvoke('ask');
    let approvalID: string | undefined;
    await expect
      .poll(async () => {
        approvalID = (await h.api('GET', '/tools/approvals')).body.items.find((a: { kind?: string }) => a.kind === 'answer')?.approvalID;
        return approvalID;
      })
      .toBeDefined();
    expect((await h.api('POST', `/tools/approvals/${approvalID}`, { decision: 'deny' })).status).toBe(200);
    expect(await call).toMatchObject({ ok: true, value: { answer: { action: 'decline' } } });
  }, 30_000);

  it('refuses sampling clearly unless the agent’s client supports it, and forwards it when it does', async () => {
    const refused = await h.api('POST', `${toolPath('sample')}/invoke`, { args: {} });
    expect(JSON.stringify(refused.body)).toMatch(/Toolwright does not let upstream servers use the agent's model/);
    const client = await agent({ sampling: {} });
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'hi from the agent' },
      model: 'test-model',
    }));
    const r = await client.callTool({ name: 'sample', arguments: {} });
    expect(JSON.stringify(r)).toContain('hi from the agent');
    await client.close();
  }, 30_000);
});
