/**
 * A real headless host process (electron/host/serve.ts, what `npm run serve` starts) on loopback,
 * and the audit log as it is on disk at this instant, for tests that stop a host mid-flight.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditRecord } from '../../shared/audit.js';
import { spawnTs } from './procs.js';

export const CORE_BUNDLE = '0190a000-0000-7000-8000-00000000c0e0';
const MODERN = '2026-07-28';

export interface ServeProcess {
  url: string;
  token: string;
  child: ChildProcess;
  /** The exit code and signal, once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

export async function startServeProcess(dataDir: string, env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<ServeProcess> {
  const token = 'serve-' + Math.random().toString(36).slice(2);
  const child = spawnTs('electron/host/serve.ts', ['--data-dir', dataDir, '--port', '0'], { TOOLWRIGHT_TOKEN: token, ...env }, { nodeOptions });
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /Toolwright listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', look);
    void exited.then(({ code, signal }) => reject(new Error(`the host ended (${code ?? signal}) before listening:\n${output}`)));
  });
  return { url, token, child, exited, output: () => output };
}

/** Every record in `<data>/audit/` right now, read synchronously (nothing else runs between an answer and this read). */
export function auditRecordsNow(dataDir: string): AuditRecord[] {
  const dir = join(dataDir, 'audit');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^audit-\d+\.jsonl$/.test(n));
  } catch {
    return [];
  }
  return names
    .sort()
    .flatMap((n) => readFileSync(join(dir, n), 'utf8').split('\n'))
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as AuditRecord];
      } catch {
        return []; // a torn last line of a killed writer
      }
    });
}

/** A REST call with the host's token: status, parsed body and headers. */
export async function restCall(
  h: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${h.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** REST invoke of the built-in calc tool. */
export function restCalc(h: { url: string; token: string }, expression: string): Promise<{ status: number; body: any }> {
  return restCall(h, 'POST', `/tools/bundles/${CORE_BUNDLE}/tools/calc/version/v1/invoke`, { args: { expression } });
}

/**
 * A 2026-07-28 stateless tools/call of calc: plain (answered before the SDK, plain-call.ts), or
 * with a progress token, which only the SDK's handler serves.
 */
export async function mcpCalc(
  h: { url: string; token: string },
  expression: string,
  opts: { viaSdk?: boolean } = {},
): Promise<{ status: number; result?: any; error?: any }> {
  const meta: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'audit-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...(opts.viaSdk ? { progressToken: 'p-' + expression } : {}),
  };
  const res = await fetch(`${h.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'calc',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'calc', arguments: { expression }, _meta: meta } }),
  });
  const text = await res.text();
  const json = text.startsWith('{')
    ? text
    : ([...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!).find((d) => d.includes('"result"') || d.includes('"error"')) ?? 'null');
  const message = (JSON.parse(json) ?? {}) as { result?: unknown; error?: unknown };
  return { status: res.status, ...message };
}
