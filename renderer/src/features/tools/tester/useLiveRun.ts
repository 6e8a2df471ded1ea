/**
 * What a run streams while it goes, for the tester (and the pipeline timeline, which reads
 * `steps`): output text as it grows and the latest record of each pipeline step. Events are
 * gathered per animation frame, so a tool printing thousands of lines re-renders at screen
 * speed, not once per line. `onEvent`, when given, sees every event as it arrives.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { InvokeStreamEvent, PipelineStepRecord, ProgressUpdate } from '../../../../../shared/types.js';

export interface LiveRun {
  /** The output so far (chunks joined). */
  output: string;
  /** Pipeline steps in the order they started (read-only ones may start out of declared order), each at its latest state. */
  steps: PipelineStepRecord[];
  /** The latest progress the tool's server reported, if it reported any. */
  progress?: ProgressUpdate;
}

const EMPTY: LiveRun = { output: '', steps: [] };

export function applyEvent(live: LiveRun, event: InvokeStreamEvent): LiveRun {
  if (event.type === 'chunk') return { ...live, output: live.output + event.text };
  if (event.type === 'progress') {
    const { type: _type, ...progress } = event;
    return { ...live, progress };
  }
  const at = live.steps.findIndex((s) => s.id === event.step.id);
  const steps = at < 0 ? [...live.steps, event.step] : live.steps.map((s, i) => (i === at ? event.step : s));
  return { ...live, steps };
}

export function useLiveRun(onEvent?: (event: InvokeStreamEvent) => void): {
  live: LiveRun;
  /** The listener to hand to invokeStream. */
  push: (event: InvokeStreamEvent) => void;
  /** Empties the view for a new run. */
  reset: () => void;
} {
  const [live, setLive] = useState<LiveRun>(EMPTY);
  const queue = useRef<InvokeStreamEvent[]>([]);
  const frame = useRef<number | undefined>(undefined);
  const listener = useRef(onEvent);
  listener.current = onEvent;

  const drain = useCallback(() => {
    frame.current = undefined;
    const events = queue.current;
    queue.current = [];
    if (events.length) setLive((current) => events.reduce(applyEvent, current));
  }, []);

  const push = useCallback(
    (event: InvokeStreamEvent) => {
      listener.current?.(event);
      queue.current.push(event);
      frame.current ??= requestAnimationFrame(drain);
    },
    [drain],
  );

  const reset = useCallback(() => {
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = undefined;
    queue.current = [];
    setLive(EMPTY);
  }, []);

  useEffect(() => () => void (frame.current !== undefined && cancelAnimationFrame(frame.current)), []);
  return { live, push, reset };
}
