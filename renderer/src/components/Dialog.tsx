/**
 * Modal dialogs on the native <dialog>: showModal() traps focus, makes the rest inert and
 * closes on Escape, so keyboard users get the right behaviour without a library.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

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
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      // showModal() focuses the first focusable element; a dialog can name a better one.
      d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-label={title}
      data-testid={testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      {open && children}
    </dialog>
  );
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
