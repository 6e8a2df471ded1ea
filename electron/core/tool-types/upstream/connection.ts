/**
 * One upstream MCP server as a managed connection: started on first need (a stdio server as a
 * child process, an HTTP server by connecting), reused by every call, started again after a
 * crash with a growing pause, stopped when idle. Its state, what it said of itself and the end
 * of its stderr are kept for the bundle's view. Everything the server does wrong — hangs on
 * start, exits mid-call, floods stderr, prints garbage on stdout — ends as a clear error on the
 * call that met it; the host stays healthy.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client, CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { UpstreamStatus } from '../../../../shared/upstream.js';
import { CoreError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { OAuthSettings, ResolvedSource } from './source.js';
import type { ProgressUpdate } from '../../../../shared/types.js';
import type { StoredOAuthProvider } from './oauth/provider.js';
import type { UpstreamQuestions } from './questions.js';
import type { GroupStdioTransport } from './stdio-transport.js';
import { callToolDirect, canCallDirect } from './direct-call.js';

const STDERR_KEEP_CHARS = 16 * 1024;
const BACKOFF_MS = [0, 1000, 2000, 5000, 10_000, 30_000];
/** Longer than a stdio server's stop (stdin, SIGTERM, SIGKILL: 2 s apiece at most). */
const STOP_TIMEOUT_MS = 8000;
/** A server's stdout line may be large (a big tools/list), not unbounded. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface ConnectionOptions {
  bundleID: string;
  /** The bundle's source with its secrets filled in; throws when the bundle has none or a secret is missing. */
  source(): ResolvedSource;
  startTimeoutMs: number;
  /** How long the server may sit unused before it is stopped, read each time it falls idle; 0: never. */
  idleMs: () => number;
  appVersion: string;
  /** The server said its tools changed (list_changed). */
  onToolsChanged(): void;
  onStatus(): void;
  log: Logger;
  /** The OAuth client of an HTTP server that may answer 401; without it a 401 is a plain failure (a probe). */
  oauthProvider?: (settings: OAuthSettings) => StoredOAuthProvider;
  /** How to sign in, named for this bundle (the CLI command, the panel's button). */
  signInHint?: () => string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Each `notifications/progress` of the call, as the server sent it. */
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs: number;
  /** Who answers what the server asks during this call (elicitation, sampling). */
  questions?: UpstreamQuestions;
}

/**
 * The call a server's question belongs to. A 2026 server asks inside the call's own round trips,
 * so the context follows; a 2025 server's request arrives on its own, and belongs to the one call
 * that can be asking, when there is exactly one.
 */
const askingCall = new AsyncLocalStorage<UpstreamQuestions>();

function tail(text: string, lines = 5): string {
  const t = text.trimEnd().split('\n').slice(-lines).join('\n');
  return t ? `; its last output on stderr:\n${t}` : '';
}

export class UpstreamConnection {
  private client: Client | undefined;
  /** The transport of a running stdio server: tools/call goes over it directly (direct-call.ts). */
  private stdio: GroupStdioTransport | undefined;
  private starting: Promise<Client> | undefined;
  private stopping = false;
  private failures = 0;
  private failedAt = 0;
  private active = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private stderrText = '';
  private provider: StoredOAuthProvider | undefined;
  private readonly asking = new Set<UpstreamQuestions>();
  private info: Omit<UpstreamStatus, 'stderr' | 'state'> & { state: UpstreamStatus['state'] } = { state: 'stopped', restarts: 0 };

  constructor(private readonly opts: ConnectionOptions) {}

  status(): UpstreamStatus {
    return { ...this.info, stderr: this.stderrText };
  }

  private set(patch: Partial<UpstreamStatus>): void {
    this.info = { ...this.info, ...patch };
    this.opts.onStatus();
  }

  private keepStderr(chunk: Buffer | string): void {
    this.stderrText += String(chunk);
    if (this.stderrText.length > STDERR_KEEP_CHARS) this.stderrText = '…' + this.stderrText.slice(-STDERR_KEEP_CHARS);
  }

  /** The connected client, starting the server when it is not running. */
  connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<Client> {
    const pause = this.failures ? BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]! - (Date.now() - this.failedAt) : 0;
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    this.stopping = false;
    const source = this.opts.source();
    this.set({ state: 'starting', lastError: undefined, startFailed: undefined, since: new Date().toISOString() });
    // The SDK is loaded by the first connection, not by every process that opens the core.
    const { Client, StreamableHTTPClientTransport } = (clientSdk ??= await import('@modelcontextprotocol/client'));
    const client = new Client(
      { name: 'toolwright', title: 'Toolwright', version: this.opts.appVersion },
      { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: 'auto' } },
    );
    client.setNotificationHandler('notifications/tools/list_changed', () => this.opts.onToolsChanged());
    const provider = source.transport === 'http' && source.oauth ? this.opts.oauthProvider?.(source.oauth) : undefined;
    this.provider = provider;
    client.setRequestHandler('elicitation/create', async (request) => (await this.questionsFor('elicitation')).elicit(request.params) as never);
    client.setRequestHandler('sampling/createMessage', async (request) => (await this.questionsFor('sampling')).sample(request.params) as never);
    let stdio: GroupStdioTransport | undefined;
    let transport: Parameters<Client['connect']>[0];
    if (source.transport === 'stdio') {
      const { getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
      const { GroupStdioTransport } = await import('./stdio-transport.js');
      transport = stdio = new GroupStdioTransport(clientSdk, {
        command: source.command,
        args: source.args,
        env: { ...getDefaultEnvironment(), ...source.env },
        ...(source.cwd ? { cwd: source.cwd } : {}),
        maxBufferSize: MAX_MESSAGE_BYTES,
      });
      stdio.stderr.on('data', (c: Buffer) => this.keepStderr(c));
    } else {
      transport = new StreamableHTTPClientTransport(new URL(source.url), {
        requestInit: { headers: source.headers },
        ...(provider ? { authProvider: provider } : {}),
      });
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`it did not answer the MCP handshake within ${Math.round(this.opts.startTimeoutMs / 1000)} s`)),
            this.opts.startTimeoutMs,
          );
        }),
      ]);
    } catch (e) {
      // A server that hung or failed in its handshake is not asked to stop: its whole group is ended.
      await Promise.all([client.close().catch(() => undefined), stdio?.kill()]);
      const what = source.transport === 'stdio' ? `'${source.command}'` : source.url.replace(/[?#].*$/, '');
      // Without a provider (a probe) a 401 still says what it is: the server wants a sign-in, it is not broken.
      if (source.transport === 'http' && source.oauth && (provider?.authorizationUrl || isUnauthorized(e))) throw this.needsAuthorization(what);
      this.failures++;
      this.failedAt = Date.now();
      const message = `the MCP server ${what} could not be started: ${startError(e)}${tail(this.stderrText)}`;
      this.set({ state: 'failed', lastError: message, startFailed: true });
      throw new CoreError('TOOL_UNAVAILABLE', message);
    } finally {
      clearTimeout(timer);
    }
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.stopping) return this.set({ state: 'stopped', pid: undefined });
      this.failures++;
      this.failedAt = Date.now();
      this.set({
        state: 'failed',
        startFailed: false,
        pid: undefined,
        lastError: `the server exited${tail(this.stderrText)}`,
        restarts: this.info.restarts + 1,
      });
    };
    // A stop aborts the streams it opened (the GET stream, a listen stream): that is no error to report.
    client.onerror = (e) => {
      if (this.client === client) this.opts.log.warn(`upstream ${this.opts.bundleID}: ${e.message}`);
    };
    this.client = client;
    this.stdio = stdio;
    const server = client.getServerVersion();
    this.set({
      state: 'ready',
      ...(server ? { server: { name: server.name, version: server.version, ...(server.title ? { title: server.title } : {}) } } : {}),
      protocolVersion: client.getNegotiatedProtocolVersion(),
      pid: stdio?.pid,
    });
    if (client.getProtocolEra() === 'modern') {
      // 2026 servers tell of list changes on a listen stream only.
      void client.listen({ toolsListChanged: true }).catch((e: unknown) => {
        if (this.client === client) this.opts.log.warn(`upstream ${this.opts.bundleID}: listen: ${(e as Error).message}`);
      });
    }
    this.armIdle();
    return client;
  }

  /** The idle setting changed: a server that sits unused now goes by the new one. */
  idleChanged(): void {
    this.armIdle();
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    const idleMs = this.opts.idleMs();
    if (this.active > 0 || !this.client || idleMs <= 0) return;
    this.idleTimer = setTimeout(() => void this.stop(), idleMs);
    this.idleTimer.unref();
  }

  async listTools(): Promise<Tool[]> {
    return this.using(async (client) => {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page++) {
        const r = await client.listTools(cursor ? { cursor } : undefined, { cacheMode: 'bypass' } as never);
        tools.push(...r.tools);
        if (!r.nextCursor) break;
        cursor = r.nextCursor;
      }
      return tools;
    });
  }

  private async questionsFor(what: string): Promise<UpstreamQuestions> {
    const mine = askingCall.getStore() ?? (this.asking.size === 1 ? [...this.asking][0] : undefined);
    if (mine) return mine;
    const why = this.asking.size ? 'several calls are running and Toolwright cannot tell which one asks' : 'no call of its tools is running';
    throw new Error(`Toolwright refused the server's ${what} request: ${why}`);
  }

  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult> {
    return this.using(async (client) => {
      if (opts.questions) this.asking.add(opts.questions);
      try {
        const viaClient = () =>
          client.callTool(
            { name, arguments: args },
            {
              ...(opts.signal ? { signal: opts.signal } : {}),
              ...(opts.onProgress ? { onprogress: opts.onProgress } : {}),
              timeout: opts.timeoutMs,
              resetTimeoutOnProgress: true,
            },
          );
        const stdio = this.stdio;
        const call = canCallDirect(client, stdio)
          ? async () => (await callToolDirect(clientSdk!, client, stdio, name, args, opts)) ?? (await viaClient())
          : viaClient;
        const result = opts.questions ? await askingCall.run(opts.questions, call) : await call();
        this.failures = 0;
        return result as CallToolResult;
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        if (!this.client) throw new CoreError('TOOL_UNAVAILABLE', `the MCP server exited during the call${tail(this.stderrText)}`);
        throw e;
      } finally {
        if (opts.questions) this.asking.delete(opts.questions);
      }
    });
  }

  private async using<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.connect();
    this.active++;
    clearTimeout(this.idleTimer);
    try {
      return await work(client);
    } catch (e) {
      if (this.provider && (this.provider.authorizationUrl || isUnauthorized(e))) {
        // The server refused the token and the refresh token too: close, and wait for a person.
        this.stopping = true;
        this.client = undefined;
        await closeWithin(client, STOP_TIMEOUT_MS);
        throw this.needsAuthorization('the MCP server');
      }
      throw e;
    } finally {
      this.active--;
      this.armIdle();
    }
  }

  /** A sign-in was started here and did not finish: the server still waits for one. */
  markNeedsAuthorization(why: string): void {
    this.set({ state: 'needs-authorization', lastError: `${why}; ${this.opts.signInHint?.() ?? 'sign in from the server panel'}` });
  }

  private needsAuthorization(what: string): CoreError {
    const message = `${what} needs you to sign in (it answered 401, and no stored token was accepted or could be refreshed): ${this.opts.signInHint?.() ?? 'sign in from the server panel'}`;
    this.set({ state: 'needs-authorization', lastError: message, pid: undefined });
    return new CoreError('TOOL_UNAVAILABLE', message);
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.stopping = true;
    const client = this.client ?? (await this.starting?.catch(() => undefined));
    this.client = undefined;
    if (client) await closeWithin(client, STOP_TIMEOUT_MS);
    if (this.info.state !== 'failed' && this.info.state !== 'needs-authorization') this.set({ state: 'stopped', pid: undefined });
  }
}

/**
 * Closes a client (its transport: streams aborted, reconnection timers cancelled, a stdio
 * server's group stopped), giving up waiting after `ms`: a stop, and the end of a one-shot
 * command, never wait on a server that does not let go.
 */
async function closeWithin(client: Client, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([client.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** The client SDK once a connection loaded it (every error isUnauthorized sees comes after). */
let clientSdk: typeof import('@modelcontextprotocol/client') | undefined;

function isUnauthorized(e: unknown): boolean {
  return clientSdk?.UnauthorizedError.isInstance(e) === true || /\b401\b/.test(e instanceof Error ? e.message : String(e));
}

function startError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/ENOENT/.test(message)) return 'the command was not found; check the command and that it is installed and on PATH';
  if (/EACCES/.test(message)) return 'the command may not be run (permission denied)';
  if (/Connection closed/i.test(message)) return 'it exited before it answered';
  if (/\b401\b/.test(message)) return 'it requires signing in (OAuth); add it, then sign in from its server panel or with `toolwright authorize <bundle>`';
  return message.slice(0, 500);
}
