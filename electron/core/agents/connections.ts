/**
 * The agents connected right now, across processes: each MCP connection (an agent's own `toolwright
 * mcp` process, or a session on /mcp) keeps a small file under `<data>/agents/` while it lives,
 * so the app can show who is connected, since when and how many calls they made. A file whose
 * process is gone is ignored and swept.
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AgentConnection } from '../../../shared/types.js';
import { pidAlive, writeFileWhole } from '../fs/atomic.js';
import { parseJsonText } from '../fs/json-text.js';

const CONNECTION_FILE = /^[0-9a-f-]{36}\.json$/;
/** Call counts are written at most this often, so a busy agent does not write a file per call. */
const WRITE_EVERY_MS = 1000;

export interface ConnectionHandle {
  recordCall(): void;
  close(): Promise<void>;
}

export class AgentConnections extends EventEmitter<{ changed: [] }> {
  constructor(
    private readonly dir: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super();
  }

  async open(client: string, transport: AgentConnection['transport']): Promise<ConnectionHandle> {
    const info: AgentConnection = {
      connectionID: randomUUID(),
      client,
      transport,
      pid: process.pid,
      since: this.clock().toISOString(),
      calls: 0,
      lastCallAt: null,
    };
    const file = join(this.dir, `${info.connectionID}.json`);
    // Not fsynced: the file describes a live process, and list() sweeps it once that process is
    // gone, so a crash has nothing to keep. An fsync and a folder sync a second per busy agent
    // also lengthened the durable audit's fdatasync on the same disk (issue 32, point 5).
    const write = async () => {
      const text = JSON.stringify(info, null, 2) + '\n';
      await writeFileWhole(file, text).catch(async (e: unknown) => {
        // The folder's first file, or the folder was removed: made (again) here, not before every write.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        await fsp.mkdir(this.dir, { recursive: true });
        await writeFileWhole(file, text);
      });
      this.emit('changed');
    };
    await write().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    return {
      recordCall: () => {
        info.calls++;
        info.lastCallAt = this.clock().toISOString();
        if (timer || closed) return;
        timer = setTimeout(() => {
          timer = undefined;
          if (!closed) void write().catch(() => undefined);
        }, WRITE_EVERY_MS);
        timer.unref();
      },
      close: async () => {
        closed = true;
        if (timer) clearTimeout(timer);
        await fsp.rm(file, { force: true }).catch(() => undefined);
        this.emit('changed');
      },
    };
  }

  /** Live connections, oldest first; files of processes that are gone are removed. */
  async list(): Promise<AgentConnection[]> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    const out: AgentConnection[] = [];
    for (const name of names) {
      if (!CONNECTION_FILE.test(name)) continue;
      const path = join(this.dir, name);
      const text = await fsp.readFile(path, 'utf8').catch(() => undefined);
      const parsed = text === undefined ? undefined : parseJsonText(text);
      const info = parsed?.ok ? (parsed.value as AgentConnection) : undefined;
      if (!info || typeof info.pid !== 'number' || !pidAlive(info.pid)) {
        if (text !== undefined) await fsp.rm(path, { force: true }).catch(() => undefined);
        continue;
      }
      out.push(info);
    }
    return out.sort((a, b) => a.since.localeCompare(b.since));
  }
}
