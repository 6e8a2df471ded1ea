/**
 * One Toolwright process with a scheduler, for the cross-process tests: it opens the data folder
 * (watching it, as the app does), runs its scheduler on a fast clock shared with its siblings
 * through the anchors, and prints one JSON line per role change and per fire it ran, until it is
 * stopped (SIGTERM) or killed.
 *
 *   scheduler-worker.ts <dataDir> <speed> <realAnchor> <fakeAnchor> <goFile>
 *
 * Once ready it waits for <goFile>, which holds the instant every sibling starts its scheduler.
 */
import { readFileSync } from 'node:fs';
import { createCore } from '../../electron/core/app-core.js';
import { stderrLogger } from '../../electron/core/log.js';
import { fastClock, reportLine, reportingScheduler } from './schedules.js';

const [dataDir, speed, realAnchor, fakeAnchor, goFile] = process.argv.slice(2);

async function main(): Promise<void> {
  const clock = fastClock(Number(speed), Number(realAnchor), Number(fakeAnchor));
  const core = await createCore({
    dataDir: dataDir!,
    docker: false,
    watch: true,
    logger: stderrLogger(),
    scheduler: {
      clock,
      autoStart: false,
      renewMs: 1000,
      standbyPollMs: 500,
      ...reportingScheduler,
    },
  });
  // Warm, as a long-lived process is: a process's very first run loads the card sanitiser, which
  // on a loaded machine takes seconds and would make the first fires overlap.
  for (const rec of core.store.state.tools.values()) {
    const args = rec.file.schedules?.[0]?.args;
    if (args) await core.invocations.invoke({ bundleID: rec.file.bundleID, slug: rec.file.slug, version: rec.file.version }, { args });
  }
  reportLine({ ready: true });
  // Every process starts its scheduler at the same instant.
  let startAt: number | undefined;
  while (startAt === undefined) {
    try {
      const at = Number(readFileSync(goFile!, 'utf8'));
      if (at > 0) startAt = at; // an empty file is one being written
    } catch {
      // not there yet
    }
    if (startAt === undefined) await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
  core.scheduler!.start();
  process.on('SIGTERM', () => {
    void core.close().then(() => {
      reportLine({ closed: true });
      process.exit(0);
    });
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`scheduler-worker: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
