/**
 * A tool whose tool.json cannot be read, shown in the list where the tool was (tools are listed in
 * creation order, which is the order of their UUIDv7 folder names), marked broken, with the reason
 * and its path to copy into an editor.
 */
import { Badge } from '../../../components/States.js';
import { useCopy } from '../../../lib/useCopy.js';
import type { Problem, ToolView } from '../../../../../shared/types.js';

export interface BrokenEntry {
  kind: 'broken';
  toolID: string;
  bundleID: string;
  problem: Problem;
}
export type ListEntry = { kind: 'tool'; tool: ToolView } | BrokenEntry;

const TOOL_FILE = /[\\/]bundles[\\/]([^\\/]+)[\\/]tools[\\/]([^\\/]+)[\\/]tool\.json$/;

/** The broken tool files among `problems`, of one bundle or of all. */
export function brokenTools(problems: readonly Problem[], bundleID: string | null): BrokenEntry[] {
  const out: BrokenEntry[] = [];
  for (const problem of problems) {
    const m = TOOL_FILE.exec(problem.path);
    if (!m || (bundleID && m[1] !== bundleID)) continue;
    out.push({ kind: 'broken', bundleID: m[1]!, toolID: m[2]!, problem });
  }
  return out.sort((a, b) => (a.toolID < b.toolID ? -1 : 1));
}

/** Tools and broken files in one list, each broken file where its tool was (by tool ID). */
export function withBroken(tools: readonly ToolView[], broken: readonly BrokenEntry[]): ListEntry[] {
  const out: ListEntry[] = [];
  let b = 0;
  for (const tool of tools) {
    while (b < broken.length && broken[b]!.toolID < tool.toolID) out.push(broken[b++]!);
    out.push({ kind: 'tool', tool });
  }
  while (b < broken.length) out.push(broken[b++]!);
  return out;
}

export function BrokenRow({ entry, active, bundleName }: { entry: BrokenEntry; active: boolean; bundleName?: string }) {
  const copy = useCopy();
  const copyPath = () => void copy(entry.problem.path, 'Path copied: open it in any editor to fix it');
  return (
    <div
      role="row"
      className={`tool-row is-broken${active ? ' is-active' : ''}`}
      tabIndex={active ? 0 : -1}
      data-testid={`broken-row-${entry.toolID}`}
      aria-label={`Broken tool file: ${entry.problem.reason}`}
      onClick={copyPath}
      onKeyDown={(e) => {
        if (e.key === 'Enter') copyPath();
      }}
      title="Click to copy the file's path"
    >
      <div role="cell" className="cell cell-name">
        <span className="tool-name">tool.json cannot be read</span>
        <span className="tool-id mono" title={entry.problem.path}>
          {entry.problem.path}
          {bundleName && <span className="muted"> · {bundleName}</span>}
        </span>
      </div>
      <div role="cell" className="cell cell-type">
        <Badge tone="danger">broken</Badge>
      </div>
      <div role="cell" className="cell cell-avail cell-broken-reason" title={entry.problem.reason}>
        <span className="avail avail-bad">
          <span className="avail-dot" aria-hidden="true" />
          <span className="avail-text">{entry.problem.reason}</span>
        </span>
      </div>
      <div role="cell" className="cell cell-switch">
        <button
          type="button"
          className="icon-btn"
          tabIndex={-1}
          aria-label="Copy path"
          title="Copy the file's path"
          onClick={(e) => {
            e.stopPropagation();
            copyPath();
          }}
        >
          <svg width="15" height="15" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
            <path d="M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
          </svg>
        </button>
      </div>
    </div>
  );
}
