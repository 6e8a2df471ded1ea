/**
 * Toasts for completed actions and failures, announced to screen readers through a live region.
 * At most three show at once (the newest); each dismisses itself. They sit bottom-left, and
 * lift above any primary button they would cover, so Save, Run or Create stay clickable.
 */
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import './Toasts.css';

export type ToastKind = 'success' | 'error' | 'info';

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  action?: { label: string; run: () => void };
}

interface ToastApi {
  show(kind: ToastKind, message: string, action?: Toast['action']): void;
}

const ToastContext = createContext<ToastApi | null>(null);

const LIFETIME_MS = { success: 4000, info: 5000, error: 8000 };
export const MAX_VISIBLE_TOASTS = 3;
/** What toasts must never cover: primary buttons and the sticky editor footer. */
const PROTECTED = '.btn-primary, .editor-footer, [data-toast-avoid]';
const BASE_BOTTOM = 18;
const GAP = 8;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * How far to raise a stack of `height` px, spanning [left, right] and resting `base` px above
 * the bottom of a `viewportHeight` viewport, so that it overlaps none of `avoid`.
 */
export function toastLift(stack: { left: number; right: number; height: number }, avoid: readonly Box[], viewportHeight: number, base = BASE_BOTTOM): number {
  let lift = 0;
  for (let round = 0; round <= avoid.length; round++) {
    const bottom = viewportHeight - base - lift;
    const top = bottom - stack.height;
    const hit = avoid.find((b) => b.right > stack.left && b.left < stack.right && b.bottom > top && b.top < bottom);
    if (!hit) break;
    lift = Math.max(lift, viewportHeight - base - (hit.top - GAP));
  }
  // Never off the top of the window: below the top bar (~60 px) is as high as it goes.
  return Math.min(lift, Math.max(0, viewportHeight - base - stack.height - 64));
}

function protectedBoxes(): Box[] {
  const out: Box[] = [];
  for (const el of document.querySelectorAll<HTMLElement>(PROTECTED)) {
    if (el.closest('dialog')) continue; // dialogs sit in the top layer, above toasts anyway
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight) out.push(r);
  }
  return out;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const stackRef = useRef<HTMLDivElement>(null);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (kind: ToastKind, message: string, action?: Toast['action']) => {
      const id = nextId.current++;
      setToasts((ts) => [...ts, { id, kind, message, action }].slice(-MAX_VISIBLE_TOASTS));
      setTimeout(() => dismiss(id), action ? LIFETIME_MS[kind] + 4000 : LIFETIME_MS[kind]);
    },
    [dismiss],
  );
  const api = useMemo(() => ({ show }), [show]);

  const place = useCallback(() => {
    const stack = stackRef.current;
    if (!stack) return;
    const r = stack.getBoundingClientRect();
    const lift = r.height > 0 ? toastLift({ left: r.left, right: r.right, height: r.height }, protectedBoxes(), window.innerHeight) : 0;
    stack.style.setProperty('--toast-lift', `${lift}px`);
  }, []);

  // Measuring forces a layout; with no toast there is nothing to lift (the first commit, most of the time).
  useLayoutEffect(() => {
    if (toasts.length > 0) place();
    else stackRef.current?.style.removeProperty('--toast-lift');
  }, [toasts, place]);

  // While toasts show, the page under them can scroll, resize or change screen.
  useEffect(() => {
    if (toasts.length === 0) return;
    let frame = 0;
    const schedule = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          place();
        });
    };
    window.addEventListener('scroll', schedule, true);
    window.addEventListener('resize', schedule);
    const timer = setInterval(schedule, 250);
    return () => {
      window.removeEventListener('scroll', schedule, true);
      window.removeEventListener('resize', schedule);
      clearInterval(timer);
      cancelAnimationFrame(frame);
    };
  }, [toasts.length, place]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite" ref={stackRef} data-testid="toasts">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} data-testid={`toast-${t.kind}`}>
            <span className="toast-message">{t.message}</span>
            {t.action && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  t.action!.run();
                  dismiss(t.id);
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
