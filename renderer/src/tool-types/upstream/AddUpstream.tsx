/**
 * "Add an MCP server": paste a command line or a URL, name the environment variables or headers
 * (secret values go to the secrets store, the bundle keeps `${NAME}`), test the connection to see
 * what the server offers, then save: the bundle is created with its source and synced, and opened.
 * Opened from the sidebar, the new-bundle screen and the palette, through useAddUpstream(). The
 * form (AddUpstreamForm.tsx) is a chunk of its own, loaded once the first screen has settled or
 * when a person points at what opens it; the dialog opens once it is in.
 */
import { createContext, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';
import { Modal } from '../../components/Dialog.js';
import { Loading } from '../../components/States.js';
import { useToast } from '../../components/Toasts.js';
import { errorMessage } from '../../api/errors.js';
import { preloadable } from '../../lib/preloadable.js';
import './AddUpstreamDialog.css';

const AddUpstreamForm = preloadable(() => import('./AddUpstreamForm.js').then((m) => m.AddUpstreamForm));

/** Loads the form's code ahead of a click: on hover or focus of what opens it. */
export const preloadAddUpstream = AddUpstreamForm.preload;

const AddUpstreamContext = createContext<(() => void) | null>(null);

export function AddUpstreamProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const toast = useToast();
  const show = useCallback(() => {
    // Opened once the form is there: showModal() then focuses its first field, as before the split.
    if (AddUpstreamForm.isLoaded()) setOpen(true);
    else
      AddUpstreamForm.preload().then(
        () => setOpen(true),
        (e: unknown) => toast.show('error', `Could not open the add-server dialog: ${errorMessage(e)}`),
      );
  }, [toast]);
  return (
    <AddUpstreamContext.Provider value={show}>
      {children}
      <Modal open={open} onClose={() => setOpen(false)} title="Add an MCP server" className="modal-wide add-server" testId="add-server-dialog">
        <Suspense fallback={<Loading />}>
          <AddUpstreamForm onDone={() => setOpen(false)} />
        </Suspense>
      </Modal>
    </AddUpstreamContext.Provider>
  );
}

/** Opens the add-server dialog. */
export function useAddUpstream(): () => void {
  const show = useContext(AddUpstreamContext);
  if (!show) throw new Error('useAddUpstream outside AddUpstreamProvider');
  return show;
}
