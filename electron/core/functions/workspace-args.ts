/** What every workspace file function shares: the path argument's schema and the availability rule. */
import type { Config } from '../../../shared/schemas.js';
import type { Availability } from '../../../shared/types.js';

export const workspacePathArg = (description: string) => ({
  type: 'string',
  maxLength: 4096,
  description: `${description} Relative to the workspace root, '/' between names; '..', absolute paths and symlinks leading out are refused.`,
});

/** File tools run only inside a workspace folder: without one they are unavailable, and say how to set it. */
export function needsWorkspace(config: Config): Availability {
  return config.workspaceRoot
    ? { ok: true }
    : { ok: false, reason: 'no workspace folder is set: choose one under Settings → Workspace root (file tools work only inside it)' };
}
