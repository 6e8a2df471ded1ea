/**
 * Chalie tool folders as people write them (a folder of our own in Chalie's shape): a flat
 * config_schema of settings, `returns`, a `trigger`, and litter that must not travel (.env,
 * __pycache__, .pyc).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { ContainerImpl } from '../../../../shared/schemas.js';
import { freshTransferStores } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);

const manifest = {
  name: 'news-digest',
  version: '1.4.0',
  description: 'Headlines of the day',
  trigger: { type: 'cron', schedule: '0 8 * * *' },
  parameters: { topic: { type: 'string', required: true } },
  config_schema: {
    NEWS_API_KEY: { type: 'string', secret: true, description: 'Key of the news service' },
    MAX_ITEMS: { type: 'integer', default: 5, description: 'How many headlines' },
    REGION: { type: 'string', default: 'eu' },
    VERBOSE: { type: 'boolean' },
  },
  returns: { headlines: { type: 'array', description: 'The headlines' }, count: { type: 'integer' } },
};

describe('Chalie tool folders', () => {
  it('become a container tool with its secrets, settings (with defaults) and output schema; .env and caches stay behind', async () => {
    const t = await fresh();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'chalie' });
    const result = await t.transfer.importContainerFiles(bundleID, [
      { path: 'news-digest/manifest.json', content: JSON.stringify(manifest) },
      { path: 'news-digest/Dockerfile', content: 'FROM busybox\nCOPY runner.py /\n' },
      { path: 'news-digest/runner.py', content: 'print("{}")\n' },
      { path: 'news-digest/.env', content: 'NEWS_API_KEY=real-key-do-not-ship\n' },
      { path: 'news-digest/__pycache__/runner.cpython-312.pyc', content: 'xx' },
      { path: 'news-digest/lib/helper.pyc', content: 'xx' },
    ]);
    const impl = result.tool.impl as ContainerImpl;
    // Stored app-wide under a name of this tool's own; the container still reads NEWS_API_KEY.
    expect(impl.secrets).toEqual(['NEWS_DIGEST_NEWS_API_KEY']);
    expect(impl.settings).toEqual({ NEWS_API_KEY: { secret: 'NEWS_DIGEST_NEWS_API_KEY' }, MAX_ITEMS: 5, REGION: 'eu', VERBOSE: null });
    expect(result.tool.outputSchema).toEqual({
      type: 'object',
      properties: { headlines: { type: 'array', description: 'The headlines' }, count: { type: 'integer' } },
    });
    expect(result.secrets).toEqual(['NEWS_DIGEST_NEWS_API_KEY']); // what availability will say is missing until it is set
    const notes = result.warnings.join('\n');
    expect(notes).toMatch(/\.env/);
    expect(notes).toMatch(/trigger/);
    const dir = t.store.state.tools.get(result.tool.toolID)!.dir;
    const { readdir } = await import('node:fs/promises');
    const listing = (await readdir(dir, { recursive: true })).map(String).sort();
    expect(listing).not.toContain('.env');
    expect(listing.some((p) => p.includes('__pycache__') || p.endsWith('.pyc'))).toBe(false);
    expect(listing).toContain('runner.py');
  });

  it('has a dry run with the same report shape, writing nothing', async () => {
    const t = await fresh();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'chalie-dry' });
    const files = [
      { path: 'manifest.json', content: JSON.stringify(manifest) },
      { path: 'Dockerfile', content: 'FROM busybox\n' },
      { path: '.env', content: 'SECRET=1\n' },
    ];
    const dry = await t.transfer.importContainerFiles(bundleID, files, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, secrets: ['NEWS_DIGEST_NEWS_API_KEY'], files: ['Dockerfile', 'manifest.json'] });
    expect(dry.tool.slug).toBe('news-digest');
    expect(t.store.state.toolIDsOf(bundleID)).toEqual([]);
    const real = await t.transfer.importContainerFiles(bundleID, files);
    expect(real.dryRun).toBeUndefined();
    expect(real.files).toEqual(dry.files);
    // A second dry run now meets the tool it would collide with.
    await expect(t.transfer.importContainerFiles(bundleID, files, { dryRun: true })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
