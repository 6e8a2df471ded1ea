/**
 * Force-removal of a run's container. A container the kernel is still tearing down (processes
 * stuck under OOM) can refuse for a while: then removal goes on in the background, with pauses,
 * and settled() waits for it. If the engine is gone, the labels let sweepOrphans find it later.
 */
import type Dockerode from 'dockerode';
import { delay } from '../../util/abort.js';

export class ContainerRemoval {
  private readonly pending = new Set<Promise<void>>();

  async remove(container: Dockerode.Container): Promise<void> {
    if (await tryRemove(container)) return;
    const retry = (async () => {
      for (const pause of [500, 1000, 2000, 5000, 10_000, 30_000]) {
        await delay(pause);
        if (await tryRemove(container)) return;
      }
    })().finally(() => this.pending.delete(retry));
    this.pending.add(retry);
  }

  /** Waits for the removals still retrying in the background. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

async function tryRemove(container: Dockerode.Container): Promise<boolean> {
  try {
    await container.remove({ force: true, v: true });
    return true;
  } catch (error) {
    return (error as { statusCode?: number }).statusCode === 404;
  }
}
