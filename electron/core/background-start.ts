/**
 * Work a core does once it is up that nothing it answers waits on: the runners' start (Docker's
 * probe and the sweep of leftover containers), the background count of context costs (the
 * tokenizer's tables) and the search index (built on the first search otherwise). A process that serves (the headless host) runs it after it listens, so its
 * start is not the sum of them; others run it as the core opens.
 */
import type { Runner } from './invoke/types.js';
import type { ContextCostService } from './agents/context-cost.js';
import type { Logger } from './log.js';

export interface BackgroundStartOptions {
  runners: readonly Runner[];
  contextCost: ContextCostService;
  search: { prepare(): void };
  logger: Logger;
  /** Whether runners start at all (tests that do not need Docker turn it off). */
  docker: boolean;
}

/** What starts the work, once: resolves when the runners' starts are done (a failure is logged, never thrown). */
export function backgroundStart(opts: BackgroundStartOptions): () => Promise<void> {
  let started: Promise<void> | undefined;
  return () =>
    (started ??= (async () => {
      opts.contextCost.release();
      setImmediate(() => {
        try {
          opts.search.prepare();
        } catch (e) {
          opts.logger.error('building the search index', e);
        }
      });
      if (!opts.docker) return;
      await Promise.all(opts.runners.map((r) => r.start?.().catch((e: unknown) => opts.logger.error(`starting the ${r.type} runner`, e))));
    })());
}
