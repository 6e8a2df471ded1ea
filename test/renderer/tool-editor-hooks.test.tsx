// @vitest-environment jsdom
/**
 * The tool editor's named hooks (features/tools/editor/): Ctrl+S calls the newest save and leaves a
 * key something nearer handled; the draft records which fields were changed, and a merge or a
 * discard replaces it; errors show once their field was touched or a save was attempted, and the
 * server's issues beside the draft's own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useSaveShortcut } from '../../renderer/src/features/tools/editor/useSaveShortcut.js';
import { useFieldErrors, useToolDraft } from '../../renderer/src/features/tools/editor/useToolDraft.js';
import { emptyDraft, localIssues } from '../../renderer/src/features/tools/editor/draft.js';
import { ApiCallError } from '../../renderer/src/api/errors.js';

afterEach(() => cleanup());

const press = (init: KeyboardEventInit) => {
  const e = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  window.dispatchEvent(e);
  return e;
};

describe('useSaveShortcut', () => {
  it('calls the save of the latest render on Ctrl+S and ⌘S, and nothing on other keys', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = renderHook(({ onSave }) => useSaveShortcut(onSave), { initialProps: { onSave: first } });
    rerender({ onSave: second });
    expect(press({ key: 's', ctrlKey: true }).defaultPrevented).toBe(true);
    press({ key: 'S', metaKey: true });
    press({ key: 's' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('leaves a Ctrl+S that something nearer already handled (a build file saving itself), and stops listening when unmounted', () => {
    const onSave = vi.fn();
    const { unmount } = renderHook(() => useSaveShortcut(onSave));
    const e = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, cancelable: true });
    e.preventDefault();
    window.dispatchEvent(e);
    expect(onSave).not.toHaveBeenCalled();
    unmount();
    press({ key: 's', ctrlKey: true });
    expect(onSave).not.toHaveBeenCalled();
  });
});

describe('useToolDraft', () => {
  it('records the fields a person changed, by the name the errors use', () => {
    const { result } = renderHook(() => useToolDraft(undefined));
    act(() => result.current.update('argSchemaText', '{'));
    act(() => result.current.updateImpls(result.current.draft.impls, { urlTemplate: 'https://x' }));
    act(() => result.current.updateCommon({ outputSchemaText: '{}', safety: 'readOnly' }));
    expect(result.current.draft.argSchemaText).toBe('{');
    expect([...result.current.dirty].sort()).toEqual(['argSchema', 'impl.urlTemplate', 'impls', 'outputSchema', 'safety']);
  });

  it('keeps a merged draft marked unsaved and starts a discarded one clean', () => {
    const { result } = renderHook(() => useToolDraft(undefined));
    act(() => result.current.update('slug', 'a'));
    act(() => result.current.replaceDraft({ ...emptyDraft(), slug: 'merged' }, true));
    expect(result.current.draft.slug).toBe('merged');
    expect(result.current.dirty.has('merged')).toBe(true);
    act(() => result.current.replaceDraft(emptyDraft(), false));
    expect(result.current.dirty.size).toBe(0);
  });
});

describe('useFieldErrors', () => {
  it("shows the draft's own errors once their field was touched or a save attempted, and the server's beside them", () => {
    const draft = { ...emptyDraft(), slug: 'Not A Slug' };
    const local = localIssues(draft);
    expect(local.has('slug')).toBe(true);
    const server = new ApiCallError({ code: 'INVALID_INPUT', message: 'invalid tool', details: { issues: [{ field: 'version', message: 'taken' }] } });
    const props = { draft, dirty: new Set<string>(), local, attempted: false, serverError: null as ApiCallError | null };
    const { result, rerender } = renderHook((p: typeof props) => useFieldErrors(p), { initialProps: props });
    expect(result.current.errors.has('slug')).toBe(false);
    rerender({ ...props, dirty: new Set(['slug']) });
    expect(result.current.errors.has('slug')).toBe(true);
    rerender({ ...props, attempted: true, serverError: server });
    expect(result.current.errors.get('version')).toBe('taken');
    expect(result.current.errors.has('slug')).toBe(true);
  });
});
