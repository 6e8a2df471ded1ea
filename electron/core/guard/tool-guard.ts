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
import type { ToolFile } from '../../../shared/schemas.js';

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
