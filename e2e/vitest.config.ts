import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The end-to-end suite: the built product (node apps/server/dist/server.js) on a free port with
 * a fresh DATA_DIR, driven by Debian's chromium through playwright-core. One file at a time
 * (one browser, two cores), generous timeouts.
 */
export default defineConfig({
  // Workspace packages (@parla/client) from their sources, as in the other suites.
  ssr: {
    resolve: {
      conditions: [
        '@parla/source',
        ...defaultServerConditions.filter((condition) => condition !== 'module'),
      ],
    },
  },
  test: {
    include: ['src/specs/**/*.test.ts'],
    globalSetup: ['./src/harness/global-setup.ts'],
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
  },
});
