/**
 * Modal dialogs on the native <dialog>: showModal() makes the rest of the page inert and closes
 * on Escape. On top of it: Tab and Shift+Tab cycle inside the dialog (the browser would let Tab
 * leave the page for its own UI), and focus goes back to the element that opened the dialog when
 * it closes, also when the dialog is unmounted while open (a flow that moves on to its next step).
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { focusOrigin, focusScreen, restoreFocus, trapTab } from './focus.js';

interface ModalProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}

export function Modal({ open, onClose, title, children, className, testId }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      // Shown again right after a cleanup (StrictMode's remount in development), focus is already
      // inside: the opener recorded the first time stays.
      const origin = focusOrigin();
      if (origin && !d.contains(origin)) opener.current = origin;
      d.showModal();
      // showModal() focuses the first focusable element; a dialog can name a better one.
      d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && d.open) {
      d.close();
      giveFocusBack(opener.current);
      opener.current = null;
    }
  }, [open]);
  // Unmounted while open: the page is no longer inert once the dialog leaves the DOM. (React has
  // cleared the ref by the time this runs, so the element is kept from the first effect.)
  useEffect(() => {
    const d = ref.current;
    return () => {
      if (d?.open) d.close();
      const back = opener.current;
      if (d && back) queueMicrotask(() => giveFocusBack(back));
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-label={title}
      data-testid={testId}
      onClose={() => {
        // A close that was undone before its event arrived (React's StrictMode remounts effects
        // in development: closed in the cleanup, shown again at once) is not the person closing.
        if (!ref.current?.open) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === ref.current) onClose();
      }}
      onKeyDown={(e) => ref.current && trapTab(e, ref.current)}
    >
      {open && children}
    </dialog>
  );
}

/** Back to the opener; when it is gone (its screen moved on), to the current screen's heading. */
function giveFocusBack(opener: Element | null): void {
  if (restoreFocus(opener) || document.querySelector('dialog[open]')) return;
  if (document.activeElement === document.body || document.activeElement === null) focusScreen();
}

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
}

type Ask = (o: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Ask | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<(ConfirmOptions & { resolve(v: boolean): void }) | null>(null);
  const ask = useCallback<Ask>((o) => new Promise<boolean>((resolve) => setPending({ ...o, resolve })), []);
  const finish = (v: boolean) => {
    pending?.resolve(v);
    setPending(null);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <Modal open={pending !== null} onClose={() => finish(false)} title={pending?.title ?? ''} testId="confirm-dialog">
        {pending && (
          <form
            method="dialog"
            className="confirm"
            onSubmit={(e) => {
              e.preventDefault();
              finish(true);
            }}
          >
            <h2 className="modal-title">{pending.title}</h2>
            <div className="confirm-message">{pending.message}</div>
            <div className="modal-actions">
              <button type="button" className="btn" onClick={() => finish(false)}>
                Cancel
              </button>
              <button type="submit" className={`btn ${pending.danger ? 'btn-danger' : 'btn-primary'}`} autoFocus>
                {pending.confirmLabel}
              </button>
            </div>
          </form>
        )}
      </Modal>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error('useConfirm outside ConfirmProvider');
  return ask;
}
