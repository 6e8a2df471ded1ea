/**
 * `mcp` tools: a call to one tool of an upstream MCP server (the bundle's `source`). Arguments
 * were checked against the accepted argSchema by the engine; the call is the upstream's
 * `tools/call`, with progress as streamed chunks and cancel as `notifications/cancelled`. A tool
 * whose upstream definition changed, or that the server no longer offers, is unavailable (and so
 * withheld from agents) until a person reviews it — judged from the last sync, without starting
 * the server.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolFile } from '../../../../shared/schemas.js';
import type { Availability, ResultContent } from '../../../../shared/types.js';
import type { McpImpl } from '../../../../shared/tool-types/mcp.js';
import { withheldReason, type UpstreamStatus } from '../../../../shared/upstream.js';
import { CoreError, cancelledError } from '../../errors.js';
import type { StoreReader } from '../../store/reader.js';
import type { UpstreamManager } from './manager.js';
import { sourceSecretNames } from './source.js';
import { upstreamQuestions } from './questions.js';
import type { ApprovalStore } from '../../agents/approvals.js';
import type { SecretsReader } from '../../secrets/types.js';
import type { RunContext, RunOutput, Runner } from '../../invoke/types.js';

/** An upstream call has no bound of its own beyond this unless the tool's limits say otherwise. */
export const UPSTREAM_DEFAULT_TIMEOUT_SECONDS = 120;
/** A progress message is a status line, not output: bounded as MCP status messages are. */
const PROGRESS_MESSAGE_CHARS = 4000;

export interface UpstreamRunnerOptions {
  upstreams: UpstreamManager;
  reader: () => StoreReader;
  /** Where a person answers an upstream server's questions; without it, questions a person would answer are declined. */
  approvals?: ApprovalStore;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The value of a result: structuredContent when the server gave it, else the text (JSON when it is JSON). */
export function valueOfResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = textOf(result);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Images and resources are not text for a model's context, so maxOutputBytes (the value's bound)
 * does not fit them; this bounds what one answer carries.
 */
export const MAX_CONTENT_BYTES = 8 * 1024 * 1024;

/**
 * The result's content besides text, as the server sent it, up to maxBytes in all: what does not
 * fit is left out, and a link stands in for a resource's body, so the answer stays bounded.
 */
export function contentOfResult(result: CallToolResult, maxBytes: number): ResultContent[] {
  const kept: ResultContent[] = [];
  let bytes = 0;
  for (const block of result.content ?? []) {
    if (block.type === 'text') continue;
    const size = JSON.stringify(block).length;
    if (bytes + size <= maxBytes) {
      kept.push(block as ResultContent);
      bytes += size;
    } else if (block.type === 'resource') {
      const { uri, mimeType } = block.resource;
      kept.push({ type: 'resource_link', uri, name: uri, description: `left out: ${size} bytes, over the output limit`, ...(mimeType ? { mimeType } : {}) });
    }
  }
  return kept;
}

/**
 * A server that waits for a person (a sign-in) or could not be started cannot run its tools, as
 * this process last saw it. A new connection (a sync, a stop, a changed source, a sign-in done)
 * starts from `stopped` again, and its tools with it. A server that exited after it ran is
 * restarted (with backoff) by the next call, so its tools stay available.
 */
export function serverAvailability(status: Pick<UpstreamStatus, 'state' | 'lastError' | 'startFailed'>, bundleSlug: string): Availability {
  if (status.state === 'needs-authorization') {
    return { ok: false, reason: status.lastError ?? `the MCP server of bundle ${bundleSlug} needs a sign-in: choose "Sign in" in its server panel` };
  }
  if (status.state === 'failed' && status.startFailed) {
    const why = status.lastError ?? 'the MCP server failed';
    return { ok: false, reason: `${why}; sync bundle ${bundleSlug} (or fix its server settings) to start it again` };
  }
  return { ok: true };
}

export function createUpstreamRunner(opts: UpstreamRunnerOptions | undefined): Runner {
  /** The one judgement of whether a tool's accepted definition still matches the server's (last sync). */
  const withheldOf = (tool: ToolFile, upstreams: UpstreamManager): string | undefined => {
    const impl = tool.impl as McpImpl;
    return withheldReason(impl.tool, impl.definitionHash, upstreams.snapshot(tool.bundleID));
  };
  return {
    type: 'mcp',
    availability(tool: ToolFile, _toolDir: string, secrets: SecretsReader): Availability {
      if (!opts) return { ok: false, reason: 'upstream MCP servers are not available in this process' };
      const bundle = opts.reader().bundle(tool.bundleID);
      const source = bundle?.file.source;
      if (!source) return { ok: false, reason: `bundle ${bundle?.file.slug ?? tool.bundleID} has no upstream MCP server (its bundle.json has no source)` };
      const missing = sourceSecretNames(source).find((n) => !secrets.has(n));
      if (missing) return { ok: false, reason: `secret ${missing} is not set` };
      const withheld = withheldOf(tool, opts.upstreams);
      if (withheld) return { ok: false, reason: withheld };
      return serverAvailability(opts.upstreams.status(tool.bundleID), bundle.file.slug);
    },
    withheld: (tool) => (opts ? withheldOf(tool, opts.upstreams) : undefined),
    defaultTimeout: () => ({ seconds: UPSTREAM_DEFAULT_TIMEOUT_SECONDS, source: 'the default for upstream MCP tools' }),
    async run(ctx: RunContext): Promise<RunOutput> {
      if (!opts) throw new CoreError('TOOL_UNAVAILABLE', 'upstream MCP servers are not available in this process');
      const impl = ctx.tool.impl as McpImpl;
      const withheld = withheldOf(ctx.tool, opts.upstreams);
      if (withheld) throw new CoreError('TOOL_UNAVAILABLE', withheld);
      if (ctx.signal.aborted) throw cancelledError();
      const timeoutMs = (ctx.tool.limits?.timeoutSeconds ?? UPSTREAM_DEFAULT_TIMEOUT_SECONDS) * 1000;
      const questions = upstreamQuestions({
        ctx,
        approvals: opts.approvals,
        bundleSlug: opts.reader().bundle(ctx.tool.bundleID)?.file.slug ?? ctx.tool.bundleID,
        deadline: Date.now() + timeoutMs,
      });
      let result: CallToolResult;
      try {
        result = await opts.upstreams.connection(ctx.tool.bundleID).callTool(impl.tool, ctx.args, {
          signal: ctx.signal,
          timeoutMs,
          questions,
          // Every notification, with or without a message, as the server sent it: a count to
          // show and to reset an agent's request timeout on. Its message is also a line of output.
          onProgress: ({ progress, total, message }) => {
            if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
            const text = typeof message === 'string' ? message.slice(0, PROGRESS_MESSAGE_CHARS) : undefined;
            ctx.emit?.({
              type: 'progress',
              progress,
              ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
              ...(text !== undefined ? { message: text } : {}),
            });
            if (text) ctx.emit?.({ type: 'chunk', text: text.endsWith('\n') ? text : `${text}\n` });
          },
        });
      } catch (e) {
        if (ctx.signal.aborted) throw cancelledError();
        if (e instanceof CoreError) throw e;
        throw new CoreError('UPSTREAM_ERROR', `the MCP server failed the call to ${impl.tool}: ${(e as Error).message}`.slice(0, 2000));
      }
      if (result.isError) {
        throw new CoreError('UPSTREAM_ERROR', textOf(result).slice(0, 4000) || `the MCP server reported an error for ${impl.tool} and gave no message`);
      }
      const content = contentOfResult(result, MAX_CONTENT_BYTES);
      return { value: valueOfResult(result), ...(content.length ? { content } : {}) };
    },
  };
}
