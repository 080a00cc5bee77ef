import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

const config = mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      name: `server:${process.env.PARLA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite'}`,
      globalSetup: ['src/test/global-setup.ts'],
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  }),
);
// Dependencies resolve as Node resolves them in production, without bundlers' `module`
// condition: the AWS SDK's `module` build imports extensionless paths that Node cannot load.
config.ssr.resolve.conditions = config.ssr.resolve.conditions.filter(
  (condition: string) => condition !== 'module',
);
export default config;
