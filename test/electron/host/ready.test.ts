/** `/readyz`: what a load balancer asks before sending traffic, without a token. */
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type TestHost } from '../../helpers/host.js';

describe('the readiness check', () => {
  let host: TestHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('answers 503 until the start-up work is done, then 200; no token needed; /healthz is 200 throughout', async () => {
    let ready = false;
    host = await startHost({ isReady: () => ready });
    const get = async (path: string) => {
      const res = await fetch(host!.url + path);
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await get('/readyz')).toEqual({ status: 503, body: { ready: false } });
    expect((await get('/healthz')).status).toBe(200);
    ready = true;
    expect(await get('/readyz')).toEqual({ status: 200, body: { ready: true } });
  });

  it('a host that does no start-up work of its own is ready at once', async () => {
    host = await startHost();
    const res = await fetch(`${host.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true });
  });
});
