import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The team image: built from the real Dockerfile and run (`npm run test:image`; apart from npm test, which it would slow by minutes). */
export default defineConfig({
  root,
  test: {
    include: ['test/image/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30 * 60_000,
    hookTimeout: 30 * 60_000,
    expect: { poll: { timeout: 120_000, interval: 1000 } },
  },
});
