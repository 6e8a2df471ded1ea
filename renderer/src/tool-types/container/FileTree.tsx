/**
 * The files of a tool folder as a small tree: folders come from the paths ("src/run.py" makes
 * "src"), each file opens with a click or Enter, and is renamed or deleted in place. Adding a
 * file takes a path, so a new folder is just a path with a '/'. Names are checked by the core;
 * its reason shows under the input.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatBytes } from '../../../../shared/format.js';
import { errorMessage } from '../../api/errors.js';
import type { BuildFileEntry } from '../../../../shared/types.js';
import './container.css';

interface Folder {
  name: string;
  path: string;
  folders: Folder[];
  files: BuildFileEntry[];
}

function treeOf(items: readonly BuildFileEntry[]): Folder {
  const root: Folder = { name: '', path: '', folders: [], files: [] };
  for (const item of items) {
    const parts = item.path.split('/');
    let at = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join('/');
      let next = at.folders.find((f) => f.path === path);
      if (!next) at.folders.push((next = { name: parts[i]!, path, folders: [], files: [] }));
      at = next;
    }
    at.files.push(item);
  }
  return root;
}

/** One input for a new path or a new name: Enter commits, Escape cancels; the core's refusal stays visible. */
function PathInput({ initial, label, onCommit, onCancel }: { initial: string; label: string; onCommit(v: string): Promise<void>; onCancel(): void }) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  const errorId = useId();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    // Select the name without its extension, as file managers do.
    const dot = initial.lastIndexOf('.');
    const slash = initial.lastIndexOf('/');
    el.setSelectionRange(slash + 1, dot > slash + 1 ? dot : initial.length);
  }, [initial]);
  const commit = async () => {
    const v = value.trim();
    if (!v || v === initial) return onCancel();
    setBusy(true);
    try {
      await onCommit(v);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void commit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };
  return (
    <div className="file-input">
      <input
        ref={ref}
        className={`input input-small mono${error ? ' is-invalid' : ''}`}
        aria-label={label}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? errorId : undefined}
        value={value}
        disabled={busy}
        placeholder="path/to/file.sh"
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => !busy && !error && void commit()}
        data-testid="file-path-input"
      />
      {error && (
        <div id={errorId} className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

interface FileTreeProps {
  items: readonly BuildFileEntry[];
  skipped: readonly { path: string; reason: string }[];
  active: string | null;
  dirty: ReadonlySet<string>;
  readOnly?: boolean;
  onOpen(path: string): void;
  onCreate(path: string): Promise<void>;
  onRename(from: string, to: string): Promise<void>;
  onDelete(path: string): void;
}

export function FileTree({ items, skipped, active, dirty, readOnly, onOpen, onCreate, onRename, onDelete }: FileTreeProps) {
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const root = treeOf(items);

  const renderFolder = (folder: Folder, depth: number) => (
    <ul className="file-tree-list" role="list">
      {folder.folders.map((f) => (
        <li key={f.path} className="file-folder">
          <span className="file-folder-name" style={{ paddingLeft: depth * 14 + 6 }}>
            <span aria-hidden="true">▾ </span>
            {f.name}/
          </span>
          {renderFolder(f, depth + 1)}
        </li>
      ))}
      {folder.files.map((file) => {
        const name = file.path.slice(folder.path ? folder.path.length + 1 : 0);
        const isActive = file.path === active;
        const unsaved = dirty.has(file.path);
        return (
          <li key={file.path} className={`file-item${isActive ? ' is-active' : ''}`}>
            {renaming === file.path ? (
              <div style={{ paddingLeft: depth * 14 }}>
                <PathInput
                  initial={file.path}
                  label={`New path of ${file.path}`}
                  onCommit={async (to) => {
                    await onRename(file.path, to);
                    setRenaming(null);
                  }}
                  onCancel={() => setRenaming(null)}
                />
              </div>
            ) : (
              <>
                <button
                  type="button"
                  className="file-open"
                  style={{ paddingLeft: depth * 14 + 6 }}
                  aria-current={isActive ? 'true' : undefined}
                  onClick={() => onOpen(file.path)}
                  title={`${file.path} · ${formatBytes(file.size)}${file.executable ? ' · executable' : ''}`}
                  data-testid={`file-${file.path}`}
                >
                  <span className="file-name mono">{name}</span>
                  {file.executable && (
                    <span className="file-flag" title="executable">
                      <span aria-hidden="true">x</span>
                      <span className="sr-only">, executable</span>
                    </span>
                  )}
                  {unsaved && (
                    <span className="file-dirty" title="unsaved changes">
                      <span aria-hidden="true">●</span>
                      <span className="sr-only">, unsaved</span>
                    </span>
                  )}
                </button>
                {!readOnly && (
                  <span className="file-actions">
                    <button
                      type="button"
                      className="icon-btn icon-btn-small"
                      aria-label={`Rename ${file.path}`}
                      title="Rename or move"
                      onClick={() => setRenaming(file.path)}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn-small"
                      aria-label={`Delete ${file.path}`}
                      title="Delete"
                      onClick={() => onDelete(file.path)}
                      data-testid={`delete-file-${file.path}`}
                    >
                      ✕
                    </button>
                  </span>
                )}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );

  return (
    <nav className="file-tree" aria-label="Files of the tool folder" data-testid="file-tree">
      <div className="file-tree-head">
        <span className="file-tree-title">Files</span>
        {!readOnly && (
          <button type="button" className="btn btn-small" onClick={() => setAdding(true)} disabled={adding} data-testid="new-file">
            New file
          </button>
        )}
      </div>
      {adding && (
        <PathInput
          initial=""
          label="Path of the new file (folders with /)"
          onCommit={async (path) => {
            await onCreate(path);
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {items.length === 0 && !adding && <p className="muted file-tree-empty">No files yet.</p>}
      {renderFolder(root, 0)}
      {skipped.length > 0 && (
        <div className="file-skipped">
          <span className="field-label">Not part of the build</span>
          <ul>
            {skipped.map((s) => (
              <li key={s.path} title={s.reason}>
                <span className="mono">{s.path}</span> <span className="muted">— {s.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}
