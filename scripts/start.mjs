// npm start: builds what is not built yet, then runs the product in THIS process (one process:
// the API under /api and the web app for every other path).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, buildWeb, canCompile, ROOT, webBuildIsStale } from './lib.mjs';

const serverEntry = path.join(ROOT, 'apps/server/dist/server.js');

if (canCompile()) {
  if (buildServer() !== 0) process.exit(1);
  if (webBuildIsStale()) {
    console.info('Building the web app (first start, or its sources changed)…');
    if (buildWeb() !== 0) process.exit(1);
  }
} else if (!existsSync(serverEntry)) {
  console.error(
    'Parla is not built and no compiler is installed: run npm install, then npm start.',
  );
  process.exit(1);
}

await import(pathToFileURL(serverEntry).href);
