import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// Workspace packages (@parla/contract) export their TypeScript sources under this condition,
// so the bundle is built from the sources and needs no prior `tsc -b` of the packages.
const SOURCE_CONDITION = '@parla/source';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // One long-lived chunk for the framework code that every page needs.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` talks to the API of a server started separately (npm start, port 3000).
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
