/**
 * An upstream tool's mark in the app: its review state as the core stores and shows it (the
 * tool view's `review`, docs/contracts.md "Upstream MCP servers") — new, changed, gone; an
 * accepted tool has none. Switching a tool on or off never changes it.
 */
import { lineDiff } from '../../lib/lineDiff.js';
import type { ToolView } from '../../../../shared/types.js';
import type { ReviewState } from '../../../../shared/upstream.js';

export type UpstreamMark = Exclude<ReviewState, 'accepted'> | null;

/** A tool's pinned upstream definition (its impl) when it is a tool of an upstream MCP server. */
export function pinnedUpstreamOf(tool: { type: string; impl?: unknown }): { tool: string; definitionHash: string } | undefined {
  return tool.type === 'mcp' ? (tool.impl as { tool: string; definitionHash: string }) : undefined;
}

export function upstreamMarkOf(tool: Pick<ToolView, 'type' | 'impl' | 'review'>): UpstreamMark {
  if (!pinnedUpstreamOf(tool)) return null;
  const state = tool.review?.state;
  return state && state !== 'accepted' ? state : null;
}

export const MARK_LABEL: Record<Exclude<UpstreamMark, null>, string> = {
  new: 'new',
  changed: 'changed upstream',
  gone: 'gone upstream',
};

export interface DiffRow {
  left: string | null;
  right: string | null;
  kind: 'same' | 'changed' | 'removed' | 'added';
}

/** Two texts as rows of a side-by-side view: a run of removed lines is paired with the added run after it. */
export function sideBySide(before: string, after: string): DiffRow[] {
  const lines = lineDiff(before, after);
  const rows: DiffRow[] = [];
  for (let i = 0; i < lines.length;) {
    if (lines[i]!.kind === 'same') {
      rows.push({ left: lines[i]!.text, right: lines[i]!.text, kind: 'same' });
      i++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (i < lines.length && lines[i]!.kind === 'removed') removed.push(lines[i++]!.text);
    while (i < lines.length && lines[i]!.kind === 'added') added.push(lines[i++]!.text);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const left = removed[k] ?? null;
      const right = added[k] ?? null;
      rows.push({ left, right, kind: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added' });
    }
  }
  return rows;
}
