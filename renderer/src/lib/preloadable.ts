/**
 * A component whose code loads on demand, as with React.lazy, and can be loaded ahead of need:
 * once the first screen has settled (preloadSecondaryScreens, called by App), or on the intent to
 * open it (a hover or focus on what opens it). Once its code is in it renders at once, even on
 * its first mount: React.lazy suspends a component's first render even when its module has
 * arrived, and the Suspense fallback would show for a frame.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';
import { whenIdle } from '../api/idle.js';
import { foregroundBusyFor } from '../api/foreground.js';

/** A preload waits for an idle moment at most this long. */
const PRELOAD_IDLE_TIMEOUT_MS = 2000;

export interface Preloadable<P extends object> {
  (props: P): ReturnType<typeof createElement>;
  /** Loads the code (once); resolves when it is in. */
  preload(): Promise<void>;
  /** Whether the code is in: rendering it now will not suspend. */
  isLoaded(): boolean;
}

const afterFirstScreen = new Set<() => Promise<void>>();

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A chunk that failed to load (the host restarted with a new build) is tried again next time.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function PreloadableComponent(props: P) {
    // Chosen once per mount, so the element keeps its type (and its state) when the code arrives.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  const preload = () => start().then(() => undefined);
  afterFirstScreen.add(preload);
  return Object.assign(PreloadableComponent, { preload, isLoaded: () => loaded !== undefined });
}

/**
 * Loads every preloadable component's code, one per idle moment: what the first screen does not
 * show but a click may open next. Failures are left for the component's own render to report.
 */
export function preloadSecondaryScreens(): () => void {
  const queue = [...afterFirstScreen];
  let cancelled = false;
  const next = () => {
    const load = queue.shift();
    if (cancelled || !load) return;
    void load()
      .catch(() => undefined)
      .finally(() => {
        if (!cancelled) cancelStep = whenIdle(next, PRELOAD_IDLE_TIMEOUT_MS, foregroundBusyFor);
      });
  };
  let cancelStep = whenIdle(next, PRELOAD_IDLE_TIMEOUT_MS, foregroundBusyFor);
  return () => {
    cancelled = true;
    cancelStep();
  };
}
