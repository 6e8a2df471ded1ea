/** What an import or export came to, as the report dialog shows it. */
import type { ContainerImportResult, ImportReport } from '../../../../shared/types.js';

export type Outcome =
  | { kind: 'bundles'; source: string; report: ImportReport; notes?: string[] }
  | { kind: 'container'; source: string; bundleName: string; result: ContainerImportResult; notes: string[] }
  | { kind: 'error'; source: string; title: string; error: unknown }
  | { kind: 'unsupported'; items: { name: string; reason: string }[] };

/** True when the report concerns nothing written at all (every bundle skipped). */
export function nothingLanded(report: ImportReport): boolean {
  return report.created.length === 0 && report.replaced.length === 0;
}

/** Whether a refused conflict cannot be replaced, and why (built-in, or tool IDs owned by another bundle). */
export function replaceBlocker(skipped: ImportReport['skipped'][number], builtinIDs: ReadonlySet<string>): string | undefined {
  if (builtinIDs.has(skipped.bundleID) || /built-in/.test(skipped.reason)) return `${skipped.slug} is a built-in bundle here, and built-ins are read-only`;
  if (/tool IDs?/.test(skipped.reason)) return `tools of ${skipped.slug} carry IDs that another bundle here already uses`;
  return undefined;
}

/** Whether an import error asks for the API's base URL (OpenAPI documents with a relative or missing server). */
export function needsServerUrl(error: { message: string; details?: { issues?: { field: string; message: string }[] } } | undefined): boolean {
  if (!error) return false;
  return /serverUrl/.test(error.message) || (error.details?.issues ?? []).some((i) => /serverUrl/.test(i.message) || i.field === 'serverUrl');
}
