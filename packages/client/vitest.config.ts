import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/** The client's tests start the real server in a process of their own: generous timeouts. */
export default mergeConfig(sharedConfig, defineConfig({ test: { testTimeout: 60_000 } }));
