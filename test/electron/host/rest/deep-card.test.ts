/**
 * A real container tool whose card html is 5,000 elements deep, invoked through the real host: the
 * sanitiser cannot take such html, so the card loses its html (with a note saying why) and the
 * invoke still answers ok with the tool's value, in the history as a success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { dockerTestsEnabled, ensureProbeImage } from '../../../helpers/docker.js';

const dockerOn = await dockerTestsEnabled();

describe.skipIf(!dockerOn)('a container tool with a card nested too deep (requires Docker)', () => {
  let h: TestHost;
  let bundleID: string;
  const tool = () => `/tools/bundles/${bundleID}/tools/probe/version/v1`;

  beforeAll(async () => {
    h = await startHost({ docker: true });
    bundleID = (await h.api('PUT', '/tools/bundles/0190f0a0-0000-7000-8000-00000000dee9', { slug: 'deep' })).body.bundleID;
    const image = await ensureProbeImage(new Dockerode());
    const put = await h.api('PUT', `${tool()}`, {
      type: 'container',
      impl: { image, timeoutSeconds: 60 },
      argSchema: { type: 'object', properties: { mode: { type: 'string' } } },
      card: { enabled: true, title: 'Deep' },
      limits: { maxOutputBytes: 1_000_000 }, // the whole html reaches the card, uncut
    });
    expect(put.status).toBe(201);
  }, 180_000);
  afterAll(async () => h?.close());

  it('answers ok with the value; the card keeps its title, drops its html and says why', async () => {
    const r = await h.api('POST', `${tool()}/invoke`, { args: { mode: 'deep-html' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ok, JSON.stringify(r.body.error)).toBe(true);
    expect(r.body.value).toMatchObject({ text: 'deep' });
    expect(r.body.card.title).toBe('Deep');
    expect(r.body.card.html).toBeUndefined();
    expect(r.body.card.note).toMatch(/nests deeper than/);
    const history = await h.api('GET', `${tool()}/history`);
    expect(history.body.items[0]).toMatchObject({ invocationID: r.body.invocationID, status: 'ok' });
  });
});
