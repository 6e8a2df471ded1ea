/**
 * Names made from other people's names: a slug from any text, a version label, an
 * UPPER_SNAKE_CASE secret name, and a name not yet taken. What every importer shares (the foreign
 * formats of transfer/, a tool type's own importer) and the benches that imitate them.
 */
import { checkSlug, checkVersion, MAX_SLUG_RUNES } from '../../../shared/slug.js';

/** A Unicode slug from any name: letters and digits kept, everything else folded into single dashes. */
export function slugify(text: string, fallback = 'tool'): string {
  const words = text
    .normalize('NFC')
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1-$2') // camelCase → camel-Case
    .split(/[^\p{L}\p{Nd}\p{Mn}\p{Mc}]+/u)
    .filter(Boolean);
  let slug = words.join('-').toLowerCase();
  slug = [...slug].slice(0, MAX_SLUG_RUNES).join('').replace(/-+$/, '');
  return slug && checkSlug(slug).ok ? slug : fallback;
}

export function versionOf(text: unknown, fallback = 'v1'): string {
  if (typeof text !== 'string' && typeof text !== 'number') return fallback;
  const v = checkVersion(String(text).trim());
  return v.ok ? v.value : fallback;
}

/** UPPER_SNAKE_CASE, as secret names must be: `api-key` → API_KEY, `2fa` → SECRET_2FA. */
export function secretName(text: string): string {
  let name = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  if (!/^[A-Z]/.test(name)) name = `SECRET_${name}`.replace(/_+$/, '');
  return name.slice(0, 128);
}

export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) {
    const suffix = `-${i}`;
    name = [...base].slice(0, MAX_SLUG_RUNES - suffix.length).join('') + suffix;
  }
  taken.add(name);
  return name;
}
