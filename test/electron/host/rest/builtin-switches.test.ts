import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHost, type TestHost } from '../../../helpers/host.js';

const CORE_BUNDLE = '0190a000-0000-7000-8000-00000000c0e0';
const calc = `/tools/bundles/${CORE_BUNDLE}/tools/calc/version/v1`;
const now = `/tools/bundles/${CORE_BUNDLE}/tools/now/version/v1`;

let h: TestHost;
beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h.close();
});

const stateFile = () => join(h.dataDir, 'builtin-state.json');
const readState = () => readFile(stateFile(), 'utf8').catch(() => '');

describe('built-in tools switched while their bundle is off (issue 35 point 9)', () => {
  it('refuses the switch with 409 BUNDLE_DISABLED saying to switch the bundle on first, and keeps every switch as it was', async () => {
    expect((await h.api('PATCH', `/tools/bundles/${CORE_BUNDLE}`, { isEnabled: false })).status).toBe(200);
    const before = await readState();
    for (const isEnabled of [false, true]) {
      const res = await h.api('PATCH', calc, { isEnabled });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('BUNDLE_DISABLED');
      expect(res.body.error.message).toBe("bundle 'core' is switched off; switch it on before you switch its tools on or off");
    }
    expect(await readState()).toBe(before);
    expect((await h.api('GET', calc)).body.isEnabled).toBe(true);

    // Once the bundle is on again, the switch is the person's as before.
    expect((await h.api('PATCH', `/tools/bundles/${CORE_BUNDLE}`, { isEnabled: true })).status).toBe(200);
    const off = await h.api('PATCH', calc, { isEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body.isEnabled).toBe(false);
    expect(JSON.parse(await readState()).tools['0190a000-0000-7000-8000-00000000c001']).toBe(false);
    expect((await h.api('PATCH', calc, { isEnabled: true })).body.isEnabled).toBe(true);
  });

  it('reads the bundle switch from disk under the lock: a bundle another process switched off refuses at once', async () => {
    // Another process (or a person in an editor) writes builtin-state.json; this host's memory may not have seen it yet.
    await writeFile(stateFile(), JSON.stringify({ bundles: { [CORE_BUNDLE]: false }, tools: {} }));
    const res = await h.api('PATCH', now, { isEnabled: false });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe('BUNDLE_DISABLED');
    expect(JSON.parse(await readState())).toEqual({ bundles: { [CORE_BUNDLE]: false }, tools: {} });
  });
});
