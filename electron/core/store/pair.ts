/** The identity of a tool inside its bundle: a <slug,version> pair, NFC-normalised and checked. */
import type { FieldIssue } from '../../../shared/errors.js';
import { checkSlug, checkVersion } from '../../../shared/slug.js';
import { invalid } from '../errors.js';

/** Checks and NFC-normalises a slug/version pair from a path or body; throws INVALID_INPUT. */
export function checkPair(slug: unknown, version: unknown): { slug: string; version: string } {
  const s = checkSlug(slug);
  const v = checkVersion(version);
  const issues: FieldIssue[] = [];
  if (!s.ok) issues.push({ field: 'slug', message: s.message! });
  if (!v.ok) issues.push({ field: 'version', message: v.message! });
  if (issues.length) throw invalid(issues);
  return { slug: s.value, version: v.value };
}
