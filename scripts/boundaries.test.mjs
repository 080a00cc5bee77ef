// The import boundaries (.dependency-cruiser.mjs, docs/decisions/030-import-boundaries.md) catch
// what they are for: each rule is run, through the real `depcruise` command and the real
// configuration, on a small tree laid out as the repository is, with one deliberate violation,
// and must report it; a tree that keeps the rules must pass. Run by npm test
// (`vitest run --root scripts`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
const trees = [];

/** A throwaway tree of the given files (path → source), with the repository's node_modules. */
function tree(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'parla-boundaries-'));
  trees.push(dir);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'tsconfig.base.json'), '{ "compilerOptions": { "strict": true } }');
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  return dir;
}

/**
 * What `depcruise` reports for a tree, as npm test runs it (the `err` reporter): its exit status
 * and each violation as "rule: from → to" (a cycle's path is left out).
 */
function cruise(dir) {
  const folders = ['apps', 'packages'].filter((folder) => existsSync(path.join(dir, folder)));
  const result = spawnSync(
    DEPCRUISE,
    [...folders, '--config', path.join(ROOT, '.dependency-cruiser.mjs'), '--output-type', 'err'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  );
  if (result.error) throw result.error;
  if (result.stderr.trim()) throw new Error(result.stderr);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes, should there be any
  const lines = result.stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const violations = lines
    .map((line) => /^\s*error (\S+): (\S+) →\s*(\S*)/.exec(line))
    .filter((match) => match !== null)
    .map(([, rule, from, to]) => `${rule}: ${from} → ${to}`.trim());
  return { status: result.status, violations };
}

afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Each case starts depcruise once: a few seconds on a busy two-core machine.
describe('the import boundaries', { timeout: 60_000 }, () => {
  it('pass a tree that keeps them', () => {
    const dir = tree({
      'apps/server/src/lib/mail.ts': 'export const send = () => 1;\n',
      'apps/server/src/features/auth/repository.ts': 'export const users = [];\n',
      'apps/server/src/features/auth/routes.ts':
        "import { users } from './repository.js';\nimport { send } from '../../lib/mail.js';\nexport const routes = [users, send];\n",
      'apps/web/src/lib/get-voices.ts': 'export const getVoices = () => [];\n',
      'apps/web/src/features/documents/new-job.tsx':
        "import { getVoices } from '../../lib/get-voices';\nexport const NewJob = getVoices;\n",
      'packages/contract/src/index.ts':
        "import * as z from 'zod/mini';\nexport const S = z.string();\n",
      'packages/speech/src/index.ts': "import { S } from '@parla/contract';\nexport const T = S;\n",
    });
    expect(cruise(dir)).toEqual({ status: 0, violations: [] });
  });

  it('fail on a server feature importing another feature', () => {
    const dir = tree({
      'apps/server/src/features/account/repository.ts': 'export const users = [];\n',
      'apps/server/src/features/auth/routes.ts':
        "import { users } from '../account/repository.js';\nexport const routes = users;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations).toEqual([
      'server-feature-to-feature: apps/server/src/features/auth/routes.ts → apps/server/src/features/account/repository.ts',
    ]);
  });

  it('fail on lib/, plugins/, services/ or http/ importing a feature', () => {
    const dir = tree({
      'apps/server/src/features/convertor/visitor.ts': 'export const visitor = 1;\n',
      'apps/server/src/plugins/rate-limit.ts':
        "import { visitor } from '../features/convertor/visitor.js';\nexport const limit = visitor;\n",
      'apps/server/src/services/conversion/index.ts':
        "import { visitor } from '../../features/convertor/visitor.js';\nexport const convert = visitor;\n",
      'apps/server/src/http/caller.ts':
        "import { visitor } from '../features/convertor/visitor.js';\nexport const callerOf = visitor;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations.sort()).toEqual([
      'server-shared-to-feature: apps/server/src/http/caller.ts → apps/server/src/features/convertor/visitor.ts',
      'server-shared-to-feature: apps/server/src/plugins/rate-limit.ts → apps/server/src/features/convertor/visitor.ts',
      'server-shared-to-feature: apps/server/src/services/conversion/index.ts → apps/server/src/features/convertor/visitor.ts',
    ]);
  });

  it('fail on a service using Fastify or an http/ adapter, and on lib/ importing a service', () => {
    const dir = tree({
      'apps/server/src/http/caller.ts': 'export const callerOf = () => 1;\n',
      'apps/server/src/lib/metrics.ts': 'export const count = () => 1;\n',
      'apps/server/src/services/conversion/index.ts':
        "import type { FastifyRequest } from 'fastify';\nimport { callerOf } from '../../http/caller.js';\nimport { count } from '../../lib/metrics.js';\nexport const convert = (r: FastifyRequest) => [r, callerOf, count];\n",
      'apps/server/src/lib/speech.ts':
        "import { convert } from '../services/conversion/index.js';\nexport const speak = convert;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(
      violations.map((v) => v.replace(/→ .*node_modules\//, '→ node_modules/')).sort(),
    ).toEqual([
      'server-lib-at-the-bottom: apps/server/src/lib/speech.ts → apps/server/src/services/conversion/index.ts',
      'server-services-without-http: apps/server/src/services/conversion/index.ts → apps/server/src/http/caller.ts',
      'server-services-without-http: apps/server/src/services/conversion/index.ts → node_modules/fastify/fastify.js',
    ]);
  });

  it('fail on a web feature importing another feature', () => {
    const dir = tree({
      'apps/web/src/features/convertor/api/get-voices.ts': 'export const getVoices = () => [];\n',
      'apps/web/src/features/documents/components/new-job.tsx':
        "import { getVoices } from '../../convertor/api/get-voices';\nexport const NewJob = getVoices;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations).toEqual([
      'web-feature-to-feature: apps/web/src/features/documents/components/new-job.tsx → apps/web/src/features/convertor/api/get-voices.ts',
    ]);
  });

  it('fail on components/, lib/ or hooks/ of the web app importing a feature', () => {
    const dir = tree({
      'apps/web/src/features/convertor/api/get-voices.ts': 'export const getVoices = () => [];\n',
      'apps/web/src/lib/catalogue-counts.ts':
        "import { getVoices } from '../features/convertor/api/get-voices';\nexport const counts = getVoices;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations).toEqual([
      'web-shared-to-feature: apps/web/src/lib/catalogue-counts.ts → apps/web/src/features/convertor/api/get-voices.ts',
    ]);
  });

  it('fail on a cycle, of types too', () => {
    const dir = tree({
      'packages/speech/src/render.ts':
        "import type { Cache } from './cache.js';\nexport interface Rendered { cache?: Cache }\n",
      'packages/speech/src/cache.ts':
        "import type { Rendered } from './render.js';\nexport interface Cache { last?: Rendered }\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations).toEqual(['no-circular: packages/speech/src/cache.ts →']);
  });

  it('fail on the speech library importing an HTTP server framework or an app', () => {
    const dir = tree({
      'apps/server/src/config.ts': 'export const config = {};\n',
      'packages/speech/src/serve.ts':
        "import Fastify from 'fastify';\nimport express from 'express';\nimport { config } from '../../../apps/server/src/config.js';\nexport const app = [Fastify, express, config];\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(
      violations.map((v) => v.replace(/→ .*node_modules\//, '→ node_modules/')).sort(),
    ).toEqual([
      'speech-without-http-or-apps: packages/speech/src/serve.ts → apps/server/src/config.ts',
      'speech-without-http-or-apps: packages/speech/src/serve.ts → express',
      'speech-without-http-or-apps: packages/speech/src/serve.ts → node_modules/fastify/fastify.js',
    ]);
  });

  it('fail on the contract importing another workspace', () => {
    const dir = tree({
      'packages/speech/src/index.ts': 'export const speak = 1;\n',
      'packages/contract/src/index.ts':
        "import { speak } from '../../speech/src/index.js';\nexport const rule = speak;\n",
    });
    const { status, violations } = cruise(dir);
    expect(status).not.toBe(0);
    expect(violations).toEqual([
      'contract-imports-no-workspace: packages/contract/src/index.ts → packages/speech/src/index.ts',
    ]);
  });
});
