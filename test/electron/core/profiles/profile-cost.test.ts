/**
 * A profile's context cost counts the definitions its agents receive: a per-tool override's name
 * and description replace the tool's own in the count, and the count follows the profile's edits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createCore, type Core } from '../../../../electron/core/app-core.js';
import { LIST_ENVELOPE_TOKENS } from '../../../../electron/core/agents/context-cost.js';
import { tempDir } from '../../../helpers/store.js';

let core: Core;
const bundleID = uuidv7();
const profileID = uuidv7();
let toolID: string;

async function call<T>(name: string, input: unknown): Promise<T> {
  const env = await core.dispatch(name as never, input as never);
  if (!env.ok) throw new Error(`${name}: ${env.error.message}`);
  return env.data as T;
}

interface Cost {
  contextTokens: { listed: number; pending: number };
}

async function listedTokens(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const p = await call<Cost>('profiles.get', { profileID });
    if (p.contextTokens.pending === 0) return p.contextTokens.listed;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the tools were never counted');
}

const put = (overrides?: Record<string, { name?: string; description?: string }>) =>
  call('profiles.put', { profileID, profile: { slug: 'costed', bundles: [bundleID], ...(overrides ? { overrides } : {}) } });

beforeAll(async () => {
  core = await createCore({ dataDir: await tempDir('tw-profile-cost-'), docker: false });
  await call('bundles.put', { bundleID, bundle: { slug: 'ops' } });
  const tool = { type: 'function', description: 'Deploys', impl: { function: 'core.uuid' }, argSchema: { type: 'object', properties: {} } };
  toolID = (await call<{ toolID: string }>('tools.put', { bundleID, slug: 'deploy', version: 'v1', tool })).toolID;
  await call('tools.put', { bundleID, slug: 'status', version: 'v1', tool });
}, 60_000);
afterAll(async () => core?.close());

it("an override's long description raises the profile's listed tokens by what it adds, and dropping it brings them back", async () => {
  await put();
  const plain = await listedTokens();
  const description = 'Deploys the service to the cluster named in the arguments, after the checks pass; '.repeat(10);
  await put({ [toolID]: { name: 'ship_it', description } });
  const overridden = await listedTokens();
  const added = countTokens(JSON.stringify(description)) - countTokens(JSON.stringify('Deploys'));
  expect(overridden - plain).toBeGreaterThanOrEqual(added - 4); // the name changes a token or two as well
  expect(overridden - plain).toBeLessThanOrEqual(added + 4);
  // The sum is of exactly what tools/list gives this profile's agents.
  const detail = await call<{ tools: { name: string }[] }>('profiles.get', { profileID });
  expect(detail.tools.map((t) => t.name).sort()).toEqual(['ship_it', 'status']);
  expect(overridden).toBeGreaterThan(LIST_ENVELOPE_TOKENS);
  await put();
  expect(await listedTokens()).toBe(plain);
});
