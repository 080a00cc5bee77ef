// Podman as the container steps of npm test use it (scripts/container-test.mjs,
// scripts/compose-test.mjs), in the way this sandbox allows: runc (not crun), no default
// ulimits (.ci/containers.conf), the host's network for builds (their npm and apt).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

export const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF || path.join(ROOT, '.ci/containers.conf'),
};

/** Runs a command; answers its output, or throws with it when the exit status is not 0. */
export function sh(command, args, { allowFailure = false, inherit = false, extraEnv = {} } = {}) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    stdio: inherit ? 'inherit' : 'pipe',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFailure) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return result;
}

export const podman = (args, options) => sh('podman', ['--runtime', 'runc', ...args], options);

/** Creates a user with `npx parla create-user` inside a running container; its login token. */
export function createUserIn(container, user) {
  const created = podman([
    'exec',
    container,
    'node',
    'apps/server/bin/parla.js',
    'create-user',
    '--email',
    user.email,
    '--password',
    user.password,
  ]);
  return JSON.parse(created.stdout).token;
}

/** Throws unless the server at `base` still knows the user of `token` (data kept across a restart). */
export async function expectUserKept(base, token, user, when) {
  const profile = await fetch(`${base}/api/account/profile`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await profile.json();
  if (profile.status !== 200 || body.user?.email !== user.email) {
    throw new Error(`${when} the user is gone: ${profile.status} ${JSON.stringify(body)}`);
  }
}

/** The base image the Dockerfile starts FROM, made from Debian and npm where needed. */
export function baseImage() {
  sh(path.join(ROOT, '.ci/base-image.sh'), [], { inherit: true });
}

/**
 * The certificate authorities this machine trusts beyond Node's own (NODE_EXTRA_CA_CERTS, else
 * npm's `cafile`: a TLS-inspecting proxy's, say), given to the build's npm as a global npmrc
 * mounted for the build only: the image and the Dockerfile stay as they are.
 */
function trustOfThisMachine(work) {
  const cafile =
    process.env.NODE_EXTRA_CA_CERTS || sh('npm', ['config', 'get', 'cafile']).stdout.trim();
  if (!cafile || cafile === 'null' || !existsSync(cafile)) return [];
  const npmrc = path.join(work, 'npmrc');
  writeFileSync(npmrc, 'cafile=/tmp/parla-ci-ca.crt\n');
  return [
    '--volume',
    `${cafile}:/tmp/parla-ci-ca.crt:ro`,
    '--volume',
    `${npmrc}:/usr/local/etc/npmrc:ro`,
  ];
}

/**
 * Builds an image with podman's layer cache (an unchanged context builds again in seconds).
 * --format docker: OCI images have no HEALTHCHECK; --pull never: the base is local. The build's
 * npm uses this machine's npm cache and trust (the Containerfile is the same without them).
 */
export function build(tag, { file, context = '.', args = [] } = {}) {
  const work = mkdtempSync(path.join(tmpdir(), 'parla-build-'));
  try {
    const npmCache = path.join(homedir(), '.npm', '_cacache');
    const cache = existsSync(npmCache) ? ['--volume', `${npmCache}:/root/.npm/_cacache`] : [];
    podman(
      [
        'build',
        '--network',
        'host',
        '--format',
        'docker',
        '--pull=never',
        ...cache,
        ...trustOfThisMachine(work),
        ...(file ? ['--file', file] : []),
        ...args,
        '-t',
        tag,
        context,
      ],
      { inherit: true },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Removes the layers no tag names (dangling) made before `since` (a Date.now()): earlier runs'
 * builds. This run's stay, so the next container step builds the same tree from podman's cache.
 */
export function pruneImagesBefore(since) {
  const seconds = Math.ceil((Date.now() - since) / 1000);
  podman(['image', 'prune', '--force', '--filter', `until=${seconds}s`], { allowFailure: true });
}
