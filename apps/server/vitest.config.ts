import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      name: `server:${process.env.PARLA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite'}`,
      globalSetup: ['test/global-setup.ts'],
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  }),
);
