// npm run prune:production: what a production machine keeps of an install (docs/operations.md,
// "Production install"): `npm prune --omit=dev` (after `npm run build`, or after
// `npm ci --omit=dev` on the target), then the optional packages that our dependencies bring
// for features the server never uses. Nothing left can compile: the server runs what was built.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run } from './lib.mjs';

/** Optional packages the server never loads, by scope: names starting so, with why. */
const NEVER_LOADED = [
  // pdf.js draws pages with it (and its platform binaries); the server only reads a PDF's text
  // (apps/server/src/features/jobs/documents.ts).
  { scope: '@napi-rs', prefix: 'canvas' },
];

const status = run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
if (status !== 0) process.exit(status);
for (const { scope, prefix } of NEVER_LOADED) {
  const folder = path.join(ROOT, 'node_modules', scope);
  let names = [];
  try {
    names = readdirSync(folder).filter((name) => name.startsWith(prefix));
  } catch {}
  for (const name of names) {
    rmSync(path.join(folder, name), { recursive: true, force: true });
    console.info(`removed ${scope}/${name} (never loaded by the server)`);
  }
}
