/** Debian's Chromium (never a downloaded browser) and the switches every e2e browser starts with. */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// playwright-core adds its own (no background throttling, no renderer backgrounding, no extensions…).
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}
