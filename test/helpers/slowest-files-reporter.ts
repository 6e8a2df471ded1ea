/**
 * A Vitest reporter that lists the slowest test files after the run (beside the default one), so
 * the file that makes `npm test` slow is named where everyone sees it. A file's time is what it
 * held a worker: import and collection, set-up, then its tests and hooks.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();
  private workers = 1;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.workers = vitest.config.maxWorkers;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((m) => {
      const d = m.diagnostic();
      return { file: relative(this.root, m.moduleId), ms: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration };
    });
    if (timed.length < 2) return;
    const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, SHOWN);
    const total = timed.reduce((sum, t) => sum + t.ms, 0);
    const lines = slowest.map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}`);
    console.log(`\n Slowest test files (of ${timed.length}, ${(total / 1000).toFixed(0)} s in all, ${this.workers} at a time):\n${lines.join('\n')}\n`);
  }
}
