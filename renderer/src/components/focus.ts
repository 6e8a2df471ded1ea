/** Focus helpers shared by dialogs, the approvals panel and navigation. */
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

const TABBABLE = [
  'a[href]',
  'button:not(:disabled)',
  'input:not(:disabled):not([type="hidden"])',
  'select:not(:disabled)',
  'textarea:not(:disabled)',
  'summary',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]',
].join(',');

function visible(el: HTMLElement): boolean {
  if (el.getClientRects().length === 0) return false;
  // Inside a closed <details>, only its own summary can be reached.
  const details = el.closest('details');
  if (details && !details.open && !(el.tagName === 'SUMMARY' && el.parentElement === details)) return false;
  return true;
}

/** The elements Tab reaches inside `root`, in order (radio groups count once, as browsers do). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  const seenRadio = new Set<string>();
  const out: HTMLElement[] = [];
  for (const el of root.querySelectorAll<HTMLElement>(TABBABLE)) {
    if (el.tabIndex < 0 || el.closest('[inert]') || !visible(el)) continue;
    if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
      const group = Array.from(root.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(el.name)}"]:not(:disabled)`));
      const stop = group.find((r) => r.checked) ?? group[0];
      if (el !== stop || seenRadio.has(el.name)) continue;
      seenRadio.add(el.name);
    }
    out.push(el);
  }
  return out;
}

/**
 * Keeps Tab and Shift+Tab inside `root`: from the last stop to the first and back. Native modal
 * dialogs make the page inert, but Tab past the last control still leaves the page for the
 * browser's own UI; this keeps it in the dialog.
 */
export function trapTab(e: KeyboardEvent | ReactKeyboardEvent, root: HTMLElement): void {
  if (e.key !== 'Tab' || e.defaultPrevented) return;
  const stops = tabbables(root);
  if (stops.length === 0) {
    e.preventDefault();
    return;
  }
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const active = document.activeElement as HTMLElement | null;
  const inside = !!active && root.contains(active);
  if (e.shiftKey && (active === first || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

/** Gives focus back to `el` when it can still take it (connected, not disabled, not inert). */
export function restoreFocus(el: Element | null): boolean {
  if (!(el instanceof HTMLElement) || !el.isConnected || el.closest('[inert]')) return false;
  if ((el as HTMLButtonElement).disabled) return false;
  el.focus({ preventScroll: true });
  return document.activeElement === el;
}

/** Where a screen wants focus when it is opened: its [data-autofocus] field, else its heading, else its error. */
export function screenFocusTarget(main: HTMLElement | null): HTMLElement | null {
  if (!main) return null;
  const target =
    main.querySelector<HTMLElement>('[data-autofocus]') ??
    main.querySelector<HTMLElement>('h1') ??
    main.querySelector<HTMLElement>('.state-error .state-title');
  if (target && target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  return target;
}

/** Focuses the current screen's target (after a dialog whose opener is gone closes, for instance). */
export function focusScreen(): boolean {
  const target = screenFocusTarget(document.querySelector<HTMLElement>('main'));
  if (!target) return false;
  target.focus({ preventScroll: true });
  return document.activeElement === target;
}

/**
 * The element a person last focused, also after it lost focus without focus going anywhere (a
 * button disabled while its action runs, a file picker that took focus away): the opener a dialog
 * gives focus back to.
 */
let lastFocused: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof Element && !e.target.closest('dialog')) lastFocused = e.target;
  });
}

/** What opened whatever is opening now: the focused element, or the last one focused when focus is on <body>. */
export function focusOrigin(): Element | null {
  const active = document.activeElement;
  return active && active !== document.body ? active : lastFocused;
}
