/**
 * The open files of a container tool's folder: what was read, what the person typed, and the
 * save of each through buildFiles.write (guarded by the sha256 it was read with, so a change made
 * elsewhere is reported rather than overwritten). Buffers live per tool for the app's session, so
 * unsaved text survives leaving the editor and coming back (it is marked unsaved meanwhile).
 */
import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiCallError, errorMessage } from '../../api/errors.js';
import { deleteBuildFile, readBuildFile, renameBuildFile, writeBuildFile } from '../../api/operations.js';
import { keys, toolRefOf, useBuildFiles } from '../../api/queries.js';
import type { ToolView } from '../../../../shared/types.js';

export interface FileBuffer {
  path: string;
  /** The text being edited; undefined while loading or for a binary file. */
  text?: string;
  /** The text on disk when last read or saved. */
  saved?: string;
  sha256?: string;
  binary?: { size: number };
  loading?: boolean;
  error?: string;
  /** A save refused because the file changed elsewhere: the person picks what wins. */
  conflict?: string;
  saving?: boolean;
}

type ToolKey = Pick<ToolView, 'toolID' | 'bundleID' | 'slug' | 'version'>;

const session = new Map<string, { buffers: Map<string, FileBuffer>; active: string | null }>();

function sessionOf(toolID: string) {
  let s = session.get(toolID);
  if (!s) session.set(toolID, (s = { buffers: new Map(), active: null }));
  return s;
}

export const isDirty = (b: FileBuffer | undefined) => !!b && b.text !== undefined && b.text !== b.saved;

export function useBuildFileBuffers(tool: ToolKey | undefined) {
  const qc = useQueryClient();
  const list = useBuildFiles(tool);
  const [, rerender] = useState(0);
  const refresh = useCallback(() => rerender((n) => n + 1), []);
  const state = tool ? sessionOf(tool.toolID) : undefined;

  const put = useCallback(
    (path: string, patch: Partial<FileBuffer>) => {
      if (!state) return;
      const prev = state.buffers.get(path) ?? { path };
      state.buffers.set(path, { ...prev, ...patch, path });
      refresh();
    },
    [state, refresh],
  );

  const load = useCallback(
    async (path: string) => {
      if (!tool) return;
      put(path, { loading: true, error: undefined });
      try {
        const file = await readBuildFile({ ...toolRefOf(tool), path });
        if (file.encoding === 'base64') put(path, { loading: false, binary: { size: file.size }, text: undefined, saved: undefined, sha256: file.sha256 });
        else put(path, { loading: false, text: file.content, saved: file.content, sha256: file.sha256, binary: undefined, conflict: undefined });
      } catch (e) {
        put(path, { loading: false, error: errorMessage(e) });
      }
    },
    [tool, put],
  );

  const open = useCallback(
    (path: string | null) => {
      if (!state) return;
      state.active = path;
      refresh();
      const b = path ? state.buffers.get(path) : undefined;
      if (path && (!b || (b.text === undefined && !b.binary && !b.loading && !b.error))) void load(path);
    },
    [state, refresh, load],
  );

  // Open the Dockerfile (or the first file) when nothing is open yet; forget an open file deleted elsewhere.
  const items = list.data?.items;
  useEffect(() => {
    if (!state || !items) return;
    for (const path of [...state.buffers.keys()]) if (!items.some((i) => i.path === path) && !isDirty(state.buffers.get(path))) state.buffers.delete(path);
    if (state.active && !items.some((i) => i.path === state.active) && !isDirty(state.buffers.get(state.active))) state.active = null;
    if (!state.active && items.length) open(items.find((i) => i.path === 'Dockerfile')?.path ?? items[0]!.path);
    refresh();
  }, [items, state, open, refresh]);

  const invalidate = () => {
    if (!tool) return;
    void qc.invalidateQueries({ queryKey: keys.buildFiles(tool.toolID) });
    void qc.invalidateQueries({ queryKey: keys.toolImage(tool.toolID) });
    void qc.invalidateQueries({ queryKey: keys.tools });
  };

  /** Saves one buffer; `force` writes over a version changed elsewhere. Resolves false when it did not save. */
  const save = async (path: string, force = false): Promise<boolean> => {
    const b = state?.buffers.get(path);
    if (!tool || !b || b.text === undefined) return false;
    put(path, { saving: true, error: undefined });
    try {
      const file = await writeBuildFile({
        ...toolRefOf(tool),
        path,
        content: b.text,
        ...(b.sha256 && !force ? { ifSha256: b.sha256 } : {}),
      });
      // Keep what was typed meanwhile (a save takes a moment); only what was sent counts as saved.
      put(path, { saving: false, saved: b.text, sha256: file.sha256, conflict: undefined });
      invalidate();
      return true;
    } catch (e) {
      if (e instanceof ApiCallError && e.code === 'MODIFIED_ELSEWHERE') put(path, { saving: false, conflict: e.message });
      else put(path, { saving: false, error: errorMessage(e) });
      return false;
    }
  };

  const saveAll = async (): Promise<boolean> => {
    let ok = true;
    for (const b of [...(state?.buffers.values() ?? [])]) if (isDirty(b)) ok = (await save(b.path)) && ok;
    return ok;
  };

  /** Creates an empty file (never over an existing one) and opens it. Throws the server's reason. */
  const create = async (path: string, content = ''): Promise<void> => {
    if (!tool) return;
    const file = await writeBuildFile({ ...toolRefOf(tool), path, content, mustNotExist: true });
    put(path, { text: file.content, saved: file.content, sha256: file.sha256 });
    invalidate();
    open(path);
  };

  const rename = async (from: string, to: string): Promise<void> => {
    if (!tool || !state) return;
    await renameBuildFile({ ...toolRefOf(tool), from, to });
    const b = state.buffers.get(from);
    state.buffers.delete(from);
    if (b) state.buffers.set(to, { ...b, path: to });
    if (state.active === from) state.active = to;
    invalidate();
    refresh();
  };

  const remove = async (path: string): Promise<void> => {
    if (!tool || !state) return;
    await deleteBuildFile({ ...toolRefOf(tool), path });
    state.buffers.delete(path);
    if (state.active === path) state.active = null;
    invalidate();
    refresh();
  };

  /** Drops the local text and reads the file again (after a conflict, or to undo everything). */
  const revert = (path: string) => {
    state?.buffers.delete(path);
    void load(path);
  };

  const buffers = state ? [...state.buffers.values()] : [];
  return {
    list,
    active: state?.active ? (state.buffers.get(state.active) ?? { path: state.active, loading: true }) : null,
    dirtyPaths: new Set(buffers.filter(isDirty).map((b) => b.path)),
    open,
    edit: (path: string, text: string) => put(path, { text }),
    save,
    saveAll,
    create,
    rename,
    remove,
    revert,
  };
}
