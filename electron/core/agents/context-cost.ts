/**
 * The context cost of tool definitions: how many tokens each tool's MCP definition
 * (mcp-tool.ts, what `tools/list` gives an agent) adds to every request of an agent that is
 * offered it, counted with the o200k_base tokenizer (shared/agents/context-cost.ts names the basis).
 *
 * Counted once per tool and kept current: after the store opens every tool is counted in the
 * background in short slices, so nothing waits on it (`onCounted` says when it is done); a changed
 * tool (a new modifiedAt or file tag) is recounted alone. A count not made yet is absent (undefined), never estimated.
 * A profile's override of a tool's name or description is counted on what the profile's agents
 * receive, at once when asked (one definition, well under a millisecond) and kept until the tool
 * or the override changes.
 * A process that shows no costs (a CLI command) counts nothing in the background (`background:
 * false`): only a total asked for (a profile's) counts its tools then, loading the tokenizer.
 *
 * What is not in a tool's count: its icons (clients show them, they do not hand them to a model),
 * and the name's disambiguation when two tools agents see share a slug (agent-tools.ts puts the
 * bundle or version beside it: a token or two). A pipeline's annotations follow its safety when it
 * was counted: a step that becomes more dangerous changes the count on the pipeline's next edit.
 */
import { createRequire } from 'node:module';
import type { StoreReader, ToolRecord } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';
import type { Store } from '../store/store.js';
import { asciiName, type AgentTool } from './agent-tools.js';
import { mcpToolDefinition } from './mcp-tool.js';

// Loaded on the first count, not with the core: its o200k_base tables cost ~0.7 s of CPU that a
// process counting nothing (`toolwright ls`) should not pay.
let countTokens: ((text: string) => number) | undefined;

/** Tokens of the text: the tokenizer's count (o200k_base). */
export const countTextTokens = (text: string): number => {
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: (text: string) => number }).countTokens;
  return countTokens(text);
};

/**
 * The JSON-RPC answer around the definitions, counted once per list:
 * `{"jsonrpc":"2.0","id":1,"result":{"tools":[…]}}` and the commas between tools. The tokenizer's
 * count of that text, written out so that loading this module loads no tokenizer (a test checks it).
 */
export const LIST_ENVELOPE_TOKENS = 17;

/** How long one background slice may count before it lets other work run. */
const SLICE_MS = 8;

export interface ContextTotal {
  /** The counted tools' tokens, plus the list envelope once when any tool was counted. */
  tokens: number;
  counted: number;
  /** Tools whose count is not ready yet (not in the sum). */
  pending: number;
}

export interface ContextCostOptions {
  store: Store;
  tools: Pick<ToolService, 'safetyOf' | 'offeredToAgents'>;
  /** The tokenizer; tests count its calls. */
  count?: (text: string) => number;
  /** Called when a background count is done, so views made before it can be made again. */
  onCounted?: () => void;
  /** Count every tool in the background and keep the counts current (default); false: only what total() is asked for. */
  background?: boolean;
  /** The background count waits for release() (the host releases it once it listens: the tokenizer's load is not in its start). */
  held?: boolean;
}

interface Counted {
  version: string;
  tokens: number;
}

interface CountedOverride extends Counted {
  name: string;
  description: string | undefined;
}

/** What a count is of: modifiedAt, and the file's tag, since a hand edit may leave modifiedAt as it was. */
const versionOf = (rec: ToolRecord): string => `${rec.file.modifiedAt} ${rec.etag ?? ''}`;

export class ContextCostService {
  private readonly counts = new Map<string, Counted>();
  /** By tool ID: the last overridden definition counted (profiles that override one tool alike share it). */
  private readonly overridden = new Map<string, CountedOverride>();
  private readonly queue = new Set<string>();
  private readonly reader: StoreReader;
  private readonly count: (text: string) => number;
  private scheduled: NodeJS.Immediate | undefined;
  private waiters: (() => void)[] = [];
  private readonly unobserve: () => void;
  private held: boolean;

  constructor(private readonly opts: ContextCostOptions) {
    this.held = opts.held === true;
    this.reader = opts.store.reader;
    this.count = opts.count ?? countTextTokens;
    const background = opts.background !== false;
    this.unobserve = opts.store.observe({
      loaded: (reader) => {
        if (background) for (const t of reader.tools()) this.enqueue(t.file.toolID);
      },
      // One changed tool is counted at once (well under a millisecond), so the answer to its edit
      // carries its new count; while the background count runs it joins the queue.
      toolChanged: (tool) => {
        const rec = this.reader.tool(tool.toolID);
        if (!background || !rec || this.counts.get(tool.toolID)?.version === versionOf(rec)) return;
        if (this.queue.size) this.enqueue(tool.toolID);
        else this.countTool(tool.toolID);
      },
      toolRemoved: (toolID) => {
        this.counts.delete(toolID);
        this.overridden.delete(toolID);
        this.queue.delete(toolID);
      },
    });
  }

  /** The tokens the tool's definition adds to an agent's context; undefined until it is counted. */
  forTool(toolID: string): number | undefined {
    const counted = this.counts.get(toolID);
    const rec = this.reader.tool(toolID);
    if (!counted || !rec || versionOf(rec) !== counted.version) return undefined;
    return counted.tokens;
  }

  /** The tokens a list of these tools costs an agent: their counts and the list's envelope once. */
  total(toolIDs: Iterable<string>): ContextTotal {
    let tokens = 0;
    let counted = 0;
    let pending = 0;
    for (const id of toolIDs) {
      const n = this.forToolOnDemand(id);
      if (n === undefined) pending++;
      else {
        tokens += n;
        counted++;
      }
    }
    return { tokens: counted ? tokens + LIST_ENVELOPE_TOKENS : 0, counted, pending };
  }

  /**
   * The tokens a list of tools as agents receive them costs (a profile's, overrides applied): an
   * overridden tool's definition is counted as the agent reads it, the others as in `total`.
   */
  totalOfAgentTools(list: readonly AgentTool[]): ContextTotal {
    let tokens = 0;
    let counted = 0;
    let pending = 0;
    for (const t of list) {
      const n = t.overridden ? this.forOverridden(t) : this.forToolOnDemand(t.file.toolID);
      if (n === undefined) pending++;
      else {
        tokens += n;
        counted++;
      }
    }
    return { tokens: counted ? tokens + LIST_ENVELOPE_TOKENS : 0, counted, pending };
  }

  /** A tool's count; without the background count (a CLI process) it is made now, when asked. */
  private forToolOnDemand(toolID: string): number | undefined {
    if (this.opts.background === false && this.forTool(toolID) === undefined) this.countTool(toolID);
    return this.forTool(toolID);
  }

  private forOverridden(t: AgentTool): number | undefined {
    const rec = this.reader.tool(t.file.toolID);
    if (!rec) return undefined;
    const version = versionOf(rec);
    const known = this.overridden.get(t.file.toolID);
    if (known && known.version === version && known.name === t.name && known.description === t.description) return known.tokens;
    const tokens = this.count(JSON.stringify(mcpToolDefinition(t)));
    this.overridden.set(t.file.toolID, { version, name: t.name, description: t.description, tokens });
    return tokens;
  }

  /**
   * What a bundle's tools cost the agents offered them (switched on, in a switched-on bundle, not
   * withheld): how many those are and the sum of their counts (no envelope: a bundle is part of a
   * list), the sum absent while any of them is not counted yet.
   */
  forBundle(bundleID: string): { agentTools: number; tokens?: number } {
    const offered = this.reader.toolsOf(bundleID).filter((rec) => this.opts.tools.offeredToAgents(rec));
    let tokens = 0;
    for (const rec of offered) {
      const n = this.forTool(rec.file.toolID);
      if (n === undefined) return { agentTools: offered.length };
      tokens += n;
    }
    return { agentTools: offered.length, tokens };
  }

  /** Starts a held background count (once; later calls do nothing). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (this.queue.size) this.scheduled ??= setImmediate(() => this.slice());
  }

  /** Resolves once every tool known now is counted. */
  idle(): Promise<void> {
    if (!this.queue.size) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  dispose = (): void => {
    this.unobserve();
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.queue.clear();
    this.overridden.clear();
    this.settle();
  };

  private enqueue(toolID: string): void {
    this.queue.add(toolID);
    if (!this.held) this.scheduled ??= setImmediate(() => this.slice());
  }

  private slice(): void {
    this.scheduled = undefined;
    const until = performance.now() + SLICE_MS;
    for (const toolID of this.queue) {
      this.queue.delete(toolID);
      this.countTool(toolID);
      if (performance.now() >= until) break;
    }
    if (this.queue.size) this.scheduled = setImmediate(() => this.slice());
    else {
      this.settle();
      this.opts.onCounted?.();
    }
  }

  private countTool(toolID: string): void {
    const rec = this.reader.tool(toolID);
    const bundle = rec && this.reader.bundle(rec.file.bundleID);
    if (!rec || !bundle) return;
    const definition = mcpToolDefinition({ name: asciiName(rec.file.slug), file: rec.file, bundle: bundle.file, safety: this.opts.tools.safetyOf(rec) });
    this.counts.set(toolID, { version: versionOf(rec), tokens: this.count(JSON.stringify(definition)) });
  }

  private settle(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
