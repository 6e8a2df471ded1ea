/**
 * The connected-agents records of the agent surface: a 2025 session (or a stdio connection that
 * initialised) is one record from its start to its end, opened and closed by its transport; a 2026
 * client has no connection to end, so it is listed while it keeps making requests, per audience,
 * channel and client name, and leaves the list after a while without one.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionHandle } from '../agents/connections.js';
import { CoreError } from '../errors.js';

/** A 2026 client leaves the connected-agents list after this long without a request. */
const AGENT_IDLE_MS = 5 * 60 * 1000;

export type Channel = 'stdio' | 'http';

/** Where an agent's request came from: its channel, and its session's connection when it has one. */
export interface Via {
  channel: Channel;
  connectionID?: string;
}

export interface ConnectionOpener {
  open(client: string, transport: Channel): Promise<ConnectionHandle>;
}

export class SurfaceConnections {
  private readonly sessions = new Map<string, Promise<ConnectionHandle | undefined>>();
  private readonly stateless = new Map<string, { handle: Promise<ConnectionHandle | undefined>; idle: NodeJS.Timeout }>();

  constructor(private readonly agents: ConnectionOpener) {}

  async connect(client: string, channel: Channel): Promise<string> {
    const connectionID = randomUUID();
    this.sessions.set(
      connectionID,
      this.agents.open(client, channel).catch(() => undefined),
    );
    return connectionID;
  }

  async disconnect(connectionID: string): Promise<void> {
    const handle = this.sessions.get(connectionID);
    if (!handle) throw new CoreError('NOT_FOUND', `no agent connection ${connectionID}`);
    this.sessions.delete(connectionID);
    await (await handle)?.close();
  }

  /** The record a request of this client belongs to; a 2026 client's is opened, or kept alive, here. */
  private handleOf(audience: string, client: string, via: Via): Promise<ConnectionHandle | undefined> {
    const session = via.connectionID === undefined ? undefined : this.sessions.get(via.connectionID);
    if (session) return session;
    const key = `${audience}\u0000${via.channel}\u0000${client}`;
    let a = this.stateless.get(key);
    if (a) clearTimeout(a.idle);
    else {
      a = { handle: this.agents.open(client, via.channel).catch(() => undefined), idle: undefined as unknown as NodeJS.Timeout };
      this.stateless.set(key, a);
    }
    a.idle = setTimeout(() => void this.closeStateless(key), AGENT_IDLE_MS);
    a.idle.unref();
    return a.handle;
  }

  /** A request that is not a call (tools/list): the client is listed. */
  seen(audience: string, client: string, via: Via): void {
    void this.handleOf(audience, client, via);
  }

  /** A call: the client is listed and its count grows. */
  called(audience: string, client: string, via: Via): void {
    void this.handleOf(audience, client, via).then((h) => h?.recordCall());
  }

  private closeStateless(key: string): Promise<void> {
    const a = this.stateless.get(key);
    if (!a) return Promise.resolve();
    this.stateless.delete(key);
    clearTimeout(a.idle);
    return a.handle.then((h) => h?.close());
  }

  async close(): Promise<void> {
    await Promise.all([...this.stateless.keys()].map((k) => this.closeStateless(k)));
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map(async (h) => (await h)?.close()));
  }
}
