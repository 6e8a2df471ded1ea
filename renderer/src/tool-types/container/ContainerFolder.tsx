/**
 * A container tool's folder in the tool editor: the file tree, the open file in a code editor,
 * and the image built from them. Files are saved one by one into the tool's folder (beside
 * tool.json) as the person saves them, independent of the tool form's own Save.
 */
import { useId } from 'react';
import { useConfirm } from '../../components/Dialog.js';
import { useToast } from '../../components/Toasts.js';
import { ErrorState, Loading } from '../../components/States.js';
import { errorMessage } from '../../api/errors.js';
import { formatBytes } from '../../../../shared/format.js';
import { ContainerHelpButton } from '../../features/help/ContainerFolderHelp.js';
import { CodeEditor } from '../../components/code/CodeEditor.js';
import { LANGUAGE_LABEL, languageOf } from '../../components/code/languages.js';
import { FileTree } from './FileTree.js';
import { BuildPanel } from './BuildPanel.js';
import { isDirty, useBuildFileBuffers } from './useBuildFiles.js';
import type { ToolView } from '../../../../shared/types.js';
import './container.css';

const STARTER_DOCKERFILE = `# The image of this tool, built from this folder (tool.json is left out).
FROM alpine:3.20
COPY run.sh /tool/run.sh
ENTRYPOINT ["/bin/sh", "/tool/run.sh"]
`;

const STARTER_RUNNER = `#!/bin/sh
# $1 is base64 of {"params": {...}, "settings": {...}, "telemetry": {...}}.
# Print one JSON object on stdout: {"text": ..., "html": ..., "title": ..., "error": ...}.
payload=$(printf '%s' "$1" | base64 -d)
printf '{"text":"received %s bytes of arguments"}\\n' "\${#payload}"
`;

export function ContainerFolder({ tool, builds, readOnly }: { tool: ToolView | undefined; builds: boolean; readOnly?: boolean }) {
  const hintId = useId();
  const confirm = useConfirm();
  const toast = useToast();
  const files = useBuildFileBuffers(tool);

  if (!tool) {
    return (
      <div className="notice" data-testid="container-folder-new">
        The Dockerfile and runner are written into the tool&apos;s own folder, beside its tool.json: create the tool first, and this editor opens on its files.{' '}
        <ContainerHelpButton label="How a container folder is laid out" />
      </div>
    );
  }
  const { list, active } = files;
  const activePath = active?.path ?? null;
  const unsaved = files.dirtyPaths.size;

  const remove = async (path: string) => {
    const ok = await confirm({
      title: `Delete ${path}?`,
      message: isDirty(active?.path === path ? active : undefined) ? 'It has unsaved changes, which go too.' : 'The file is deleted from the tool folder.',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    try {
      await files.remove(path);
    } catch (e) {
      toast.show('error', errorMessage(e));
    }
  };

  const starter = async () => {
    try {
      await files.create('run.sh', STARTER_RUNNER);
      await files.create('Dockerfile', STARTER_DOCKERFILE);
    } catch (e) {
      toast.show('error', errorMessage(e));
    }
  };

  return (
    <div className="container-folder" data-testid="container-folder">
      <div className="container-folder-head">
        <span className="field-label">Build files</span>
        <span className="muted">in the tool&apos;s folder{list.data ? ` · ${list.data.items.length} files, ${formatBytes(list.data.totalBytes)}` : ''}</span>
        <div className="spacer" />
        <ContainerHelpButton label="Folder layout and runner contract" />
      </div>
      {list.isPending ? (
        <Loading label="Reading the tool folder…" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => void list.refetch()} />
      ) : (
        <div className="files-layout">
          <FileTree
            items={list.data.items}
            skipped={list.data.skipped}
            active={activePath}
            dirty={files.dirtyPaths}
            readOnly={readOnly}
            onOpen={files.open}
            onCreate={(path) => files.create(path)}
            onRename={files.rename}
            onDelete={(path) => void remove(path)}
          />
          <div className="file-pane">
            {!active ? (
              <div className="file-empty">
                {list.data.items.length === 0 ? (
                  <>
                    <p>This folder is empty. A container tool needs a Dockerfile, and usually a runner script it copies into the image.</p>
                    {!readOnly && (
                      <button type="button" className="btn" onClick={() => void starter()} data-testid="starter-files">
                        Start with a Dockerfile and a shell runner
                      </button>
                    )}
                  </>
                ) : (
                  <p className="muted">Pick a file to edit it.</p>
                )}
              </div>
            ) : (
              <>
                <div className="file-pane-head">
                  <span className="mono break" data-testid="open-file">
                    {active.path}
                  </span>
                  {active.text !== undefined && <span className="badge">{LANGUAGE_LABEL[languageOf(active.path, active.text.split('\n', 1)[0])]}</span>}
                  {isDirty(active) && <span className="badge badge-warn">unsaved</span>}
                  <div className="spacer" />
                  {!readOnly && active.text !== undefined && (
                    <>
                      {isDirty(active) && (
                        <button type="button" className="btn btn-small" onClick={() => files.revert(active.path)}>
                          Revert
                        </button>
                      )}
                      <button
                        type="button"
                        className="btn btn-small btn-primary"
                        onClick={() => void files.save(active.path)}
                        disabled={!isDirty(active) || active.saving}
                        data-testid="save-file"
                      >
                        {active.saving ? 'Saving…' : 'Save file'}
                      </button>
                    </>
                  )}
                </div>
                {active.conflict && (
                  <div className="form-alert" role="alert">
                    <strong>{active.conflict}</strong>
                    <div className="form-actions-inline">
                      <button type="button" className="btn" onClick={() => files.revert(active.path)}>
                        Load the version on disk (discard mine)
                      </button>
                      <button type="button" className="btn btn-danger-quiet" onClick={() => void files.save(active.path, true)}>
                        Overwrite it with mine
                      </button>
                    </div>
                  </div>
                )}
                {active.error && (
                  <div className="form-alert" role="alert">
                    {active.error}
                  </div>
                )}
                {active.loading ? (
                  <Loading label="Opening…" />
                ) : active.binary ? (
                  <p className="muted file-empty">
                    A binary file ({formatBytes(active.binary.size)}): it goes into the build as it is, but is not edited here.
                  </p>
                ) : active.text !== undefined ? (
                  <>
                    <CodeEditor
                      docKey={`${tool.toolID}/${active.path}`}
                      value={active.text}
                      language={languageOf(active.path, (active.saved ?? active.text).split('\n', 1)[0])}
                      label={`Contents of ${active.path}`}
                      onChange={(text) => files.edit(active.path, text)}
                      onSave={() => void files.save(active.path)}
                      readOnly={readOnly}
                      describedBy={hintId}
                      testId="file-editor"
                    />
                    <p id={hintId} className="field-hint">
                      Ctrl+S saves this file · Tab indents; Esc then Tab leaves the editor
                    </p>
                  </>
                ) : null}
              </>
            )}
          </div>
        </div>
      )}
      {builds ? (
        <BuildPanel tool={tool} unsaved={unsaved} saveAll={files.saveAll} />
      ) : (
        <p className="notice">Save the tool to build it from this folder: it still runs the image named before.</p>
      )}
    </div>
  );
}
