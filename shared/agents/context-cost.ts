/**
 * How the context cost of tool definitions is worded wherever it is shown (app, CLI, docs), and
 * the client limits on how many tools an agent may be given. The counts come from the core
 * (electron/core/agents/context-cost.ts); the renderer never loads a tokenizer.
 */

/** The tokenizer the counts are made with. */
export const TOKENIZER_NAME = 'o200k_base';

/** The basis of every count, in the words the app and the CLI show beside it. */
export const TOKENIZER_BASIS = `${TOKENIZER_NAME}, the GPT-4o/GPT-5 tokenizer; other models' tokenizers differ by roughly ±15%`;

// Built on first use: a tab's first Intl object loads ICU's locale data, and the app's first screen
// (the tool rows) imports this module before it formats any count (renderer/src/lib/format.ts).
let enUSFormat: Intl.NumberFormat | undefined;
const enUS = (): Intl.NumberFormat => (enUSFormat ??= new Intl.NumberFormat('en-US'));

/** "≈ 1,234 tokens (o200k_base, …)": a count with its basis. */
export function tokensWithBasis(tokens: number): string {
  return `≈ ${enUS().format(tokens)} tokens (${TOKENIZER_BASIS})`;
}

/** "≈ 1,234 tokens": a count where the basis is named nearby (a tooltip, a footnote). */
export function tokensApprox(tokens: number): string {
  return `≈ ${enUS().format(tokens)} tokens`;
}

/** "830 tok", "1.2k tok", "12k tok": a count for a narrow column. */
export function compactTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} tok`;
  if (tokens < 10_000) return `${enUS().format(Math.round(tokens / 100) / 10)}k tok`;
  return `${enUS().format(Math.round(tokens / 1000))}k tok`;
}

/**
 * Limits clients put on the number of tools one agent is given. OpenAI's is a hard limit (its API
 * refuses a request: "Invalid 'tools': array too long. Expected an array with maximum length 128").
 * Cursor's is softer: it long passed only the first 40 tools to the model, and its own guidance
 * is still to stay under about 40, so it is worded as such.
 */
export const CLIENT_TOOL_LIMITS: readonly { limit: number; message: string }[] = [
  { limit: 128, message: 'OpenAI accepts at most 128 tools per request' },
  { limit: 40, message: 'Cursor works with about 40 tools at most (older versions ignore the rest)' },
];

/** The warnings for this many tools offered to agents, most severe first. */
export function toolLimitWarnings(agentToolCount: number): string[] {
  return CLIENT_TOOL_LIMITS.filter((l) => agentToolCount > l.limit).map((l) => l.message);
}
