/**
 * The output guard at the core's door (shared/guard/output.ts): every run's result is read in
 * the mode its tool, bundle or config sets (shared/guard/policy.ts; an upstream server's tools
 * `flag` by default), and the answer carries what was found and, under `strip`, what agents
 * receive instead. The value itself stays as the tool gave it — history, the tester and REST show
 * it raw beside the guarded one; MCP hands agents the guarded one (host/mcp/describe.ts).
 */
import { guardOutput, mergeNotes, type OutputGuardMode } from '../../../shared/guard/output.js';
import { outputGuardMode } from '../../../shared/guard/policy.js';
import type { BundleFile, Config, ToolFile } from '../../../shared/schemas.js';
import type { InvokeResult, ResultContent } from '../../../shared/types.js';

export class OutputGuard {
  constructor(private readonly config: () => Config) {}

  /** An upstream server's bundle holds its `source`: its tools' output comes from outside. */
  modeOf(tool: ToolFile, bundle: BundleFile | undefined): OutputGuardMode {
    return outputGuardMode(tool, bundle, this.config(), bundle?.source !== undefined);
  }

  /** The result with `guard` set when the guard found something. */
  apply(result: InvokeResult, tool: ToolFile, bundle: BundleFile | undefined): InvokeResult {
    if (!result.ok) return result;
    const mode = this.modeOf(tool, bundle);
    if (mode === 'off') return result;
    const value = guardOutput(result.value, mode);
    const content = result.content?.length ? guardOutput(result.content, mode) : undefined;
    const note = mergeNotes(value.note, content?.note);
    if (!note) return result;
    return {
      ...result,
      guard: {
        note,
        ...(value.value !== result.value ? { value: value.value } : {}),
        ...(content && content.value !== result.content ? { content: content.value as ResultContent[] } : {}),
      },
    };
  }
}
