/**
 * The Profiles screen in Chromium against the real headless host: a profile made in the app is
 * the profile REST answers; a token is shown once and opens the profile's MCP address until it
 * is revoked; the client configuration names `/mcp/p/<slug>`; a slug taken and a bad override
 * name are shown at their fields. Each screen through axe in light and dark; screenshots (light,
 * dark, 900 px) in test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { api, chromiumAvailable, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';
import { axeInBothSchemes } from './axe.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let bundleID: string;
let createdToken = '';

async function axeBoth(name: string): Promise<void> {
  expect(await axeInBothSchemes(page), `axe on ${name}`).toEqual([]);
}

/** An MCP initialize on the profile's address with this bearer token: the HTTP status it gets. */
async function initializeStatus(slug: string, bearer: string): Promise<number> {
  const res = await fetch(`${host.url}/mcp/p/${slug}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e-profile', version: '1.0.0' } },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

async function profileBySlug(slug: string) {
  return (await api(host, 'profiles.list', {})).items.find((p) => p.slug === slug);
}

describe.runIf(chromiumAvailable())('the Profiles screen', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        bundleID = uuidv7();
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'ops', displayName: 'Operations' } });
        // Put side by side: the two tools of the bundle, and a profile that names none of them.
        await Promise.all([
          ...['rotate-keys', 'list-hosts'].map((slug) =>
            api(host, 'tools.put', {
              bundleID,
              slug,
              version: 'v1',
              tool: { type: 'function', displayName: slug, description: `The ${slug} tool`, safety: 'readOnly', impl: { function: 'core.uuid' } },
            }),
          ),
          api(host, 'profiles.put', { profileID: uuidv7(), profile: { slug: 'taken', displayName: 'Taken', bundles: [], include: [uuidv7()] } }),
        ]);
      },
    });
    ({ host, page, problems } = app);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  it('creates a profile in the app that REST then answers, with the slug taken shown at its field', async () => {
    await page.getByTestId('nav-profiles').click();
    await page.getByTestId('profile-row-taken').waitFor();
    await page.getByTestId('new-profile').click();
    await page.getByTestId('profile-slug').fill('taken');
    await page.getByTestId('profile-name').fill('Ops agent');
    await page.getByTestId('profile-bundle-ops').check();
    await page.getByTestId('profile-mode-search').check();
    expect(await page.getByTestId('profile-mode-all-cost').textContent()).toMatch(/≈ [\d,]+ tokens/);
    expect(await page.getByTestId('profile-mode-search-cost').textContent()).toMatch(/≈ [\d,]+ tokens/);
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-slug-field').textContent()).toContain('taken');
    await shoot(page, 'profile-editor', { scrollTo: 'profile-form' });
    await axeBoth('profile editor');

    await page.getByTestId('profile-slug').fill('ops-agent');
    await page.getByTestId('profile-save').click();
    await expect.poll(async () => (await profileBySlug('ops-agent'))?.mode).toBe('search');
    const saved = (await profileBySlug('ops-agent'))!;
    expect(saved).toMatchObject({ displayName: 'Ops agent', bundles: [bundleID], toolCount: 2 });
    await page.getByTestId('profile-tokens').waitFor();
  }, 60_000);

  it('creates a token shown once, puts it in the client configuration for /mcp/p/<slug>, and revokes it', async () => {
    await page.getByTestId('token-label').fill('laptop');
    await page.getByTestId('token-create').click();
    const dialog = page.getByTestId('token-dialog');
    await dialog.waitFor();
    createdToken = (await page.getByTestId('token-value').textContent())!.trim();
    expect(createdToken.length).toBeGreaterThan(20);
    expect(await dialog.textContent()).toContain('will not be shown again');
    await shoot(page, 'profile-token-dialog', { narrow: false });
    await axeBoth('token dialog');
    await page.getByTestId('token-dialog-close').click();
    await dialog.waitFor({ state: 'hidden' });

    expect(await initializeStatus('ops-agent', createdToken)).toBe(200);
    const tokens = await api(host, 'profiles.tokens.list', { profileID: (await profileBySlug('ops-agent'))!.profileID });
    expect(tokens.items.map((t) => t.label)).toEqual(['laptop']);
    await expect.poll(() => page.getByTestId('profile-tokens').textContent()).toContain('laptop');

    const http = (await page.getByTestId('profile-config-http').textContent())!;
    expect(JSON.parse(http)).toEqual({
      mcpServers: { 'ops-agent': { type: 'http', url: `${host.url}/mcp/p/ops-agent`, headers: { Authorization: `Bearer ${createdToken}` } } },
    });
    const stdio = JSON.parse((await page.getByTestId('profile-config-stdio').textContent())!) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    expect(stdio.mcpServers['ops-agent']!.args.slice(-3)).toEqual(['mcp', '--profile', 'ops-agent']);
    await shoot(page, 'profile-config', { scrollTo: 'profile-tokens' });
    await axeBoth('profile page');

    // Shown once: after a reload the token is nowhere on the page, the configuration has a placeholder.
    await page.reload();
    await page.getByTestId('profile-config-http').waitFor();
    expect(await page.content()).not.toContain(createdToken);
    expect(await page.getByTestId('profile-config-http').textContent()).toContain('<token>');

    await page.getByTestId('token-revoke-laptop').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await api(host, 'profiles.tokens.list', { profileID: (await profileBySlug('ops-agent'))!.profileID })).items).toEqual([]);
    expect(await initializeStatus('ops-agent', createdToken)).toBe(401);
  }, 60_000);

  it('overrides the name a tool is listed under, with a bad name refused at the field; the cost counts the override', async () => {
    const listedCost = async () =>
      Number(/every tool listed ≈ ([\d,]+) tokens/.exec((await page.getByTestId('profile-summary').textContent())!)![1]!.replace(/,/g, ''));
    const before = await listedCost();
    await page.getByTestId('override-rotate-keys').click();
    await page
      .getByTestId('override-description')
      .fill('Rotates the signing keys of the named service and revokes the old ones after the grace period. '.repeat(6));
    await page.getByTestId('override-name').fill('rotate keys!');
    await page.getByTestId('override-save').click();
    await expect.poll(() => page.getByTestId('override-name-field').textContent()).toContain('is not an MCP tool name');
    await page.getByTestId('override-name').fill('rotate_now');
    await page.getByTestId('override-save').click();
    const profileID = (await profileBySlug('ops-agent'))!.profileID;
    await expect.poll(async () => (await api(host, 'profiles.get', { profileID })).tools.find((t) => t.slug === 'rotate-keys')?.name).toBe('rotate_now');
    await expect.poll(() => page.getByTestId('profile-tool-rotate-keys').textContent()).toContain('rotate_now');
    await expect.poll(listedCost).toBeGreaterThan(before + 100);
    // The form's estimate while editing carries the saved override: an edit that changes no tool leaves it at the saved count.
    const formCost = async () => Number(/≈ ([\d,]+) tokens/.exec((await page.getByTestId('profile-mode-all-cost').textContent())!)![1]!.replace(/,/g, ''));
    const saved = await listedCost();
    await expect.poll(formCost).toBe(saved);
    const instructions = await page.getByTestId('profile-instructions').inputValue();
    await page.getByTestId('profile-instructions').fill('Rotate only when asked.');
    await expect.poll(() => page.getByTestId('profile-mode-all-cost').textContent()).toContain('(estimate)');
    expect(await formCost()).toBe(saved);
    await page.getByTestId('profile-instructions').fill(instructions);
  }, 60_000);

  it('edits with the tool picker, and never overwrites a change made elsewhere meanwhile', async () => {
    const profileID = (await profileBySlug('ops-agent'))!.profileID;
    await page.getByTestId('profile-exclude-search').fill('list-hosts');
    await page.getByTestId('profile-exclude-add-list-hosts').click();
    await page.getByTestId('profile-save').click();
    await expect.poll(async () => (await profileBySlug('ops-agent'))?.toolCount).toBe(1);
    const listHosts = (await api(host, 'tools.list', { includeDisabled: true })).items.find((t) => t.slug === 'list-hosts')!;
    expect((await profileBySlug('ops-agent'))!.exclude).toEqual([listHosts.toolID]);

    await page.getByTestId('profile-instructions').fill('Mine');
    const current = (await api(host, 'profiles.get', { profileID }))!;
    await api(host, 'profiles.put', { profileID, profile: { ...current, instructions: 'Theirs' }, ifModifiedAt: current.modifiedAt });
    await page.getByTestId('profile-changed-elsewhere').waitFor();
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('form-alert').textContent()).toMatch(/changed|modified/i);
    expect((await api(host, 'profiles.get', { profileID })).instructions).toBe('Theirs');
    await page.getByTestId('profile-take-theirs').click();
    expect(await page.getByTestId('profile-instructions').inputValue()).toBe('Theirs');
  }, 60_000);

  it('lists the profiles with mode, tool count and both token costs', async () => {
    await page.getByTestId('nav-profiles').click();
    const row = page.getByTestId('profile-row-ops-agent');
    await row.waitFor();
    const text = (await row.textContent())!;
    expect(text).toContain('Ops agent');
    expect(text).toContain('/mcp/p/ops-agent');
    expect(text).toContain('search');
    expect(text).toContain('1 tool');
    expect(text).toMatch(/≈ [\d,]+ tokens/);
    expect(await page.getByTestId('profile-missing-taken').textContent()).toContain('1 tool no longer exists');
    await shoot(page, 'profiles-list');
    await axeBoth('profiles list');
    expect(problems).toEqual([]);
  }, 60_000);
});
