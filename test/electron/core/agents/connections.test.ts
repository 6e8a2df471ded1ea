import { once } from 'node:events';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentConnections } from '../../../../electron/core/agents/connections.js';
import { tempDir } from '../../../helpers/store.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('connected agents, one file each under agents/', () => {
  it('lists a connection with its calls, written at most once a second, again after its folder was removed, and gone when it closes', async () => {
    const dataDir = await tempDir('tw-agents-');
    dirs.push(dataDir);
    const dir = join(dataDir, 'agents');
    const agents = new AgentConnections(dir);
    const handle = await agents.open('claude-code', 'http');
    expect((await agents.list()).map((a) => [a.client, a.calls])).toEqual([['claude-code', 0]]);

    const written = once(agents, 'changed');
    handle.recordCall();
    handle.recordCall();
    handle.recordCall();
    await written;
    const [info] = await agents.list();
    expect(info).toMatchObject({ client: 'claude-code', transport: 'http', pid: process.pid, calls: 3 });
    expect(info!.lastCallAt).not.toBeNull();
    // Whole files only: no temp file is left beside it.
    expect(await readdir(dir)).toEqual([`${info!.connectionID}.json`]);

    // Someone removed the folder: the next write makes it again.
    await rm(dir, { recursive: true });
    const again = once(agents, 'changed');
    handle.recordCall();
    await again;
    expect(JSON.parse(await readFile(join(dir, `${info!.connectionID}.json`), 'utf8'))).toMatchObject({ calls: 4 });

    await handle.close();
    expect(await agents.list()).toEqual([]);
  });
});
