/**
 * tools.lint: which tools to check and which to compare them with, then the rules (tool-lint.ts).
 * The comparison set is always every tool agents are offered now (the whole app, as `/mcp`), plus
 * the checked tools, so a near-duplicate in another bundle is found too. The checked set is
 * what the caller names: tools by ID (whatever their state: a switched-off draft is checked
 * too), the offered tools of some bundles, or every offered tool. A profile will pass its tool IDs.
 */
import type { OpInput } from '../../../shared/operations.js';
import type { ToolLintFinding } from '../../../shared/types.js';
import { notFound } from '../errors.js';
import type { StoreReader, ToolRecord } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';
import { asciiName } from './agent-tools.js';
import { countTextTokens } from './context-cost.js';
import { lintTools, type LintSubject } from './tool-lint.js';

export interface ToolLintDeps {
  reader: StoreReader;
  tools: Pick<ToolService, 'offeredToAgents'>;
  count?: (text: string) => number;
}

export class ToolLintService {
  constructor(private readonly deps: ToolLintDeps) {}

  lint(input: OpInput<'tools.lint'>): { items: ToolLintFinding[]; checked: number } {
    const { reader, tools } = this.deps;
    const offered = [...reader.tools()].filter((rec) => tools.offeredToAgents(rec));
    let checked: ToolRecord[];
    if (input.toolIDs?.length) {
      checked = input.toolIDs.map((id) => {
        const rec = reader.tool(id.toLowerCase());
        if (!rec) throw notFound(`tool ${id}`);
        return rec;
      });
    } else if (input.bundleIDs?.length) {
      const ids = new Set(input.bundleIDs.map((id) => id.toLowerCase()));
      for (const id of ids) if (!reader.bundle(id)) throw notFound(`bundle ${id}`);
      checked = offered.filter((rec) => ids.has(rec.file.bundleID));
    } else checked = offered;
    const subject = (rec: ToolRecord): LintSubject => ({
      toolID: rec.file.toolID,
      bundleID: rec.file.bundleID,
      name: asciiName(rec.file.slug),
      ref: `${reader.bundle(rec.file.bundleID)?.file.slug ?? rec.file.bundleID}/${rec.file.slug}@${rec.file.version}`,
      displayName: rec.file.displayName,
      description: rec.file.description,
      argSchema: rec.file.argSchema,
    });
    return { items: lintTools(checked.map(subject), offered.map(subject), this.deps.count ?? countTextTokens), checked: checked.length };
  }
}
