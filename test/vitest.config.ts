import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Files that start no process, server, Docker or browser, change no global and mock no module:
 * they share their workers' imports (isolate: false), instead of each importing the core, React
 * or jsdom again in a fresh fork. Vitest 3 sets isolation per pool, so they run in the threads
 * pool and the rest in forks, one group after the other (groupOrder), two workers at a time.
 */
const SHARED_IMPORTS = [
  'test/shared/**/*.test.ts',
  // The renderer's logic; its components (.tsx, jsdom) keep their forks: Testing Library's screen
  // holds the document of the first file that imported it.
  'test/renderer/**/*.test.ts',
  'test/electron/core/functions/**/*.test.ts',
  'test/electron/core/search/**/*.test.ts',
  'test/electron/core/card/**/*.test.ts',
  'test/electron/core/secrets/**/*.test.ts',
  // A type's own save checks; its runner's tests below start servers or containers, but for these.
  'test/electron/core/tool-types/*.test.ts',
  'test/electron/core/tool-types/http/{request,runner-parts,multipart,styles}.test.ts',
];

export default defineConfig({
  root,
  plugins: [react()],
  test: {
    // The container image's test builds the image (minutes): `npm run test:image`, its own step in CI.
    exclude: ['test/image/**', '**/node_modules/**'],
    // chromium.global.ts: one Chromium for the run's e2e files, launched when the first asks for it.
    globalSetup: ['test/helpers/prepared.global.ts', 'test/e2e/chromium.global.ts'],
    setupFiles: ['test/helpers/workers-killed.setup.ts'],
    environment: 'node',
    pool: 'forks',
    poolOptions: { threads: { isolate: false } },
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
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-imports',
          include: SHARED_IMPORTS,
          pool: 'threads',
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...SHARED_IMPORTS, 'test/image/**', '**/node_modules/**'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
