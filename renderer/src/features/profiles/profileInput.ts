/** A profile as the form edits it, and as profiles.put takes it. */
import type { ProfileFile, ProfileInput, ProfileMode } from '../../../../shared/agents/profiles.js';

export interface ProfileDraft {
  slug: string;
  displayName: string;
  mode: ProfileMode;
  bundles: string[];
  include: string[];
  exclude: string[];
  instructions: string;
  /** The OAuth scope a token needs at this address on a team host; empty: none. */
  requiredScope: string;
}

export const EMPTY_DRAFT: ProfileDraft = { slug: '', displayName: '', mode: 'all', bundles: [], include: [], exclude: [], instructions: '', requiredScope: '' };

export function draftOf(p: ProfileFile): ProfileDraft {
  return {
    slug: p.slug,
    displayName: p.displayName,
    mode: p.mode,
    bundles: p.bundles,
    include: p.include ?? [],
    exclude: p.exclude ?? [],
    instructions: p.instructions ?? '',
    requiredScope: p.requiredScope ?? '',
  };
}

/** The draft over what is stored: the overrides the form does not edit are kept as they are. */
export function inputOf(draft: ProfileDraft, stored?: ProfileFile): ProfileInput {
  return {
    slug: draft.slug.trim(),
    displayName: draft.displayName.trim() || draft.slug.trim(),
    mode: draft.mode,
    bundles: draft.bundles,
    ...(draft.include.length ? { include: draft.include } : {}),
    ...(draft.exclude.length ? { exclude: draft.exclude } : {}),
    ...(stored?.overrides && Object.keys(stored.overrides).length ? { overrides: stored.overrides } : {}),
    ...(draft.instructions.trim() ? { instructions: draft.instructions } : {}),
    ...(draft.requiredScope.trim() ? { requiredScope: draft.requiredScope.trim() } : {}),
  };
}

/** The stored profile with one tool's override set (empty fields: the tool's own text) or removed. */
export function withOverride(stored: ProfileFile, toolID: string, override: { name: string; description: string }): ProfileInput {
  const overrides = { ...(stored.overrides ?? {}) };
  const next = {
    ...(override.name.trim() ? { name: override.name.trim() } : {}),
    ...(override.description.trim() ? { description: override.description } : {}),
  };
  if (Object.keys(next).length) overrides[toolID] = next;
  else delete overrides[toolID];
  return { ...inputOf(draftOf(stored), { ...stored, overrides }), overrides };
}
