import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckedRequest } from '../request.js';
import type { SynthesisResult } from '../synthesize.js';

/**
 * A content-addressed cache on disk. The key is the SHA-256 of the checked request (its keys
 * in a fixed order), the fingerprint of the engine that renders it (its version, backend,
 * model file) and a version that changes whenever the pipeline's output would. Files are written to a temporary name
 * and renamed, so a reader never sees half a file and concurrent writers do not conflict.
 */

/** Bump when a change to the pipeline changes the audio or the marks of an unchanged request. */
export const CACHE_VERSION = 3;

/** The key of a request `checkRequest` answered (its defaults filled in), for its engine. */
export function cacheKey(checked: CheckedRequest, engineFingerprint: string): string {
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
  /** Results being written by `keep`, by key. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(readonly directory: string) {}

  private paths(key: string) {
    const folder = join(this.directory, key.slice(0, 2));
    return { folder, audio: join(folder, `${key}.audio`), meta: join(folder, `${key}.json`) };
  }

  async get(key: string): Promise<SynthesisResult | undefined> {
    // A result still being written is found once it is written.
    await this.writing.get(key);
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

  /**
   * Keeps a result, written after the caller has it: the answer does not wait for a second
   * write of its audio (the server stores the same bytes as the conversion's file). A failed
   * write leaves nothing, and only costs a later rendering.
   */
  keep(key: string, result: SynthesisResult): void {
    const written = this.set(key, result)
      .catch(() => undefined)
      .finally(() => {
        if (this.writing.get(key) === written) this.writing.delete(key);
      });
    this.writing.set(key, written);
  }

  /** Settles when every result being kept is written (or failed). */
  async written(): Promise<void> {
    await Promise.all(this.writing.values());
  }

  private async set(key: string, result: SynthesisResult): Promise<void> {
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
