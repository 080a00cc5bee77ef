// Helpers shared by the root scripts (build, start, test). Plain Node, no dependencies, so they
// run before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** The newest modification time (ms) of any file below the given paths, test files aside. */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(p, entry));
      }
    } else if (!TEST_FILE.test(p)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const p of paths) visit(path.join(ROOT, p));
  return newest;
}

/**
 * Test files, which no build includes (each tsconfig excludes them, Vite never imports them): a
 * test edited after the last build must not make every command compile again, since the
 * compiler, with nothing to emit, leaves the build's date as it was.
 */
const TEST_FILE = /\.test\.tsx?$/;

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
  return compile(TS_PROJECTS);
}

/**
 * Whether this is a development install, with the build's tools (the root's devDependencies).
 * A production install (npm ci --omit=dev, or npm prune --omit=dev after a build) has none:
 * it runs what was built. TypeScript alone is no sign: it can arrive as another package's peer.
 */
export function canCompile() {
  return ['tsc', 'esbuild'].every((tool) => existsSync(path.join(BIN, tool)));
}

/**
 * `tsc -b` of the given projects (and those they reference); then, when the speech package
 * was among them, its one-file `parla-say` (see bundleParlaSay).
 */
function compile(projects, options) {
  const status = run(path.join(BIN, 'tsc'), ['-b', ...projects], options);
  // The server's project references the speech package: building it builds speech too.
  const speechBuilt = projects.some((p) => p === SPEECH || p === 'apps/server');
  return status === 0 && speechBuilt ? bundleParlaSay(options) : status;
}

const SPEECH = 'packages/speech';

/** `parla-say` as one file (docs/decisions/022-parla-say-bundle.md), beside dist/cli.js. */
export const PARLA_SAY_BUNDLE = 'dist/parla-say.mjs';

/**
 * Packages left out of the bundle: they find files of their own beside their code (WebAssembly
 * data, a native addon) or are loaded only by engines a single request rarely uses.
 */
const UNBUNDLED = [
  '@echogarden/espeak-ng-emscripten',
  'sherpa-onnx-node',
  'koffi',
  'wasm-media-encoders',
  '@aws-sdk/*',
  'microsoft-cognitiveservices-speech-sdk',
  '@wasm-audio-decoders/*',
  'tar',
];

/**
 * Bundles dist/cli.js and everything it imports (our packages, zod, the SSML parser…) into one
 * ES module: Node then reads, resolves and compiles one file instead of some two hundred,
 * which is most of a short `parla-say` run.
 */
function bundleParlaSay(options) {
  return run(
    path.join(BIN, 'esbuild'),
    [
      `${SPEECH}/dist/cli.js`,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node24',
      '--minify',
      '--log-level=warning',
      `--outfile=${SPEECH}/${PARLA_SAY_BUNDLE}`,
      ...UNBUNDLED.map((name) => `--external:${name}`),
      // Bundled CommonJS calls require(): an ES module has none of its own.
      "--banner:js=import { createRequire as parlaRequire } from 'node:module'; const require = parlaRequire(import.meta.url);",
    ],
    options,
  );
}

/**
 * Whether a TypeScript project must be compiled before it runs: its dist/ is missing, or a
 * source of it or of a project it references (earlier in TS_PROJECTS) is newer than its last
 * build. Statting the sources takes a few milliseconds.
 */
function isStale(project) {
  const built = path.join(ROOT, project, 'dist', '.tsbuildinfo');
  if (!existsSync(built)) return true;
  const sources = TS_PROJECTS.slice(0, TS_PROJECTS.indexOf(project) + 1).map((p) => `${p}/src`);
  return newestMtime(sources) > statSync(built).mtimeMs;
}

/**
 * Whether `bundle` (a file of the project's dist/) was made from its current build: a later
 * `tsc -b` alone (a package's own build or typecheck script) leaves an older bundle behind.
 */
function isCurrentBundle(project, bundle) {
  if (!bundle) return false;
  const made = statSync(path.join(ROOT, project, bundle), { throwIfNoEntry: false });
  const built = statSync(path.join(ROOT, project, 'dist', '.tsbuildinfo'), {
    throwIfNoEntry: false,
  });
  return Boolean(made && built && made.mtimeMs >= built.mtimeMs);
}

/**
 * Runs a command of the product (the `bin/` launchers of parla-say, parla and npm run voices):
 * compiles `project` first when it is not built or older than its sources (never when no
 * compiler is installed: a production install runs what was built), then calls the `main`
 * of `entry` (a file of the project's dist/) with the command line and exits with its status;
 * `bundle`, when given and current, is the same program in one file, run instead of `entry`.
 */
export async function launch(project, entry, command, bundle) {
  if (canCompile() && isStale(project) && compileAlone(project, command) !== 0) {
    console.error(`${command}: the build failed; fix the errors above, then run it again.`);
    process.exit(1);
  }
  const file = isCurrentBundle(project, bundle)
    ? path.join(ROOT, project, bundle)
    : path.join(ROOT, project, entry);
  if (!existsSync(file)) {
    console.error(
      `${command}: Parla is not built and no compiler is installed: run npm install, then npm run build.`,
    );
    process.exit(1);
  }
  await runMain(pathToFileURL(file).href, process.argv.slice(2));
}

/**
 * Compiles a stale project while holding the compile lock (a folder in node_modules/.cache;
 * one for every project, since a project's build also builds those it references), so that
 * commands started together do not compile the same files at once or read them half written:
 * the others wait, then find it built. A lock older than ten minutes was left by a run that died.
 */
function compileAlone(project, command) {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  const lock = path.join(cache, 'parla-compiling');
  mkdirSync(cache, { recursive: true });
  let waiting = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
    if (!waiting) console.error(`${command}: waiting while another command compiles…`);
    waiting = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
  try {
    if (!isStale(project)) return 0;
    console.error(`${command}: compiling ${project} first (npm run build does it for everything)…`);
    // The compiler's output goes to stderr: a command's stdout may be audio or JSON.
    return compile([project], { stdio: ['ignore', 2, 2] });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Imports a command module, runs its `main(argv)` and sets the exit status it answers. */
export async function runMain(moduleUrl, argv) {
  const { main } = await import(moduleUrl);
  process.exitCode = await main(argv);
}

export function buildWeb() {
  return run('npm', ['run', 'build', '--workspace', '@parla/web']);
}
