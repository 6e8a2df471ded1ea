/**
 * Pipelines across machines. A step names its tool by slug and version, in the pipeline's own
 * bundle or in the bundle `bundleID` names; bundle IDs differ between machines and change when a
 * bundle is imported as a copy. So:
 *
 * - an export carries the bundles its pipelines call into (built-ins excepted: every install has
 *   them under the same ID), and writes beside each step's `bundleID` the bundle's slug
 *   (`bundleSlug`), so an import can find the tool by name where that ID is not known;
 * - an import re-links each step of the pipelines it writes: to the new ID of a bundle it copies,
 *   to the ID the archive gave when that bundle is here (written or already present), else to
 *   the one bundle here of that slug holding the tool. Steps that find no tool are reported per
 *   pipeline (ImportReport.pipelines, and a warning); such a pipeline stays unavailable, naming
 *   the missing tool, until it exists. A pipeline that would call itself is refused, and nothing
 *   is written.
 *
 * The generic side (which bundles travel, when the hooks run) is transfer/pipeline-links.ts.
 */
import type { FieldIssue } from '../../../../shared/errors.js';
import type { ToolFile } from '../../../../shared/schemas.js';
import type { PipelineLinkReport } from '../../../../shared/types.js';
import type { PipelineImpl, PipelineStep, StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import { toolKey } from '../../../../shared/slug.js';
import { invalid } from '../../errors.js';
import type { ToolCatalog } from '../../store/tool-catalog.js';
import type { ImportDraft, TransferHooks } from '../tool-type.js';
import { cycleIssues } from './refs.js';

function stepsOf(file: ToolFile): PipelineStep[] | undefined {
  if (file.type !== 'pipeline') return undefined;
  const steps = (file.impl as { steps?: unknown }).steps;
  return Array.isArray(steps) ? (steps as PipelineStep[]) : undefined;
}

/** The store as it will be once the drafts are written: drafts win over bundles of the same ID. */
function overlay(base: ToolCatalog, drafts: readonly ImportDraft[]): ToolCatalog {
  const byID = new Map(drafts.map((d) => [d.file.bundleID, d]));
  const tools = new Map(drafts.map((d) => [d.file.bundleID, new Map(d.tools.map((t) => [toolKey(t.file.slug, t.file.version), t.file]))]));
  return {
    bundle: (id) => byID.get(id.toLowerCase())?.file ?? base.bundle(id),
    tool(bundleID, slug, version) {
      const id = bundleID.toLowerCase();
      return byID.has(id) ? tools.get(id)!.get(toolKey(slug.normalize('NFC'), version.normalize('NFC'))) : base.tool(id, slug, version);
    },
    bundlesWithSlug(slug) {
      const own = drafts.filter((d) => d.file.slug === slug.normalize('NFC')).map((d) => d.file);
      return [...own, ...base.bundlesWithSlug(slug).filter((b) => !byID.has(b.bundleID))];
    },
  };
}

type Link = { ref: StepToolRef; relinked: boolean } | { missing: string };

function link(ref: StepToolRef, ownBundleID: string, finalIDs: ReadonlyMap<string, string>, catalog: ToolCatalog): Link {
  const { slug, version } = ref;
  if (ref.bundleID === undefined) {
    return catalog.tool(ownBundleID, slug, version) ? { ref, relinked: false } : { missing: `its own bundle has no tool ${slug} ${version}` };
  }
  const archived = ref.bundleID.toLowerCase();
  const candidate = finalIDs.get(archived) ?? archived;
  const plain = { bundleID: candidate, slug, version };
  if (catalog.tool(candidate, slug, version)) return { ref: plain, relinked: candidate !== archived };
  if (ref.bundleSlug) {
    const holders = catalog.bundlesWithSlug(ref.bundleSlug).filter((b) => catalog.tool(b.bundleID, slug, version));
    if (holders.length === 1) return { ref: { ...plain, bundleID: holders[0]!.bundleID }, relinked: true };
    if (holders.length > 1) return { missing: `${holders.length} bundles named ${ref.bundleSlug} hold ${slug} ${version}; pick one in the pipeline's editor` };
  }
  return { missing: `no bundle here holds ${ref.bundleSlug ?? archived}/${slug} ${version}` };
}

/**
 * Re-links the steps of every pipeline the import writes. `finalIDs` maps each bundle ID of the
 * archive to the ID it has here after the import (a copy's new ID; the same ID otherwise).
 * Throws INVALID_INPUT when a pipeline would call itself.
 */
function relinkPipelines<D extends ImportDraft>(drafts: readonly D[], finalIDs: ReadonlyMap<string, string>, base: ToolCatalog) {
  const catalog = overlay(base, drafts);
  const reports: PipelineLinkReport[] = [];
  const warnings: string[] = [];
  const out = drafts.map((draft): D => {
    const ownBundleID = draft.file.bundleID;
    let changed = false;
    const tools = draft.tools.map((t) => {
      const steps = stepsOf(t.file);
      if (!steps) return t;
      const report: PipelineLinkReport = { bundleID: ownBundleID, slug: t.file.slug, version: t.file.version, relinked: 0, missing: [] };
      const linked = steps.map((step) => {
        const l = link(step.tool, ownBundleID, finalIDs, catalog);
        if ('missing' in l) {
          const where = step.tool.bundleID === undefined ? '' : `${step.tool.bundleSlug ?? step.tool.bundleID}/`;
          report.missing.push({ step: step.id, tool: `${where}${step.tool.slug} ${step.tool.version}`, reason: l.missing });
          return step;
        }
        if (l.relinked) report.relinked++;
        return l.ref === step.tool ? step : { ...step, tool: l.ref };
      });
      reports.push(report);
      if (report.missing.length) {
        warnings.push(
          `pipeline ${t.file.slug} ${t.file.version} calls tools that are not here (${report.missing.map((m) => `step "${m.step}": ${m.tool}`).join('; ')}); it stays unavailable until they exist`,
        );
      }
      changed = true;
      return { ...t, file: { ...t.file, impl: { ...(t.file.impl as PipelineImpl), steps: linked } } };
    });
    return changed ? { ...draft, tools } : draft;
  });

  const relinkedCatalog = overlay(base, out);
  const issues: FieldIssue[] = [];
  for (const draft of out) {
    for (const t of draft.tools) {
      if (!stepsOf(t.file)) continue;
      const self = { bundleID: draft.file.bundleID, slug: t.file.slug, version: t.file.version };
      for (const issue of cycleIssues(t.file.impl as PipelineImpl, self, relinkedCatalog)) {
        issues.push({ field: `${draft.origin}: pipeline ${t.file.slug} ${t.file.version}: ${issue.field}`, message: issue.message });
      }
    }
  }
  if (issues.length) {
    throw invalid(issues, `The import was refused, nothing was written: ${issues[0]!.field} ${issues[0]!.message}.`);
  }
  return { drafts: out, report: reports.length ? { pipelines: reports } : {}, warnings };
}

export const pipelineTransfer: TransferHooks<'pipeline'> = {
  calledBundles: (impl) => (Array.isArray(impl.steps) ? impl.steps.flatMap((step) => (step.tool?.bundleID ? [step.tool.bundleID] : [])) : []),
  exported(impl, bundle) {
    if (!Array.isArray(impl.steps)) return impl;
    const hinted = impl.steps.map((step) => {
      const id = step.tool?.bundleID;
      const slug = id ? bundle(id.toLowerCase())?.slug : undefined;
      return slug ? { ...step, tool: { ...step.tool, bundleSlug: slug } } : step;
    });
    return { ...impl, steps: hinted };
  },
  relinkImport: relinkPipelines,
};
