/**
 * tools.lint: which tools to check and which to compare them with, then the rules (tool-lint.ts)
 * and the definition guard (electron/core/guard/tool-guard.ts), whose findings come first.
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
import { ToolGuard } from '../guard/tool-guard.js';
import type { GuardFinding } from '../../../shared/guard/types.js';

export interface ToolLintDeps {
  reader: StoreReader;
  tools: Pick<ToolService, 'offeredToAgents'>;
  count?: (text: string) => number;
  /** The app's guard (its cache shared with imports and sync); a fresh one when left out. */
  guard?: ToolGuard;
  /** An upstream server's instructions, which agents read with its tools. */
  instructionsOf?: (bundleID: string) => string | undefined;
}

export class ToolLintService {
  private readonly guard: ToolGuard;

  constructor(private readonly deps: ToolLintDeps) {
    this.guard = deps.guard ?? new ToolGuard();
  }

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
    const guarded = this.guardFindings(checked, offered);
    const linted = lintTools(checked.map(subject), offered.map(subject), this.deps.count ?? countTextTokens);
    return { items: [...guarded, ...linted], checked: checked.length };
  }

  private guardFindings(checked: ToolRecord[], offered: ToolRecord[]): ToolLintFinding[] {
    const { guard } = this;
    const { instructionsOf } = this.deps;
    const lookalikes = guard.lookalikes(
      checked.map((r) => r.file),
      [...offered, ...checked].map((r) => r.file),
    );
    const out: ToolLintFinding[] = [];
    for (const rec of checked) {
      const file = rec.file;
      const findings: GuardFinding[] = [...guard.report(file, instructionsOf?.(file.bundleID)).findings];
      const named = lookalikes.get(file.toolID);
      if (named) findings.push(named);
      for (const f of findings) {
        out.push({
          toolID: file.toolID,
          bundleID: file.bundleID,
          name: asciiName(file.slug),
          rule: f.class,
          severity: f.severity,
          message: f.message,
          fix: f.fix,
          class: f.class,
          pointer: f.pointer,
          span: f.span,
        });
      }
    }
    return out;
  }
}
