import react from '@vitejs/plugin-react';
import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  sharedConfig,
  defineConfig({
    plugins: [react()],
    test: { environment: 'happy-dom', setupFiles: ['src/test/setup.ts'] },
  }),
);
