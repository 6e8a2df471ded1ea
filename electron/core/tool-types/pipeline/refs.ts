/**
 * A pipeline's references to other tools, judged against a read-only catalog (the store's, or an
 * import's staged bundles over it): does each step's tool exist, do the step's arguments fit it,
 * does the pipeline reach itself through other pipelines, how dangerous are its steps. Used by
 * the save checks (./pipeline.ts) and by imports once they have re-linked steps (transfer/).
 */
import type { FieldIssue } from '../../../../shared/errors.js';
import type { Safety, ToolFile } from '../../../../shared/schemas.js';
import { PIPELINE_MAX_DEPTH, type PipelineImpl, type PipelineStep, type StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import { moreDangerous, schemaPropertyNames, stepArgFit } from '../../../../shared/tool-types/pipeline-templates.js';
import { joinField } from '../../../../shared/json-schema/issues.js';
import type { ToolCatalog } from '../../store/tool-catalog.js';

export interface PipelineIdentity {
  bundleID: string;
  slug: string;
  version: string;
}

function keyOf(bundleID: string, slug: string, version: string): string {
  return `${bundleID.toLowerCase()}\0${slug.normalize('NFC')}\0${version.normalize('NFC')}`;
}

function targetKey(ref: StepToolRef, ownBundleID: string): string {
  return keyOf(ref.bundleID ?? ownBundleID, ref.slug, ref.version);
}

/** The steps of a stored pipeline, or none when its impl is not the shape one (a hand edit). */
function stepsOf(file: ToolFile): PipelineStep[] {
  const steps = (file.impl as { steps?: unknown }).steps;
  return Array.isArray(steps) ? (steps.filter((s) => s && typeof s === 'object' && (s as PipelineStep).tool) as PipelineStep[]) : [];
}

/** Why a step's tool cannot be found, or the tool. */
export function resolveStep(ref: StepToolRef, ownBundleID: string, catalog: ToolCatalog): { file: ToolFile; bundleSlug: string } | { missing: string } {
  const bundleID = ref.bundleID ?? ownBundleID;
  const bundle = catalog.bundle(bundleID);
  const where = ref.bundleID === undefined ? 'this bundle' : `bundle ${bundle?.slug ?? ref.bundleSlug ?? bundleID}`;
  if (!bundle) return { missing: `there is no bundle ${ref.bundleSlug ?? bundleID} here` };
  if (bundle.softDeletedAt) return { missing: `${where} is in the Trash; restore it or pick another tool` };
  const file = catalog.tool(bundleID, ref.slug, ref.version);
  if (!file) return { missing: `${where} has no tool ${ref.slug} ${ref.version}; pick an existing tool (slug and version) or create it first` };
  return { file, bundleSlug: bundle.slug };
}

/**
 * Where the pipeline reaches itself again from one of its steps, as a path of slugs
 * (["brief", "weather", "brief"]), or how deep it nests when that passes PIPELINE_MAX_DEPTH.
 */
function reach(start: PipelineStep, self: PipelineIdentity, catalog: ToolCatalog): { cycle: string[] } | { tooDeep: string[] } | undefined {
  const selfKey = keyOf(self.bundleID, self.slug, self.version);
  const visited = new Set<string>();
  const walk = (ref: StepToolRef, ownBundleID: string, trail: string[]): { cycle: string[] } | { tooDeep: string[] } | undefined => {
    const key = targetKey(ref, ownBundleID);
    if (key === selfKey) return { cycle: [...trail, self.slug] };
    if (visited.has(key)) return undefined;
    visited.add(key);
    const file = catalog.tool(ref.bundleID ?? ownBundleID, ref.slug, ref.version);
    if (!file || file.type !== 'pipeline') return undefined;
    const here = [...trail, file.slug];
    if (here.length > PIPELINE_MAX_DEPTH) return { tooDeep: here };
    for (const step of stepsOf(file)) {
      const found = walk(step.tool, file.bundleID, here);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start.tool, self.bundleID, [self.slug]);
}

/** Steps through which the pipeline reaches itself again, or nests pipelines too deep; each issue names the step. */
export function cycleIssues(impl: PipelineImpl, self: PipelineIdentity, catalog: ToolCatalog): FieldIssue[] {
  const issues: FieldIssue[] = [];
  impl.steps.forEach((step, i) => {
    const reached = reach(step, self, catalog);
    if (!reached) return;
    const field = `impl.steps[${i}].tool`;
    if ('cycle' in reached) {
      issues.push({
        field,
        message:
          reached.cycle.length === 2
            ? `step "${step.id}" calls this pipeline itself; a pipeline cannot call itself`
            : `step "${step.id}" calls ${step.tool.slug} ${step.tool.version}, which calls this pipeline back (${reached.cycle.join(' → ')}); a pipeline cannot call itself, directly or through others`,
      });
    } else {
      issues.push({
        field,
        message: `step "${step.id}" nests pipelines deeper than ${PIPELINE_MAX_DEPTH} levels (${reached.tooDeep.join(' → ')}); flatten them`,
      });
    }
  });
  return issues;
}

/** The checks that look at other tools; each issue names the step and how to fix it. */
export function checkPipelineReferences(impl: PipelineImpl, self: PipelineIdentity, catalog: ToolCatalog): FieldIssue[] {
  const issues: FieldIssue[] = [];
  impl.steps.forEach((step, i) => {
    const field = `impl.steps[${i}]`;
    const found = resolveStep(step.tool, self.bundleID, catalog);
    if ('missing' in found) {
      issues.push({ field: `${field}.tool`, message: `step "${step.id}": ${found.missing}` });
      return;
    }
    const label = `${found.bundleSlug}/${found.file.slug} ${found.file.version}`;
    const fit = stepArgFit(step.args, found.file.argSchema);
    for (const name of fit.missing) {
      issues.push({
        field: joinField(`${field}.args`, name),
        message: `step "${step.id}" does not give ${label} its required argument "${name}"; map it to \${input.…}, an earlier step's value or a fixed value`,
      });
    }
    for (const name of fit.unknown) {
      const known = schemaPropertyNames(found.file.argSchema);
      issues.push({
        field: joinField(`${field}.args`, name),
        message: `step "${step.id}": ${label} has no argument "${name}" (${known.length ? `its arguments: ${known.join(', ')}` : 'it takes none'}); remove it or correct the name`,
      });
    }
  });
  issues.push(...cycleIssues(impl, self, catalog));
  return issues;
}

/** The most dangerous safety among the steps' tools as saved (nested pipelines were raised to theirs when saved). */
export function stepsSafety(impl: PipelineImpl, ownBundleID: string, catalog: ToolCatalog): Safety {
  let worst: Safety = 'readOnly';
  for (const step of impl.steps) {
    const found = resolveStep(step.tool, ownBundleID, catalog);
    if (!('missing' in found)) worst = moreDangerous(worst, found.file.safety);
  }
  return worst;
}
