// Helpers shared by the root scripts (build, start, test). Plain Node, no dependencies, so they
// run before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'node_modules', '.bin');

/** Runs a command in the foreground; answers its exit status (never throws on failure). */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`Could not run ${command}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

/** The newest modification time (ms) of any file below the given paths. */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(p, entry));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const p of paths) visit(path.join(ROOT, p));
  return newest;
}

/** Sources of the web bundle, and the file whose age says when it was last built. */
const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];
const WEB_OUTPUT = 'apps/web/dist/index.html';

export function webBuildIsStale() {
  const output = path.join(ROOT, WEB_OUTPUT);
  return !existsSync(output) || newestMtime(WEB_INPUTS) > statSync(output).mtimeMs;
}

/** The TypeScript projects compiled with tsc -b (incremental: cheap when nothing changed). */
export const TS_PROJECTS = ['packages/contract', 'packages/speech', 'apps/server'];

export function buildServer() {
  return run(path.join(BIN, 'tsc'), ['-b', ...TS_PROJECTS]);
}

export function buildWeb() {
  return run('npm', ['run', 'build', '--workspace', '@parla/web']);
}
