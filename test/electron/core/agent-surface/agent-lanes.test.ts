/** An agent's queue of side-effecting calls (agent-lanes.ts): order, release, and a wait given up. */
import { describe, expect, it } from 'vitest';
import { AgentLanes, agentKey, queues } from '../../../../electron/core/agent-surface/agent-lanes.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('AgentLanes', () => {
  it('lets one call of an agent run at a time, the next in arrival order, and other agents at once', async () => {
    const lanes = new AgentLanes();
    const order: string[] = [];
    const first = await lanes.enter('a');
    const second = lanes.enter('a').then((r) => (order.push('second'), r));
    const third = lanes.enter('a').then((r) => (order.push('third'), r));
    const other = await lanes.enter('b');
    await tick();
    expect(order).toEqual([]);
    expect(lanes.depth('a')).toBe(3);
    first();
    first(); // a second release changes nothing
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    expect(lanes.depth('a')).toBe(0);
    other();
  });

  it('takes a call whose agent gave up out of the queue without running it', async () => {
    const lanes = new AgentLanes();
    const first = await lanes.enter('a');
    const gaveUp = new AbortController();
    const abandoned = lanes.enter('a', gaveUp.signal);
    let thirdRan = false;
    const third = lanes.enter('a').then((r) => ((thirdRan = true), r));
    gaveUp.abort();
    await expect(abandoned).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(lanes.depth('a')).toBe(2);
    first();
    (await third)();
    expect(thirdRan).toBe(true);
    expect(lanes.depth('a')).toBe(0);
  });

  it('names an agent by its connection, else by its principal and client; only agents’ non-read-only calls queue', () => {
    const caller = { transport: 'mcp' as const, name: 'claude' };
    expect(agentKey(caller, { channel: 'http', connectionID: 'c1' })).not.toBe(agentKey(caller, { channel: 'http', connectionID: 'c2' }));
    expect(agentKey(caller, { channel: 'http' })).toBe(agentKey(caller));
    expect(agentKey(caller)).not.toBe(agentKey({ ...caller, name: 'cursor' }));
    expect(agentKey(caller)).not.toBe(agentKey({ ...caller, token: 't1' }));
    expect(queues(caller, 'sideEffecting')).toBe(true);
    expect(queues(caller, 'privileged')).toBe(true);
    expect(queues(caller, 'readOnly')).toBe(false);
    expect(queues({ transport: 'rest', name: 'rest' }, 'sideEffecting')).toBe(false);
  });
});
