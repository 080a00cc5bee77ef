import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SpeechError } from '../../errors.js';

/**
 * Piper voices turn text into phonemes with espeak-ng, so sherpa-onnx needs an
 * `espeak-ng-data` directory. We take it from the espeak-ng build we already depend on
 * (@echogarden/espeak-ng-emscripten): its `espeak-ng.data` is an Emscripten file package, and
 * `espeak-ng.js` lists each file's byte range (`loadPackage({files:[{filename,start,end}]})`).
 * Copying those ranges out gives a real espeak-ng-data directory with `npm install` alone.
 * See docs/decisions/005-neural-voices-phoneme-data.md.
 */

const require = createRequire(import.meta.url);
const PREFIX = '/usr/share/espeak-ng-data/';

interface PackedFile {
  name: string;
  start: number;
  end: number;
}

function packageDir(): string {
  return dirname(require.resolve('@echogarden/espeak-ng-emscripten/package.json'));
}

async function packedFiles(): Promise<{ files: PackedFile[]; version: string }> {
  const dir = packageDir();
  const script = await readFile(join(dir, 'espeak-ng.js'), 'utf8');
  const version = (
    JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const at = script.indexOf('loadPackage({files:[');
  const end = script.indexOf(']', at);
  if (at < 0 || end < 0) {
    throw new SpeechError(
      'engine_unavailable',
      'The espeak-ng build has no file list: cannot make espeak-ng-data.',
    );
  }
  const list = script.slice(at, end);
  const files: PackedFile[] = [];
  for (const match of list.matchAll(/\{filename:"([^"]+)",start:(\d+),end:(\d+)/g)) {
    const [, filename, start, stop] = match;
    if (!filename?.startsWith(PREFIX)) continue;
    const name = filename.slice(PREFIX.length);
    // Never write outside the target directory, whatever the list says.
    if (name.split('/').some((part) => part === '..' || part === '')) continue;
    files.push({ name, start: Number(start), end: Number(stop) });
  }
  if (!files.some((f) => f.name === 'phontab')) {
    throw new SpeechError('engine_unavailable', 'The espeak-ng build lists no phoneme tables.');
  }
  return { files, version };
}

const made = new Map<string, Promise<string>>();

/**
 * The espeak-ng-data directory under `cacheDir`, extracted on first use. Written to a
 * temporary name and renamed, so concurrent workers or processes never see half of it.
 */
export function espeakDataDir(cacheDir: string): Promise<string> {
  let found = made.get(cacheDir);
  if (!found) {
    found = extract(cacheDir);
    found.catch(() => made.delete(cacheDir));
    made.set(cacheDir, found);
  }
  return found;
}

async function extract(cacheDir: string): Promise<string> {
  const { files, version } = await packedFiles();
  const target = join(cacheDir, `espeak-ng-data-${version}`);
  const complete = join(target, '.complete');
  if (await exists(complete)) return target;
  const temporary = `${target}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  await mkdir(temporary, { recursive: true });
  try {
    const data = await open(join(packageDir(), 'espeak-ng.data'), 'r');
    try {
      for (const file of files) {
        const path = join(temporary, file.name);
        await mkdir(dirname(path), { recursive: true });
        const buffer = Buffer.alloc(file.end - file.start);
        await data.read(buffer, 0, buffer.length, file.start);
        await writeFile(path, buffer);
      }
    } finally {
      await data.close();
    }
    await writeFile(join(temporary, '.complete'), `${files.length} files\n`);
    try {
      await rename(temporary, target);
    } catch (error) {
      // Another worker finished first: theirs is as good as ours.
      if (!(await exists(complete))) throw error;
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return target;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
