// npm run build: compiles the packages and the server (tsc -b) and bundles the web app (Vite).
import { buildServer, buildWeb } from './lib.mjs';

const status = buildServer() || buildWeb();
process.exit(status);
