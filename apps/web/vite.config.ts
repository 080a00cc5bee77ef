import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Alias, defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { staticShell } from './static-shell.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files worth compressing; smaller ones gain nothing over their headers. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Brotli and gzip copies of every compressible file of the build, made once here at their
 * best levels, so that the server sends them as they are (@fastify/static `preCompressed`)
 * instead of compressing on every request (docs/decisions/016-compressed-assets.md).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'parla-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) =>
        COMPRESSIBLE.test(f),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          if ((await stat(full)).size < MIN_BYTES) return;
          const bytes = await readFile(full);
          await writeFile(
            `${full}.br`,
            await brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
          );
          await writeFile(
            `${full}.gz`,
            await gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
          );
        }),
      );
    },
  };
}

// Workspace packages (@parla/contract) export their TypeScript sources under this condition,
// so the bundle is built from the sources and needs no prior `tsc -b` of the packages.
const SOURCE_CONDITION = '@parla/source';

/**
 * The bundle runs the app on Preact's React layer (docs/decisions/026-preact-in-the-bundle.md);
 * `npm run dev` keeps React, whose fast refresh it uses.
 */
const PREACT: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: path.resolve(import.meta.dirname, 'react-on-preact.js') },
  { find: /^react-dom$/, replacement: 'preact/compat' },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), staticShell(), precompress()],
  resolve: {
    conditions: [SOURCE_CONDITION, ...defaultClientConditions],
    alias: command === 'build' ? PREACT : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Long-lived chunks for the framework code that every page needs: React's API (Preact
        // in the bundle, decision 026) with the router, and Mantine's core (theme, styles,
        // hooks, floating helpers). Mantine's components, and the scroll lock of its dialogs,
        // are left to the bundler, so that each page loads the ones it uses (decision 016).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](preact|react-router)[\\/]/,
            },
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine[\\/](hooks|core[\\/]esm[\\/](core|utils))[\\/]|@floating-ui[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` talks to the API of a server started separately (npm start, port 3000).
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
