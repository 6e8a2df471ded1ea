/**
 * After every navigation (a link, a table row, a search result, Back or Forward) focus moves to
 * the new view's first field or heading, so keyboard and screen-reader users land where they
 * went instead of on <body>. Screens load lazily and fetch their data, so the target may appear
 * a few frames later; it is looked for on each frame for a few seconds, and the search stops as
 * soon as the person acts (a click, a key) or puts focus somewhere themselves. A heading that is
 * replaced while loading (a placeholder header, then the real one) is followed.
 */
import { useEffect, type RefObject } from 'react';
import { screenFocusTarget } from '../components/focus.js';

const LOOK_MS = 8000;
const FOLLOW_MS = 1500;

export function useFocusOnNavigate(mainRef: RefObject<HTMLElement | null>, seq: number): void {
  useEffect(() => {
    let from: Element | null = document.activeElement;
    let target: HTMLElement | null = null;
    let focusedAt = 0;
    let waitedForDialog = false;
    const started = performance.now();
    let frame = 0;
    let acted = false;
    const onAct = () => (acted = true);
    window.addEventListener('pointerdown', onAct, true);
    window.addEventListener('keydown', onAct, true);
    const tick = () => {
      if (acted) return;
      const now = performance.now();
      if (now - started > LOOK_MS) return;
      if (document.querySelector('dialog[open]')) {
        // Once the view had focus, a dialog is the person's doing: leave focus to it.
        if (target) return;
        // Before that, a dialog still closing (the palette that opened this view) gives focus back first.
        waitedForDialog = true;
        frame = requestAnimationFrame(tick);
        return;
      }
      if (waitedForDialog) {
        waitedForDialog = false;
        from = document.activeElement;
      }
      const active = document.activeElement;
      const stale = !active || active === document.body || active === from || !active.isConnected;
      const wanted = screenFocusTarget(mainRef.current);
      if (wanted && active === wanted && !target) {
        // The view focused its own field as it mounted (autoFocus): that is where focus goes.
        target = wanted;
        focusedAt = now;
        from = null;
      } else if (target && active === target) {
        if (now - focusedAt > FOLLOW_MS) return;
      } else if (stale) {
        const next = wanted;
        if (next) {
          next.focus({ preventScroll: true });
          if (document.activeElement === next) {
            target = next;
            focusedAt = now;
            from = null;
          }
        }
      } else {
        return; // the person put focus somewhere: leave it there
      }
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', onAct, true);
      window.removeEventListener('keydown', onAct, true);
    };
  }, [mainRef, seq]);
}
