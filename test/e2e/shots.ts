/**
 * Screenshots of a view as people see it: light, dark, and 900 px wide (light), into
 * test-results/e2e/ or the folder named by TW_SHOTS_DIR. `scrollTo` brings an element (by test
 * id) into view first in each variant, since a narrower window moves it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { animationsFinished, PROJECT_ROOT } from './harness.js';

const DIR = process.env['TW_SHOTS_DIR'] ?? join(PROJECT_ROOT, 'test-results', 'e2e');

export async function shoot(page: Page, name: string, opts: { scrollTo?: string; narrow?: boolean } = {}): Promise<void> {
  await mkdir(DIR, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 820 };
  const frame = async (file: string) => {
    if (opts.scrollTo) {
      // Scroll the screen's own scroller only (scrollIntoView would move the window too, hiding the top bar).
      await page
        .getByTestId(opts.scrollTo)
        .first()
        .evaluate((el) => {
          const main = el.closest('main') ?? document.scrollingElement!;
          main.scrollTop += el.getBoundingClientRect().top - main.getBoundingClientRect().top - 12;
          window.scrollTo(0, 0);
        });
    }
    await animationsFinished(page);
    await page.screenshot({ path: join(DIR, `${file}.png`) });
  };
  await frame(`${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await frame(`${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  if (opts.narrow !== false) {
    await page.setViewportSize({ width: 900, height: size.height });
    await frame(`${name}-900`);
    await page.setViewportSize(size);
  }
}
