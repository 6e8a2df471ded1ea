/**
 * axe-core in the page under test. axe is the rule engine behind Lighthouse and most browser
 * accessibility checkers; it is injected here with playwright-core's page.evaluate (a DevTools
 * call, so the page's CSP, which forbids inline scripts, is left as it is) instead of through
 * @axe-core/playwright, which needs the full @playwright/test package this project does not use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: ImpactValue | null | undefined;
  help: string;
  nodes: { target: string; summary: string }[];
}

const ALL_RULES = { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } as const;

/**
 * The rules of ALL_RULES whose outcome depends on colours. The dark scheme swaps the stylesheet's
 * colour variables and nothing else in the page's document (the one component that reads the
 * scheme, CardFrame, hands it to the card inside its frame, which axe does not enter), so every
 * other rule answers in dark exactly what it answered in light.
 */
const COLOUR_RULES = { type: 'rule', values: ['color-contrast', 'link-in-text-block'] } as const;

/**
 * Runs axe (WCAG 2.x A and AA plus best practices, or with `coloursOnly` the rules that depend on
 * colours) on the page; answers serious and critical findings.
 */
export async function axeViolations(page: Page, minImpact: 'serious' | 'critical' = 'serious', opts: { coloursOnly?: boolean } = {}): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const runOnly = opts.coloursOnly ? COLOUR_RULES : ALL_RULES;
  const results = await page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    // Cards are the tool author's HTML in a sandboxed frame axe cannot enter; the frame itself is checked.
    return JSON.parse(
      JSON.stringify(
        await axe.run(document, {
          runOnly: { type: only.type, values: [...only.values] },
          iframes: false,
          resultTypes: ['violations'],
        }),
      ),
    ) as AxeResults;
  }, runOnly);
  const wanted: ImpactValue[] = minImpact === 'critical' ? ['critical'] : ['serious', 'critical'];
  return results.violations
    .filter((v) => v.impact && wanted.includes(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300) })),
    }));
}

/** One line per finding and node, for a failing assertion that says what to fix. */
export function describeFindings(findings: AxeFinding[]): string[] {
  return findings.flatMap((f) => f.nodes.map((n) => `${f.impact} ${f.id} (${f.help}) at ${n.target}: ${n.summary}`));
}

/**
 * axe in light (every rule) and then in dark (the colour rules: nothing else differs) on the state
 * the page is in: one line per finding, with its scheme. The page is left light.
 */
export async function axeInBothSchemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...describeFindings(await axeViolations(page, 'serious', { coloursOnly: scheme === 'dark' })).map((f) => `[${scheme}] ${f}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
