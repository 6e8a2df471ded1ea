/**
 * Drag and drop anywhere on the window: an overlay says what can be dropped, and a drop of
 * files or a folder starts the import. Drags of text (a CodeMirror selection) pass untouched;
 * drops are ignored while a dialog is open.
 */
import { useEffect, useRef, useState } from 'react';
import { useTransfer } from './TransferProvider.js';
import { captureDrop } from './sources.js';
import './DropZone.css';

function carriesFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

function dialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

export function DropOverlay() {
  const { importFrom } = useTransfer();
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    const onEnter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      if (!dialogOpen()) setOver(true);
    };
    // Without preventDefault on dragover the browser (and Electron) would open the file itself.
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.dataTransfer!.dropEffect = dialogOpen() ? 'none' : 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      // Leaving the window: no element is entered next.
      if (depth.current === 0 || e.relatedTarget === null) {
        depth.current = 0;
        setOver(false);
      }
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      if (dialogOpen()) return;
      importFrom(captureDrop(e.dataTransfer!));
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [importFrom]);

  if (!over) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay" role="status" aria-live="assertive">
      <div className="drop-card">
        <div className="drop-icon" aria-hidden="true">
          <ImportIcon size={40} />
        </div>
        <p className="drop-title">Drop to import</p>
        <ul className="drop-kinds">
          <li>
            <strong>ZIP</strong> exported from Toolwright
          </li>
          <li>
            <strong>Folder</strong> of a container tool (manifest.json + Dockerfile)
          </li>
          <li>
            <strong>SKILL.md</strong> with tools in its front matter
          </li>
          <li>
            <strong>OpenAPI 3</strong> document (.json, .yaml)
          </li>
        </ul>
      </div>
    </div>
  );
}

/** A tray with an arrow into it. Inline SVG: nothing to load, and the CSP allows it. */
export function ImportIcon({ size = 16 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M12 3v12" />
      <path d="m7 10 5 5 5-5" />
      <path d="M4 15v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4" />
    </svg>
  );
}

/** The progress of the running import or export, for the top bar: its label and an indeterminate bar. */
export function TransferStatus() {
  const { busy } = useTransfer();
  if (!busy) return null;
  return (
    <div className="transfer-status" data-testid="transfer-progress">
      <span className="spinner" aria-hidden="true" />
      <span className="transfer-label" role="status">
        {busy}
      </span>
      {/* Across the bottom edge of the top bar (positioned against .topbar). */}
      <span className="progress" role="progressbar" aria-label={busy} aria-busy="true">
        <span className="progress-bar" />
      </span>
    </div>
  );
}
