/**
 * How the app tells an upstream tool's state from what the core says of it: `changed` and `gone`
 * are the reasons shared/upstream.ts withheldReason gives (kept in step by
 * test/renderer/tool-types/upstream.test.ts); `new` is a tool a sync added (switched off) that nobody has
 * touched since (its file never modified after creation).
 */
import { lineDiff } from '../../lib/lineDiff.js';
import type { ToolView } from '../../../../shared/types.js';

export type UpstreamMark = 'new' | 'changed' | 'gone' | null;

/** A tool's pinned upstream definition (its impl) when it is a tool of an upstream MCP server. */
export function pinnedUpstreamOf(tool: { type: string; impl?: unknown }): { tool: string; definitionHash: string } | undefined {
  return tool.type === 'mcp' ? (tool.impl as { tool: string; definitionHash: string }) : undefined;
}

export function upstreamMarkOf(tool: Pick<ToolView, 'type' | 'impl' | 'availability' | 'isEnabled' | 'createdAt' | 'modifiedAt'>): UpstreamMark {
  if (!pinnedUpstreamOf(tool)) return null;
  const reason = tool.availability.ok ? '' : (tool.availability.reason ?? '');
  if (/changed the definition/.test(reason)) return 'changed';
  if (/no longer offers/.test(reason)) return 'gone';
  if (!tool.isEnabled && tool.createdAt === tool.modifiedAt) return 'new';
  return null;
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
