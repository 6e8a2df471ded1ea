import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { agentTools } from '../../../../electron/core/agents/agent-tools.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('names agents see', () => {
  it('are the slug when unique, get the bundle in front across bundles and the version behind within one, and are stable', async () => {
    t = await openTestStore();
    const travel = uuidv7();
    const ops = uuidv7();
    await t.bundles.put(travel, { slug: 'travel' });
    await t.bundles.put(ops, { slug: 'ops' });
    await t.tools.create({ bundleID: travel, slug: 'weather-forecast', version: 'v1' }, functionTool());
    await t.tools.create({ bundleID: travel, slug: 'lookup', version: 'v1' }, functionTool());
    await t.tools.create({ bundleID: travel, slug: 'lookup', version: 'v2' }, functionTool());
    await t.tools.create({ bundleID: ops, slug: 'lookup', version: 'v1' }, functionTool());
    await t.tools.create({ bundleID: ops, slug: 'météo', version: 'v1' }, functionTool());
    await t.tools.create({ bundleID: ops, slug: 'off', version: 'v1' }, functionTool({ isEnabled: false }));
    const names = () => agentTools(t!.store.reader, t!.tools).map((a) => `${a.bundle.slug}/${a.file.slug}@${a.file.version} → ${a.name}`);
    expect(names()).toEqual([
      'ops/lookup@v1 → ops_lookup',
      'ops/météo@v1 → meteo',
      'travel/lookup@v1 → travel_lookup_v1',
      'travel/lookup@v2 → travel_lookup_v2',
      'travel/weather-forecast@v1 → weather-forecast',
    ]);
    const reopened = await t.reopen();
    expect(agentTools(reopened.store.reader, reopened.tools).map((a) => a.name)).toEqual([
      'ops_lookup',
      'meteo',
      'travel_lookup_v1',
      'travel_lookup_v2',
      'weather-forecast',
    ]);
    // Scoped to one bundle, the names are computed within the scope (as the OpenAI export with bundleIDs).
    expect(agentTools(t.store.reader, t.tools, { bundleIDs: new Set([ops]) }).map((a) => a.name)).toEqual(['lookup', 'meteo']);
  });
});
