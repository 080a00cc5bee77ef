// npm test: every check and every test of the product, in order, with one summary at the end:
// typecheck, lint, unit tests, the server suite on SQLite and on PostgreSQL, the end-to-end
// suite in Debian's chromium against the built app, then the production install, the
// container image and compose.yaml (scripts/production-test.mjs, scripts/container-test.mjs,
// scripts/compose-test.mjs). It keeps going
// after a failure so one run shows everything that is wrong, and exits non-zero if anything
// failed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, buildServer, buildWeb, ROOT, run } from './lib.mjs';

const UNHANDLED_REPORTER = path.join(ROOT, 'scripts', 'unhandled-errors-reporter.mjs');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const inCi = process.env.CI === 'true';
const outDir = mkdtempSync(path.join(tmpdir(), 'parla-test-results-'));
const steps = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

function banner(title) {
  console.info(`\n━━━ ${title} ${'━'.repeat(Math.max(0, 72 - title.length))}`);
}

function check(title, command, args, options) {
  banner(title);
  const status = run(command, args, options);
  steps.push({ title, ok: status === 0 });
}

/** Runs one Vitest suite and adds its counts (read from its JSON report) to the totals. */
function vitest(title, workspace, env = {}) {
  banner(title);
  const report = path.join(outDir, `${title.replace(/\W+/g, '-')}.json`);
  const unhandled = report.replace(/\.json$/, '.unhandled.json');
  const status = run(
    path.join(BIN, 'vitest'),
    [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      `--reporter=${UNHANDLED_REPORTER}`,
    ],
    {
      cwd: path.join(ROOT, workspace),
      env: { ...process.env, ...env, PARLA_UNHANDLED_ERRORS: unhandled },
    },
  );
  let counts = { passed: 0, failed: 0, skipped: 0 };
  let problems = [];
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    counts = {
      passed: json.numPassedTests,
      failed: json.numFailedTests,
      skipped: json.numPendingTests + json.numTodoTests,
    };
    problems = problemsOf(json, path.join(ROOT, workspace));
  }
  if (existsSync(unhandled)) {
    problems.push(...unhandledOf(JSON.parse(readFileSync(unhandled, 'utf8')), workspace));
  }
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  // A suite that crashed before reporting, or ran nothing, is a failure too.
  const ok = status === 0 && counts.failed === 0 && counts.passed > 0;
  if (!ok && problems.length === 0) {
    problems.push(
      status === 0
        ? 'no test passed'
        : `vitest exited with status ${status} with no failed test: an error outside the tests (unhandled rejection, teardown), printed above`,
    );
  }
  steps.push({ title, ok, counts, problems });
}

/**
 * What failed in a Vitest JSON report, one line each: files that failed outside any test (a
 * describe's setup that threw, an import error) and failed tests, with the first line of the
 * error. The summary repeats them, so the end of a long log says what went wrong.
 */
function problemsOf(json, cwd) {
  const firstLine = (text) =>
    String(text ?? '')
      .trim()
      .split('\n')[0]
      .slice(0, 300);
  const problems = [];
  for (const file of json.testResults ?? []) {
    const name = path.relative(cwd, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && (file.message || failedTests.length === 0)) {
      problems.push(
        `${name}: ${file.message ? firstLine(file.message) : 'failed outside its tests (a describe block or a hook threw; its error is printed above)'}`,
      );
    }
    for (const test of failedTests) {
      problems.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
  return problems;
}

/**
 * The errors Vitest caught outside any test (scripts/unhandled-errors-reporter.mjs), one
 * entry each with where it was seen and the top of its stack: the summary is often all of a
 * long log that is kept.
 */
function unhandledOf(errors, workspace) {
  return errors.map((error) => {
    const where = error.file
      ? ` (seen in ${path.relative(path.join(ROOT, workspace), error.file)}${error.test ? ` › ${error.test}` : ''})`
      : '';
    const stack = error.stack.map((line) => `\n        ${line}`).join('');
    return `outside the tests: ${error.name}: ${error.message.split('\n')[0].slice(0, 300)}${where}${stack}`;
  });
}

/** Chromium for the end-to-end suite: installed here when we can (root with apt), else named. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    banner('Installing Debian chromium for the end-to-end tests');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], { env }) === 0) {
      run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
    }
    if (existsSync(CHROMIUM)) return true;
  }
  console.error(
    `\nChromium is missing. Install it with:\n\n    sudo apt-get install -y chromium\n`,
  );
  return false;
}

async function postgresReachable(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    return error.message || String(error);
  }
}

if (!ensureChromium()) process.exit(1);

// The build projects (src without its tests, what ships in dist/) and the tests' projects
// (tsconfig.test.json: the *.test.ts files and the test/ support folders, never emitted).
check('typecheck', path.join(BIN, 'tsc'), [
  '-b',
  'packages/contract',
  'packages/speech',
  'apps/server',
  'packages/client',
  'packages/contract/tsconfig.test.json',
  'packages/speech/tsconfig.test.json',
  'apps/server/tsconfig.test.json',
  'packages/client/tsconfig.test.json',
]);
check('typecheck web and e2e', 'npm', [
  'run',
  'typecheck',
  '--workspace',
  '@parla/web',
  '--workspace',
  '@parla/e2e',
]);
check('lint and format', path.join(BIN, 'biome'), ['ci', '.']);
// docs/decisions/030-import-boundaries.md: the rules, then a proof that they catch violations.
check('import boundaries', 'npm', ['run', '--silent', 'boundaries']);
vitest('boundaries: the rules catch violations', 'scripts');

vitest('unit: contract', 'packages/contract');
vitest('unit: speech', 'packages/speech');
vitest('unit: web', 'apps/web');
vitest('client: against the server', 'packages/client');
vitest('server: SQLite', 'apps/server', { PARLA_TEST_DB: 'sqlite' });

const pgUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
const reachable = await postgresReachable(pgUrl);
if (reachable === true) {
  vitest('server: PostgreSQL', 'apps/server', {
    PARLA_TEST_DB: 'postgres',
    TEST_DATABASE_URL: pgUrl,
  });
} else if (inCi) {
  banner('server: PostgreSQL');
  console.error(`PostgreSQL at ${pgUrl} cannot be reached (${reachable}); CI requires it.`);
  steps.push({ title: 'server: PostgreSQL', ok: false });
} else {
  banner('server: PostgreSQL');
  console.warn(
    `\n!!!!! SKIPPED: the PostgreSQL leg of the server suite: ${pgUrl} cannot be reached (${reachable}). Set TEST_DATABASE_URL to run it. !!!!!\n`,
  );
  steps.push({ title: 'server: PostgreSQL (SKIPPED)', ok: true });
}

banner('build for the end-to-end suite');
const built = buildServer() === 0 && buildWeb() === 0;
steps.push({ title: 'build', ok: built });
if (built) vitest('end-to-end (chromium)', 'e2e', { CHROMIUM_PATH: CHROMIUM });

// docs/operations.md: the production install, the container image and compose.yaml, made and
// run as an operator makes and runs them. CI cannot skip the container steps: without podman
// (or podman-compose) they fail there.
check('production install (fresh clone: build, prune, start, convert)', 'node', [
  'scripts/production-test.mjs',
]);
/** A container step, run when its tool is installed; missing, it fails CI and is skipped loudly elsewhere. */
function containerStep(title, tool, script, install) {
  if (run(tool, ['--version'], { stdio: 'ignore' }) === 0) {
    check(title, 'node', [script]);
    return;
  }
  banner(title);
  if (inCi) {
    console.error(`${tool} is missing; CI requires it (${install}).`);
    steps.push({ title, ok: false });
  } else {
    console.warn(
      `\n!!!!! SKIPPED: the ${title} step: ${tool} is not installed (${install}). !!!!!\n`,
    );
    steps.push({ title: `${title} (SKIPPED)`, ok: true });
  }
}
containerStep(
  'container image (podman: build, run, convert, SIGTERM, restart)',
  'podman',
  'scripts/container-test.mjs',
  'apt-get install podman runc debootstrap',
);
containerStep(
  'compose.yaml (podman-compose: PostgreSQL, Redis, S3, worker; convert, SIGTERM, down, up)',
  'podman-compose',
  'scripts/compose-test.mjs',
  'apt-get install podman-compose podman runc debootstrap',
);

rmSync(outDir, { recursive: true, force: true });
banner('summary');
for (const step of steps) {
  const counts = step.counts
    ? `  (${step.counts.passed} passed, ${step.counts.failed} failed, ${step.counts.skipped} skipped)`
    : '';
  console.info(`${step.ok ? '✔' : '✘'} ${step.title}${counts}`);
  for (const problem of step.problems ?? []) console.info(`    ✘ ${problem}`);
}
const failedSteps = steps.filter((s) => !s.ok).length;
const failed = totals.failed + (failedSteps > 0 && totals.failed === 0 ? failedSteps : 0);
console.info(`\ntests: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps > 0 ? 1 : 0);
