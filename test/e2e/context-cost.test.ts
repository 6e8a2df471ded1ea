/**
 * The context cost and the lint in the app, in Chromium: a bundle's header says how many tools
 * agents see and what they cost, warns when the tools agents see pass a client's limit, and
 * counts the lint's findings; a tool's view shows its count (with the tokenizer named) and the
 * "Agents may misread this tool" panel with each finding's fix. Screenshots in light, dark and
 * 900 px go to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { api, chromiumAvailable } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';

let app: AppSession;
let page: Page;
let problems: string[];

describe.runIf(chromiumAvailable())('context cost and lint in the app', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        const bundleID = uuidv7();
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'fleet', displayName: 'Fleet' } });
        const tool = (description: string, argSchema: Record<string, unknown>) => ({
          type: 'function' as const,
          description,
          impl: { function: 'core.uuid' },
          argSchema,
        });
        await api(host, 'tools.put', {
          bundleID,
          slug: 'forecast',
          version: 'v1',
          tool: { ...tool('Weather', { type: 'object', properties: { city: { type: 'string' } } }), displayName: 'Forecast' },
        });
        // Enough tools that agents see more than Cursor's 40.
        for (let i = 0; i < 42; i++) {
          await api(host, 'tools.put', {
            bundleID,
            slug: `vehicle-${String(i).padStart(2, '0')}`,
            version: 'v1',
            tool: tool(`Reports where vehicle number ${i} of the fleet is and how much fuel it has left`, {
              type: 'object',
              properties: { units: { type: 'string', enum: ['km', 'mi'], description: 'Distance unit of the answer' } },
            }),
          });
        }
      },
    });
    ({ page, problems } = app);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  it("a bundle's header: tools agents see, their cost, findings, and the client limit warning", async () => {
    await page.getByTestId('bundle-fleet').locator('.bundle-open').click();
    const line = page.getByTestId('bundle-agent-cost');
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toMatch(/Agents see 43 tools · ≈ [\d,]+ tokens of context/);
    expect(await line.locator('.context-cost').getAttribute('title')).toContain('o200k_base, the GPT-4o/GPT-5 tokenizer');
    await expect.poll(() => page.getByTestId('bundle-findings').textContent()).toMatch(/\d+ tools agents may misread \(\d+ findings/);
    expect(await page.getByTestId('tool-limit-warning').textContent()).toMatch(/Cursor works with about 40 tools at most/);
    expect(await page.getByTestId('row-context-tokens').first().textContent()).toMatch(/\d+ tok/);
    await shoot(page, 'context-cost-bundle');
  });

  it("a tool's view: its count with the tokenizer named, and what an agent may misread with the fix", async () => {
    await page.getByTestId('tool-row-forecast').click();
    const count = page.getByTestId('tool-context-tokens');
    await count.waitFor();
    expect(await count.textContent()).toMatch(/^≈ \d+ tokens of context$/);
    expect(await count.getAttribute('title')).toContain("other models' tokenizers differ by roughly ±15%");
    const findings = page.getByTestId('tool-findings');
    await findings.waitFor();
    expect(await findings.textContent()).toContain('Agents may misread this tool');
    expect(await page.getByTestId('finding-description-vague').textContent()).toMatch(/one word \('Weather'\).*Fix: say what the tool does/);
    expect(await page.getByTestId('finding-argument-undescribed').textContent()).toContain("add a description to argument 'city': what it is and its format");
    await shoot(page, 'context-cost-tool', { scrollTo: 'tool-findings' });
    expect(problems).toEqual([]);
  });
});
