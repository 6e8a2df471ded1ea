/**
 * Enabled tools as OpenAI function-calling definitions:
 * `{"type":"function","function":{name, description, parameters}}`, ready to paste into an agent.
 *
 * Function names must match ^[a-zA-Z0-9_-]{1,64}$, so Unicode slugs are transliterated (accents
 * dropped, anything else becomes '_'); the version is added only when two visible tools share a
 * slug, and a numeric suffix only when names still collide. Order: by bundle slug, then slug,
 * then version, so the output is stable.
 */
import type { Store } from '../../store/store.js';
import type { ToolService } from '../../store/tools.js';
import type { OpenAiFunction } from '../../../../shared/types.js';
import { notFound } from '../../errors.js';

export type { OpenAiFunction };

const MAX_NAME = 64;

export function functionName(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (ascii || 'tool').slice(0, MAX_NAME);
}

export function openAiFunctions(store: Store, tools: ToolService, bundleIDs?: string[]): OpenAiFunction[] {
  const wanted = bundleIDs?.length ? new Set(bundleIDs.map((b) => b.toLowerCase())) : undefined;
  for (const id of wanted ?? []) if (!store.state.bundles.has(id)) throw notFound(`bundle ${id}`);
  const recs = [...store.state.tools.values()]
    .filter((r) => (!wanted || wanted.has(r.file.bundleID)) && tools.isVisible(r))
    .sort((a, b) => {
      const ba = store.state.bundles.get(a.file.bundleID)!.file.slug;
      const bb = store.state.bundles.get(b.file.bundleID)!.file.slug;
      return (
        ba.localeCompare(bb) ||
        a.file.slug.localeCompare(b.file.slug) ||
        a.file.version.localeCompare(b.file.version) ||
        a.file.toolID.localeCompare(b.file.toolID)
      );
    });
  const slugCount = new Map<string, number>();
  for (const r of recs) slugCount.set(r.file.slug, (slugCount.get(r.file.slug) ?? 0) + 1);
  const used = new Set<string>();
  return recs.map((r) => {
    const f = r.file;
    const base = functionName((slugCount.get(f.slug) ?? 0) > 1 ? `${f.slug}_${f.version}` : f.slug);
    let name = base;
    for (let i = 2; used.has(name); i++) {
      const suffix = `_${i}`;
      name = base.slice(0, MAX_NAME - suffix.length) + suffix;
    }
    used.add(name);
    const schema = f.argSchema;
    const parameters: Record<string, unknown> =
      typeof schema === 'object' && schema !== null ? { ...(schema as Record<string, unknown>) } : { type: 'object', properties: {} };
    if (parameters['type'] === undefined) parameters['type'] = 'object';
    if (parameters['properties'] === undefined) parameters['properties'] = {};
    delete parameters['$schema'];
    delete parameters['$id'];
    const description = (f.description || f.displayName || f.slug).slice(0, 1024);
    return { type: 'function', function: { name, description, parameters } };
  });
}
