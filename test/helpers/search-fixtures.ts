/**
 * Fixture builders shared by the search tests and the search bench: deterministic IDs and random
 * numbers, and tool/bundle files that carry only what the index reads (the rest is fixed).
 */
import type { BundleFile, ToolFile } from '../../shared/schemas.js';

/** A valid, sortable UUID whose order follows n, so tests can say which toolID breaks a tie. */
export const fixtureID = (n: number): string => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** mulberry32: a small seeded generator, so a failing random sequence reproduces. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FIXTURE_CREATED_AT = '2025-01-01T00:00:00.000Z';

export function searchBundle(fields: Pick<BundleFile, 'bundleID' | 'slug' | 'displayName'> & Partial<BundleFile>): BundleFile {
  return {
    schemaVersion: '1',
    description: '',
    isEnabled: true,
    isBuiltIn: false,
    createdAt: FIXTURE_CREATED_AT,
    modifiedAt: FIXTURE_CREATED_AT,
    softDeletedAt: null,
    ...fields,
  };
}

/** An enabled function tool; the fields search looks at are the caller's to give. */
export function searchTool(
  fields: Pick<ToolFile, 'toolID' | 'bundleID' | 'slug' | 'displayName' | 'description' | 'modifiedAt'> & Partial<ToolFile>,
): ToolFile {
  return {
    schemaVersion: '1',
    version: '1',
    type: 'function',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: {},
    outputSchema: {},
    impl: { function: 'test.noop' },
    card: { enabled: false },
    limits: {},
    createdAt: FIXTURE_CREATED_AT,
    ...fields,
  };
}
