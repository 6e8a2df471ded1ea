/**
 * One sign-in to an upstream MCP server, the RFC 8252 native-app pattern: a listener on
 * http://127.0.0.1:<ephemeral>/callback, the SDK's `auth()` to build the authorization URL (PKCE,
 * resource indicator, registration when needed), and on the redirect the SDK's `auth()` again to
 * exchange the code; the tokens land in the secrets store through the provider. The listener
 * answers the browser with a short page and closes; a flow nobody finishes ends after a while.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StoredOAuthProvider, type OAuthSecrets } from './provider.js';

export const FLOW_TIMEOUT_MS = 10 * 60 * 1000;

export interface AuthorizationFlowOptions {
  bundleID: string;
  serverUrl: string;
  /** Shown on the page the browser lands on. */
  serverName: string;
  secrets: OAuthSecrets;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
  timeoutMs?: number;
}

export type FlowOutcome = { ok: true } | { ok: false; error: string };

function page(title: string, text: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>${esc(title)}</title><body style="font-family:system-ui;margin:3rem"><h1>${esc(title)}</h1><p>${esc(text)}</p></body>`;
}

export class AuthorizationFlow {
  /** Where to send the person; undefined when stored tokens were refreshed and no sign-in is needed. */
  authorizationUrl: string | undefined;
  /** Settles once: the code was exchanged, the person refused, or nobody came back in time. */
  readonly outcome: Promise<FlowOutcome>;
  private settle!: (o: FlowOutcome) => void;
  private readonly server = http.createServer();
  private timer: NodeJS.Timeout | undefined;
  private provider!: StoredOAuthProvider;
  /** What this sign-in asks for: the configured scopes and what the server's last challenge asked. */
  private request: { scope?: string; resourceMetadataUrl?: URL } = {};

  private constructor(private readonly opts: AuthorizationFlowOptions) {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
  }

  static async start(opts: AuthorizationFlowOptions): Promise<AuthorizationFlow> {
    const flow = new AuthorizationFlow(opts);
    await flow.begin();
    return flow;
  }

  private async begin(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    const { clientId, clientSecret, clientMetadataUrl, scopes } = this.opts;
    this.provider = new StoredOAuthProvider({
      bundleID: this.opts.bundleID,
      secrets: this.opts.secrets,
      redirectUrl: `http://127.0.0.1:${port}/callback`,
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
      ...(scopes ? { scopes } : {}),
    });
    this.server.on('request', (req, res) => void this.callback(req, res));
    try {
      const { auth, computeScopeUnion } = await import('@modelcontextprotocol/client');
      const challenge = this.provider.challenge();
      const scope = computeScopeUnion(scopes?.join(' '), challenge.scope);
      this.request = {
        ...(scope ? { scope } : {}),
        ...(challenge.resourceMetadataUrl && URL.canParse(challenge.resourceMetadataUrl)
          ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) }
          : {}),
      };
      const result = await auth(this.provider, { serverUrl: this.opts.serverUrl, forceReauthorization: true, ...this.request });
      if (result === 'AUTHORIZED') return this.finish({ ok: true });
    } catch (e) {
      this.close();
      throw e;
    }
    const link = this.provider.authorizationUrl;
    // The link is opened in the system browser: an authorization server's metadata must not make it a file: or app URL.
    if (!link || (link.protocol !== 'https:' && link.protocol !== 'http:')) {
      this.close();
      throw new Error(`the authorization server's link is not an http(s) URL (${link?.protocol ?? 'none'}); check its authorization_endpoint`);
    }
    this.authorizationUrl = link.href;
    this.timer = setTimeout(
      () =>
        this.finish({ ok: false, error: `nobody signed in within ${Math.round((this.opts.timeoutMs ?? FLOW_TIMEOUT_MS) / 60_000)} minutes; sign in again` }),
      this.opts.timeoutMs ?? FLOW_TIMEOUT_MS,
    );
    this.timer.unref();
  }

  private async callback(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const answer = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page(title, text));
    // Another page (or an old tab) must not finish this flow: the state ties the redirect to it.
    if (url.searchParams.get('state') !== this.provider.state()) {
      answer(400, 'Sign-in not recognised', 'This link does not belong to the sign-in Toolwright started. Start signing in again from Toolwright.');
      return;
    }
    const refused = url.searchParams.get('error');
    if (refused) {
      const why = url.searchParams.get('error_description') ?? refused;
      answer(400, 'Not signed in', `${this.opts.serverName} did not authorise Toolwright: ${why}`);
      return this.finish({ ok: false, error: `the authorization server refused the sign-in: ${why.slice(0, 300)}` });
    }
    const code = url.searchParams.get('code');
    if (!code) {
      answer(400, 'Not signed in', 'The redirect carried no authorization code. Start signing in again from Toolwright.');
      return;
    }
    try {
      const { auth } = await import('@modelcontextprotocol/client');
      await auth(this.provider, {
        serverUrl: this.opts.serverUrl,
        ...this.request,
        authorizationCode: code,
        ...(url.searchParams.has('iss') ? { iss: url.searchParams.get('iss')! } : {}),
      });
      answer(200, 'Signed in', `Toolwright is signed in to ${this.opts.serverName}. You can close this tab.`);
      this.finish({ ok: true });
    } catch (e) {
      const message = (e as Error).message.slice(0, 300);
      answer(502, 'Not signed in', `Toolwright could not finish signing in to ${this.opts.serverName}: ${message}`);
      this.finish({ ok: false, error: `the code could not be exchanged for tokens: ${message}` });
    }
  }

  private finish(outcome: FlowOutcome): void {
    this.settle(outcome);
    this.close();
  }

  /** Stops listening (a new sign-in replaces this one, or the app closes). */
  close(): void {
    clearTimeout(this.timer);
    this.settle({ ok: false, error: 'the sign-in was replaced or cancelled' });
    this.server.closeIdleConnections();
    this.server.close();
  }
}
