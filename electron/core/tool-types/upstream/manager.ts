/**
 * The upstream MCP servers of this process: one managed connection per bundle with a `source`,
 * and the snapshot of what each server last said its tools are
 * (`<data>/bundles/<bundleID>/upstream.json`, shared by every process through the store's
 * watcher). Availability of an `mcp` tool is judged from the snapshot, so it is cheap and never
 * starts a server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpstreamSnapshot, UpstreamStatus } from '../../../../shared/upstream.js';
import type { StoreEvent } from '../../../../shared/operations.js';
import { CoreError } from '../../errors.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import type { Logger } from '../../log.js';
import type { StoreReader } from '../../store/reader.js';
import type { DataPaths } from '../../data-paths.js';
import { UpstreamConnection } from './connection.js';
import { resolveSource } from './source.js';
import { oauthSecretNames, StoredOAuthProvider, type OAuthSecrets } from './oauth/provider.js';
import { AuthorizationFlow } from './oauth/flow.js';
import { DEFAULT_UPSTREAM_IDLE_MINUTES } from '../../../../shared/limits.js';

export const SNAPSHOT_FILE = 'upstream.json';
export const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface UpstreamManagerOptions {
  paths: DataPaths;
  reader: () => StoreReader;
  /** Reads the placeholders' values; keeps the OAuth clients and tokens of servers signed in to. */
  secrets: OAuthSecrets;
  log: Logger;
  emit: (e: StoreEvent) => void;
  appVersion?: string;
  /** Servers not called for this long are stopped (started again on the next call); 0: never. Read when a server falls idle. */
  idleMs?: () => number;
  startTimeoutMs?: number;
  /** A server said its tools changed (its `notifications/tools/list_changed`): the type's service syncs the bundle. */
  onToolsChanged?: (bundleID: string) => void;
}

export class UpstreamManager {
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly snapshots = new Map<string, UpstreamSnapshot | null>();
  private readonly flows = new Map<string, AuthorizationFlow>();
  /** The stored tokens (or '' for none) when a server's connection last met a refusal that asks for a sign-in. */
  private readonly refusedWith = new Map<string, string>();

  constructor(private readonly opts: UpstreamManagerOptions) {}

  private snapshotPath(bundleID: string): string {
    return join(this.opts.paths.bundleDir(bundleID), SNAPSHOT_FILE);
  }

  /** What the server said at the last sync, or undefined before the first. */
  snapshot(bundleID: string): UpstreamSnapshot | undefined {
    if (!this.snapshots.has(bundleID)) {
      let snap: UpstreamSnapshot | null = null;
      try {
        const parsed = JSON.parse(readFileSync(this.snapshotPath(bundleID), 'utf8')) as UpstreamSnapshot;
        if (parsed && typeof parsed === 'object' && parsed.tools && typeof parsed.tools === 'object') snap = parsed;
      } catch {
        snap = null;
      }
      this.snapshots.set(bundleID, snap);
    }
    return this.snapshots.get(bundleID) ?? undefined;
  }

  async writeSnapshot(bundleID: string, snapshot: UpstreamSnapshot): Promise<void> {
    await writeFileAtomic(this.snapshotPath(bundleID), JSON.stringify(snapshot, null, 2) + '\n');
    this.snapshots.set(bundleID, snapshot);
    this.opts.emit({ type: 'bundle.changed', bundleID });
  }

  /** The snapshot file changed on disk (another process synced): read it again, and let readers know. */
  snapshotChanged(bundleID: string): void {
    this.snapshots.delete(bundleID);
    this.opts.emit({ type: 'bundle.changed', bundleID });
  }

  connection(bundleID: string): UpstreamConnection {
    let c = this.connections.get(bundleID);
    if (!c) {
      c = new UpstreamConnection({
        bundleID,
        source: () => {
          const bundle = this.opts.reader().bundle(bundleID);
          const source = bundle?.file.source;
          if (!source)
            throw new CoreError('TOOL_UNAVAILABLE', `bundle ${bundle?.file.slug ?? bundleID} has no upstream MCP server (its bundle.json has no source)`);
          return resolveSource(source, this.opts.secrets);
        },
        startTimeoutMs: this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        idleMs: this.opts.idleMs ?? (() => DEFAULT_UPSTREAM_IDLE_MINUTES * 60_000),
        appVersion: this.opts.appVersion ?? '0.1.0',
        onToolsChanged: () => this.opts.onToolsChanged?.(bundleID),
        onStatus: () => {
          if (this.connections.get(bundleID)?.status().state === 'needs-authorization') this.refusedWith.set(bundleID, this.storedTokens(bundleID));
          this.opts.emit({ type: 'upstream.changed', bundleID });
        },
        log: this.opts.log,
        oauthProvider: (settings) => new StoredOAuthProvider({ bundleID, secrets: this.opts.secrets, ...settings }),
        signInHint: () => {
          const slug = this.opts.reader().bundle(bundleID)?.file.slug ?? bundleID;
          return `choose "Sign in" in the server panel of bundle ${slug}, or run \`toolwright authorize ${slug}\``;
        },
      });
      this.connections.set(bundleID, c);
    }
    return c;
  }

  /** The idle setting changed: applied to every running server now. */
  idleChanged(): void {
    for (const c of this.connections.values()) c.idleChanged();
  }

  status(bundleID: string): UpstreamStatus {
    this.noticeSignInElsewhere(bundleID);
    const status = this.connections.get(bundleID)?.status() ?? { state: 'stopped', restarts: 0, stderr: '' };
    const url = this.flows.get(bundleID)?.authorizationUrl;
    return url ? { ...status, state: 'needs-authorization', authorizationUrl: url } : status;
  }

  private storedTokens(bundleID: string): string {
    return this.opts.secrets.get(oauthSecretNames(bundleID).tokens) ?? '';
  }

  /**
   * A sign-in finished in another process (the app, the CLI, another host on this data folder):
   * its tokens reached this process through the secrets store's watcher, but this process's
   * connection still holds the refusal it met. Once the stored tokens differ from those it was
   * refused with, the connection is dropped, so the server's tools are offered again (agents get
   * list_changed) and the next call connects with the new tokens. Asked on every status read: the
   * comparison runs only while a server waits for a sign-in.
   */
  private noticeSignInElsewhere(bundleID: string): void {
    const c = this.connections.get(bundleID);
    if (!c || this.flows.has(bundleID) || c.status().state !== 'needs-authorization') return;
    const tokens = this.storedTokens(bundleID);
    if (!tokens || tokens === this.refusedWith.get(bundleID)) return;
    this.connections.delete(bundleID);
    this.refusedWith.delete(bundleID);
    void c.stop();
    // Told after the read that noticed it, never from inside a reader's own computation.
    queueMicrotask(() => this.opts.emit({ type: 'upstream.changed', bundleID }));
  }

  /** Whether a URL is the link of a sign-in this process started (the desktop shell opens only those in the browser). */
  isPendingAuthorizationUrl(url: string): boolean {
    return [...this.flows.values()].some((f) => f.authorizationUrl === url);
  }

  /**
   * Starts signing in to a bundle's HTTP server (a sign-in already waiting is replaced): the
   * link for the person, then, in the background, the code exchanged on the loopback redirect,
   * the tokens stored and the server connected again.
   */
  async authorize(bundleID: string): Promise<{ authorizationUrl?: string }> {
    const bundle = this.opts.reader().bundle(bundleID);
    const source = bundle?.file.source;
    if (!bundle || !source)
      throw new CoreError('INVALID_INPUT', `bundle ${bundle?.file.slug ?? bundleID} has no upstream MCP server (its bundle.json has no source)`);
    const resolved = resolveSource(source, this.opts.secrets);
    if (resolved.transport !== 'http' || !resolved.oauth) {
      throw new CoreError(
        'INVALID_INPUT',
        resolved.transport === 'http'
          ? `bundle ${bundle.file.slug} sends its own Authorization header; remove that header to sign in with OAuth instead`
          : `bundle ${bundle.file.slug} runs its server as a command; only a server reached over HTTP is signed in to`,
      );
    }
    this.flows.get(bundleID)?.close();
    this.flows.delete(bundleID);
    // The server's own challenge says what the sign-in must cover (the scope, where its metadata
    // is when no well-known address has it); a connection attempt meets it and the provider keeps
    // it. A challenge an earlier call met (a 403 for a larger scope) is kept too.
    await this.connection(bundleID)
      .listTools()
      .catch(() => undefined);
    let flow: AuthorizationFlow;
    try {
      flow = await AuthorizationFlow.start({
        bundleID,
        serverUrl: resolved.url,
        serverName: bundle.file.displayName ?? bundle.file.slug,
        secrets: this.opts.secrets,
        ...resolved.oauth,
      });
    } catch (e) {
      throw new CoreError('UPSTREAM_ERROR', `could not start signing in to ${resolved.url.replace(/[?#].*$/, '')}: ${(e as Error).message.slice(0, 500)}`);
    }
    if (!flow.authorizationUrl) {
      await this.signedIn(bundleID);
      return {};
    }
    this.flows.set(bundleID, flow);
    this.opts.log.info(`sign in to the MCP server of bundle ${bundle.file.slug} by opening ${flow.authorizationUrl}`);
    this.opts.emit({ type: 'upstream.changed', bundleID });
    void flow.outcome.then(async (outcome) => {
      if (this.flows.get(bundleID) !== flow) return;
      // The link stays in the status until the new connection's state is known: no moment reads as failed.
      if (outcome.ok) await this.signedIn(bundleID);
      else this.connection(bundleID).markNeedsAuthorization(`signing in did not finish: ${outcome.error}`);
      if (this.flows.get(bundleID) === flow) this.flows.delete(bundleID);
      this.opts.emit({ type: 'upstream.changed', bundleID });
    });
    return { authorizationUrl: flow.authorizationUrl };
  }

  /** Tokens are stored: a connection that met 401 is replaced by one that uses them. */
  private async signedIn(bundleID: string): Promise<void> {
    await this.stop(bundleID);
    await this.connection(bundleID)
      .connect()
      .catch((e: unknown) => this.opts.log.warn(`upstream ${bundleID}: after signing in: ${(e as Error).message}`));
  }

  /** Stops a bundle's server (its source changed, or the bundle went away). */
  async stop(bundleID: string): Promise<void> {
    const c = this.connections.get(bundleID);
    this.connections.delete(bundleID);
    await c?.stop();
  }

  /** Stops every server: closing Toolwright leaves no child behind. */
  async close(): Promise<void> {
    for (const f of this.flows.values()) f.close();
    this.flows.clear();
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
  }
}
