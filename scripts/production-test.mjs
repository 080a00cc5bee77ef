// The production-install step of npm test (docs/operations.md, "Production install"): in a
// fresh clone of this checkout (its committed and uncommitted tracked files), the README's
// production path: npm ci, npm run build, npm run prune:production; then checks that no
// compiler or build tool is left, measures node_modules, and runs `npm start`: it must answer
// its health check, convert a text through the API and stop on SIGTERM with status 0.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';
import { convert, freePort, waitForHealth } from './smoke.mjs';

/** The production install's commands, as the README and the Dockerfile give them. */
const PRUNE = ['run', 'prune:production'];

const work = mkdtempSync(path.join(tmpdir(), 'parla-production-'));
const clone = path.join(work, 'parla');
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

function sh(command, args, cwd = clone) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

function git(args) {
  return spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
}

let failed = false;
let server;
try {
  // `git stash create` makes a commit of the working tree without touching it (nothing when
  // it is clean): the clone gets the files as they are now.
  const revision = git(['stash', 'create']) || git(['rev-parse', 'HEAD']);
  sh('git', ['clone', '--quiet', '--no-checkout', ROOT, clone], work);
  sh('git', ['fetch', '--quiet', ROOT, revision]);
  sh('git', ['checkout', '--quiet', revision]);
  sh('npm', ['ci', '--no-audit', '--no-fund']);
  sh('npm', ['run', 'build']);
  sh('npm', PRUNE);
  console.info(`[production] built and pruned (${elapsed()})`);

  const leftovers = ['typescript', 'esbuild', 'vite', 'tsx', 'vitest', '@napi-rs/canvas'].filter(
    (name) => existsSync(path.join(clone, 'node_modules', name)),
  );
  if (leftovers.length > 0) {
    throw new Error(`the production install still has ${leftovers.join(', ')}`);
  }
  const size = spawnSync('du', ['-sh', '--apparent-size', 'node_modules'], {
    cwd: clone,
    encoding: 'utf8',
  }).stdout.split('\t')[0];
  console.info(`[production] node_modules: ${size} (no compiler, no build tool)`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // `npm start` is `node scripts/start.mjs`: run without npm between, whose own exit on
  // SIGTERM would hide the server's exit status.
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: clone,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      DEFAULT_VOICES: 'none',
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise((resolve) =>
    server.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await Promise.race([
    waitForHealth(base),
    exited.then(({ code }) => {
      throw new Error(`the server exited with ${code} before it served`);
    }),
  ]);
  const { seconds } = await convert(base);
  console.info(`[production] npm start serves: converted ${seconds.toFixed(2)} s of WAV`);
  server.kill('SIGTERM');
  const { code } = await exited;
  server = undefined;
  if (code !== 0) throw new Error(`on SIGTERM the server exited with ${code}`);
  console.info(`[production] stopped by SIGTERM, exit status 0; done in ${elapsed()}`);
} catch (error) {
  failed = true;
  console.error(`[production] FAILED after ${elapsed()}: ${error.message}`);
} finally {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
