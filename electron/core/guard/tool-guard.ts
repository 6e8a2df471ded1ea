/**
 * The definition guard (shared/guard/analyse.ts) applied to Toolwright tools: what an agent reads
 * of a tool is its MCP definition (the name it is offered under, the display name as title, the
 * description, argSchema as inputSchema, outputSchema) and, for an upstream server's tools, the
 * server's instructions. Reports are cached per tool file object (the store replaces the object
 * when the file changes), so linting thousands of tools again costs little.
 */
import { guardDefinition } from '../../../shared/guard/analyse.js';
import { NameIndex } from '../../../shared/guard/names.js';
import type { GuardDefinition, GuardFinding, GuardReport } from '../../../shared/guard/types.js';
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { UpstreamDefinition } from '../../../shared/upstream.js';
import { addedFindings, worstOf } from '../../../shared/guard/compare.js';
import type { ImportGuardItem } from '../../../shared/types.js';

/** The definition an agent reads of a tool (pointers in findings are into this shape). */
export function definitionOfTool(
  file: Pick<ToolFile, 'slug' | 'displayName' | 'description' | 'argSchema' | 'outputSchema'>,
  instructions?: string,
): GuardDefinition {
  return {
    name: file.slug,
    title: file.displayName,
    description: file.description,
    inputSchema: file.argSchema,
    outputSchema: file.outputSchema,
    ...(instructions ? { instructions } : {}),
  };
}

export class ToolGuard {
  private readonly cache = new WeakMap<object, { instructions: string | undefined; report: GuardReport }>();

  /** The guard's report on one tool (the name compared with nothing: see lookalikes). */
  report(file: ToolFile, instructions?: string): GuardReport {
    const seen = this.cache.get(file);
    if (seen && seen.instructions === instructions) return seen.report;
    const report = guardDefinition(definitionOfTool(file, instructions));
    this.cache.set(file, { instructions, report });
    return report;
  }

  /** Findings for names that pass for others' among `pool` (by slug, as people and agents read them). */
  lookalikes(checked: readonly ToolFile[], pool: readonly ToolFile[]): Map<string, GuardFinding> {
    const index = new NameIndex(pool.map((f) => f.slug));
    const out = new Map<string, GuardFinding>();
    for (const f of checked) {
      const found = index.check(f.slug);
      if (found) out.set(f.toolID, found);
    }
    return out;
  }
}

/** What an agent reads of an upstream server's tool, as the server defines it (the names in findings are the server's). */
export function upstreamDefinitionReport(def: UpstreamDefinition, instructions?: string): GuardReport {
  return guardDefinition({ ...def, ...(instructions ? { instructions } : {}) });
}

/**
 * The guard beside the review of an upstream tool's changed definition: findings in what was
 * accepted, in what the server says now, and those the change adds (a rug-pull shows there).
 */
export function reviewGuard(
  accepted: { name: string; description: string; argSchema: unknown; outputSchema?: unknown },
  upstream: UpstreamDefinition | undefined,
  instructions?: string,
): { accepted: GuardFinding[]; upstream: GuardFinding[]; added: GuardFinding[] } {
  const before = guardDefinition({
    name: accepted.name,
    description: accepted.description,
    inputSchema: accepted.argSchema,
    outputSchema: accepted.outputSchema,
    ...(instructions ? { instructions } : {}),
  }).findings;
  const after = upstream ? upstreamDefinitionReport(upstream, instructions).findings : [];
  return { accepted: before, upstream: after, added: addedFindings(before, after) };
}

/** The guard's findings on tools about to be imported, for the import report (dry runs too). */
export function importGuard(bundles: readonly { file: Pick<BundleFile, 'slug'>; tools: readonly { file: ToolFile; origin: string }[] }[]): ImportGuardItem[] {
  const names = new NameIndex(bundles.flatMap((b) => b.tools.map((t) => t.file.slug)));
  const out: ImportGuardItem[] = [];
  for (const b of bundles) {
    for (const t of b.tools) {
      const findings = [...guardDefinition(definitionOfTool(t.file)).findings];
      const lookalike = names.check(t.file.slug);
      if (lookalike) findings.push(lookalike);
      const worst = worstOf(findings);
      if (worst) out.push({ bundleSlug: b.file.slug, slug: t.file.slug, version: t.file.version, origin: t.origin, worst, findings });
    }
  }
  return out;
}
