import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Workspace packages export their TypeScript sources under the `@parla/source` condition, so
 * tests and the Vite dev server use the sources directly and only production runs from dist/.
 */
export const SOURCE_CONDITION = '@parla/source';

export const sharedConfig = defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  // Dependencies resolve as Node resolves them in production, without bundlers' `module`
  // condition: the AWS SDK's `module` build imports extensionless paths that Node cannot load.
  ssr: {
    resolve: {
      conditions: [
        SOURCE_CONDITION,
        ...defaultServerConditions.filter((condition) => condition !== 'module'),
      ],
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: [new URL('./vitest.setup.ts', import.meta.url).pathname],
  },
});
