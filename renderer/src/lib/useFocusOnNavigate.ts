/**
 * After every navigation (a link, a table row, a search result, Back or Forward) focus moves to
 * the new view's first field or heading, so keyboard and screen-reader users land where they
 * went instead of on <body>. Screens load lazily and fetch their data, so the target may appear
 * later; it is looked for again whenever the page changes (a MutationObserver: a screen rendered,
 * a dialog closed) or focus moves, for a few seconds, and the search stops as soon as the person
 * acts (a click, a key) or puts focus somewhere themselves. A heading that is replaced while
 * loading (a placeholder header, then the real one) is followed. Nothing runs on a timer or on
 * every animation frame: with the app idle, this costs nothing.
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
    let stopped = false;
    let queued = false;
    const started = performance.now();
    const observer = new MutationObserver(() => schedule());
    const timers: ReturnType<typeof setTimeout>[] = [];
    const stop = () => {
      if (stopped) return;
      stopped = true;
      observer.disconnect();
      for (const t of timers) clearTimeout(t);
      window.removeEventListener('pointerdown', stop, true);
      window.removeEventListener('keydown', stop, true);
      document.removeEventListener('focusin', schedule, true);
      document.removeEventListener('focusout', schedule, true);
    };
    // Several changes in one task (a commit, a focus move and its blur) are looked at once, after them.
    function schedule() {
      if (queued || stopped) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        check();
      });
    }
    const check = () => {
      if (stopped) return;
      const now = performance.now();
      if (now - started > LOOK_MS) return stop();
      if (document.querySelector('dialog[open]')) {
        // Once the view had focus, a dialog is the person's doing: leave focus to it.
        if (target) return stop();
        // Before that, a dialog still closing (the palette that opened this view) gives focus back first.
        waitedForDialog = true;
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
        follow(wanted, now);
      } else if (target && active === target) {
        if (now - focusedAt > FOLLOW_MS) stop();
      } else if (stale) {
        if (wanted) {
          wanted.focus({ preventScroll: true });
          if (document.activeElement === wanted) follow(wanted, now);
        }
      } else {
        stop(); // the person put focus somewhere: leave it there
      }
    };
    const follow = (el: HTMLElement, now: number) => {
      target = el;
      focusedAt = now;
      from = null;
      timers.push(setTimeout(check, FOLLOW_MS + 1));
    };
    window.addEventListener('pointerdown', stop, true);
    window.addEventListener('keydown', stop, true);
    document.addEventListener('focusin', schedule, true);
    document.addEventListener('focusout', schedule, true);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['open', 'data-autofocus', 'disabled', 'inert'] });
    timers.push(setTimeout(stop, LOOK_MS));
    check();
    return stop;
  }, [mainRef, seq]);
}
