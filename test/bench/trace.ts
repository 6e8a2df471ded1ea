/** A Chromium trace of what `act` does, for the UI benches that read trace events (ui-timeline, ui-keytrace). */
import type { CDPSession } from 'playwright-core';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** The trace events of the given categories recorded while `act` ran (the trace ends when it returns). */
export async function traced(cdp: CDPSession, categories: string, act: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const onData = (d: { value: unknown }) => events.push(...(d.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  await act();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}
