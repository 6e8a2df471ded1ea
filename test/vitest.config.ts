import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The container image's test builds the image (minutes): `npm run test:image`, its own step in CI.
    exclude: ['test/image/**', '**/node_modules/**'],
    // chromium.global.ts: one Chromium for the run's e2e files, launched when the first asks for it.
    globalSetup: ['test/helpers/renderer-built.global.ts', 'test/helpers/scripts-compiled.global.ts', 'test/e2e/chromium.global.ts'],
    setupFiles: ['test/helpers/workers-killed.setup.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a process, a watcher or a browser will show: 1 s (Vitest's default)
    // was outrun on a loaded 2-core machine; a condition that never comes still fails, later.
    expect: { poll: { timeout: 10_000 } },
    // The default report, then the slowest files (npm test is to stay within 5 minutes on 2 cores).
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
    // Files that start servers, Docker or Chromium keep their own state; run files two at a time on a 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
