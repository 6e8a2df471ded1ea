/** Where the store lives by default; its own module so a CLI process names it without loading the core. */
import { join, resolve } from 'node:path';

export function defaultDataDir(userData?: string): string {
  if (process.env['TOOLWRIGHT_DATA_DIR']) return resolve(process.env['TOOLWRIGHT_DATA_DIR']);
  if (userData) return join(userData, 'data');
  // Electron's userData for an app named "Toolwright", computed without Electron so the headless
  // host and the desktop app share one store.
  const home = process.env['HOME'] ?? process.env['USERPROFILE'] ?? '.';
  if (process.platform === 'win32') return join(process.env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Toolwright', 'data');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Toolwright', 'data');
  return join(process.env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'Toolwright', 'data');
}
