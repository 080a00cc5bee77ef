import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/**
 * One test file at a time: the pool and neural tests start worker threads and child processes
 * of their own, and their event-loop checks measure this process, so files running side by side
 * on a two-core machine would measure each other.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: { fileParallelism: false, testTimeout: 30_000, setupFiles: ['test/setup.ts'] },
  }),
);
