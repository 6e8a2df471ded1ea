/** Copying to the clipboard with the one toast for it: what was copied, or why it could not be. */
import { useCallback } from 'react';
import { copyText } from './download.js';
import { useToast } from '../components/Toasts.js';

export function useCopy(): (text: string, done: string) => Promise<void> {
  const toast = useToast();
  return useCallback(
    async (text: string, done: string) => {
      const copied = await copyText(text);
      toast.show(copied ? 'success' : 'error', copied ? done : 'Could not copy: the clipboard is not available');
    },
    [toast],
  );
}
