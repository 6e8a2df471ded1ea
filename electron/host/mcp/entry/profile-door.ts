/** The guard's check at a profile's address `/mcp/p/<slug>`: one of that profile's tokens, nothing else (agents.door). */
import type { ProfileTokenCheck } from '../../http/guard.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { Caller } from '../../../../shared/caller.js';

/** The door's own look, before any client has spoken. */
const DOOR: Caller = Object.freeze({ transport: 'mcp', name: 'toolwright' });

export function profileTokenCheck(core: TransportCore): ProfileTokenCheck {
  const door = async (profile: string, token?: string) => {
    const env = await core.dispatch('agents.door', { profile, ...(token !== undefined ? { token } : {}) }, { caller: DOOR });
    return env.ok ? env.data : { exists: false };
  };
  return {
    verify: async (slug, token) => (await door(slug, token)).tokenID,
    requiredScope: async (slug) => (await door(slug)).requiredScope,
  };
}
