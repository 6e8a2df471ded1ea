/** The guard's check of a profile's token at `/mcp/p/<slug>`: one of that profile's tokens, nothing else. */
import type { ProfileTokenCheck } from '../rest/guard.js';
import type { McpCore } from './scope.js';

export function profileTokenCheck(core: Pick<McpCore, 'profileStore' | 'profiles'>): ProfileTokenCheck {
  return {
    async verify(slug, token) {
      const profile = core.profileStore.bySlug(slug);
      return profile ? core.profiles.tokens.verify(profile.profileID, token) : undefined;
    },
    requiredScope: (slug) => core.profileStore.bySlug(slug)?.requiredScope,
  };
}
