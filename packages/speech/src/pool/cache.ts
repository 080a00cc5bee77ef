import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkRequest, type SpeechRequest } from '../request.js';
import type { SynthesisResult } from '../synthesize.js';

/**
 * A content-addressed cache on disk. The key is the SHA-256 of the checked request (its keys
 * in a fixed order), the fingerprint of the engine that renders it (its version, backend,
 * model file) and a version that changes whenever the pipeline's output would. Files are written to a temporary name
 * and renamed, so a reader never sees half a file and concurrent writers do not conflict.
 */

/** Bump when a change to the pipeline changes the audio or the marks of an unchanged request. */
export const CACHE_VERSION = 3;

export function cacheKey(request: SpeechRequest, engineFingerprint: string): string {
  const checked = checkRequest(request);
  const normalised = {
    v: CACHE_VERSION,
    engine: engineFingerprint,
    voice: checked.voice,
    text: checked.text,
    format: checked.format,
    sampleRate: checked.sampleRate,
    effect: checked.effect,
    speed: checked.speed,
    volume: checked.volume,
    pitch: checked.pitch,
    // Only when there are some, so that the keys of earlier renderings stay valid.
    ...(checked.lexicons.length + checked.lexiconLibrary.length > 0 && {
      lexicons: [checked.lexicons, checked.lexiconLibrary],
    }),
  };
  return createHash('sha256').update(JSON.stringify(normalised)).digest('hex');
}

type Meta = Omit<SynthesisResult, 'audio'>;

export class DiskCache {
  constructor(readonly directory: string) {}

  private paths(key: string) {
    const folder = join(this.directory, key.slice(0, 2));
    return { folder, audio: join(folder, `${key}.audio`), meta: join(folder, `${key}.json`) };
  }

  async get(key: string): Promise<SynthesisResult | undefined> {
    const paths = this.paths(key);
    try {
      // Metadata is written last, so its presence means the audio is complete.
      const meta = JSON.parse(await readFile(paths.meta, 'utf8')) as Meta;
      const audio = new Uint8Array(await readFile(paths.audio));
      return { ...meta, audio };
    } catch {
      return undefined;
    }
  }

  async set(key: string, result: SynthesisResult): Promise<void> {
    const paths = this.paths(key);
    await mkdir(paths.folder, { recursive: true });
    const suffix = `${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(`${paths.audio}.${suffix}`, result.audio);
    await rename(`${paths.audio}.${suffix}`, paths.audio);
    const { audio: _audio, ...meta } = result;
    await writeFile(`${paths.meta}.${suffix}`, JSON.stringify(meta));
    await rename(`${paths.meta}.${suffix}`, paths.meta);
  }
}
