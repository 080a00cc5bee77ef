// The container step of npm test: builds the Dockerfile's image with podman and runs it as an
// operator would (docs/operations.md, "Container image"): bad config stops it naming the
// variable; it starts on a data volume, passes its health check, converts a text through the
// API, stops on SIGTERM with status 0, and after a restart still has the user created before.
// The base image is made first where no registry is reachable (.ci/base-image.sh).
//
// Podman as this sandbox allows it (scripts/podman.mjs); the container uses the host's network
// (the test reaches the server on it).
import {
  baseImage,
  build,
  createUserIn,
  expectUserKept,
  podman,
  pruneImagesBefore,
} from './podman.mjs';
import { convert, freePort, waitForHealth, waitUntil } from './smoke.mjs';

const IMAGE = 'localhost/parla-test';
const NAME = 'parla-test';
const VOLUME = 'parla-test-data';

const run = (args, options) =>
  podman(['run', '--network', 'host', '--ulimit', 'host', ...args], options);

function step(text) {
  console.info(`[container] ${text}`);
}

function removeLeftovers() {
  podman(['rm', '--force', '--time', '0', NAME], { allowFailure: true });
  podman(['volume', 'rm', '--force', VOLUME], { allowFailure: true });
}

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
let failed = false;
try {
  removeLeftovers();
  step('base image (node:24-bookworm-slim)');
  baseImage();

  step(`building ${IMAGE} from the Dockerfile`);
  build(IMAGE);
  step(`built (${elapsed()})`);

  const bad = run(['--rm', '-e', 'PORT=eighty', IMAGE], { allowFailure: true });
  if (bad.status === 0 || !/\bPORT\b/.test(bad.stderr + bad.stdout)) {
    throw new Error(
      `PORT=eighty: the container should stop naming PORT; it exited ${bad.status} saying\n${bad.stdout}${bad.stderr}`,
    );
  }
  step('bad config: stopped, naming PORT');

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  podman(['volume', 'create', VOLUME]);
  const user = { email: 'operator@example.com', password: 'a long enough password' };
  run([
    '--detach',
    '--name',
    NAME,
    '-e',
    `PORT=${port}`,
    '-e',
    'DEFAULT_VOICES=none',
    '-v',
    `${VOLUME}:/data`,
    IMAGE,
  ]);
  const healthy = async () =>
    podman(['healthcheck', 'run', NAME], { allowFailure: true }).status === 0;
  await waitUntil("the container's health check", healthy, 120);
  step(`healthy (${elapsed()})`);
  await waitForHealth(base, 10);
  const { seconds } = await convert(base);
  step(`converted a text through the API: ${seconds.toFixed(2)} s of WAV`);

  const token = createUserIn(NAME, user);
  const backup = podman([
    'exec',
    NAME,
    'node',
    'apps/server/bin/parla.js',
    'backup',
    '/data/backup.tar',
  ]);
  step(`npx parla backup in the container: ${backup.stdout.trim().split('\n')[0]}`);

  const stopping = Date.now();
  podman(['stop', '--time', '30', NAME]);
  const stopTime = (Date.now() - stopping) / 1000;
  const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', NAME]).stdout.trim();
  if (exitCode !== '0' || stopTime > 25) {
    throw new Error(
      `SIGTERM: the server exited with ${exitCode} after ${stopTime} s (expected 0, promptly)\n${podman(['logs', '--tail', '20', NAME]).stderr}`,
    );
  }
  step(`stopped by SIGTERM in ${stopTime.toFixed(1)} s, exit status 0`);

  podman(['start', NAME]);
  await waitUntil("the container's health check after a restart", healthy, 120);
  await expectUserKept(base, token, user, 'after a restart');
  step('restarted: the user created before is still there (database and secret in the volume)');
  podman(['stop', '--time', '30', NAME]);
  step(`done in ${elapsed()}`);
} catch (error) {
  failed = true;
  console.error(`[container] FAILED after ${elapsed()}: ${error.message}`);
  const logs = podman(['logs', '--tail', '40', NAME], { allowFailure: true });
  if (logs.status === 0)
    console.error(`[container] its last log lines:\n${logs.stdout}${logs.stderr}`);
} finally {
  removeLeftovers();
  pruneImagesBefore(started);
}
process.exit(failed ? 1 : 0);
