/** Ctrl+S (⌘S) anywhere on the page calls `onSave`, unless something nearer handled the key first. */
import { useEffect, useRef } from 'react';

export function useSaveShortcut(onSave: () => void): void {
  const latest = useRef(onSave);
  useEffect(() => {
    latest.current = onSave;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A build file's editor handles its own Ctrl+S (saves the file) and marks the event handled.
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        latest.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
