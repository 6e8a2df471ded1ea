/**
 * Enabled tools as OpenAI function-calling definitions:
 * `{"type":"function","function":{name, description, parameters}}`, ready to paste into an agent.
 *
 * Names follow the one rule agents see everywhere (agents/agent-tools.ts): the MCP server gives
 * the same tool the same name for the same scope.
 */
import type { StoreReader } from '../../store/reader.js';
import type { ToolService } from '../../store/tools.js';
import type { OpenAiFunction } from '../../../../shared/types.js';
import { notFound } from '../../errors.js';
import { agentTools, parametersOf } from '../../agents/agent-tools.js';

export type { OpenAiFunction };

export function openAiFunctions(store: StoreReader, tools: ToolService, bundleIDs?: string[]): OpenAiFunction[] {
  const wanted = bundleIDs?.length ? new Set(bundleIDs.map((b) => b.toLowerCase())) : undefined;
  for (const id of wanted ?? []) if (!store.bundle(id)) throw notFound(`bundle ${id}`);
  return agentTools(store, tools, wanted ? { bundleIDs: wanted } : {}).map(({ name, file: f }) => ({
    type: 'function',
    function: { name, description: (f.description || f.displayName || f.slug).slice(0, 1024), parameters: parametersOf(f.argSchema) },
  }));
}
