import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VoiceSettingsSchema } from '@parla/contract';
import type { SynthesisRequest, SynthesisResult } from '../synthesize.js';

/**
 * A content-addressed cache on disk. The key is the SHA-256 of the normalised request (the
 * schema's output with its keys in a fixed order), the backend that renders it and a version
 * that changes whenever the pipeline's output would. Files are written to a temporary name
 * and renamed, so a reader never sees half a file and concurrent writers do not conflict.
 */

/** Bump when a change to the pipeline changes the audio of an unchanged request. */
export const CACHE_VERSION = 2;

export function cacheKey(request: SynthesisRequest, backend: string): string {
  const settings = VoiceSettingsSchema.parse(request);
  const normalised = {
    v: CACHE_VERSION,
    backend,
    engine: settings.engine,
    voice_id: settings.voice_id,
    language_code: settings.language_code,
    text: settings.text,
    output_format: settings.output_format,
    sample_rate: settings.sample_rate,
    effect: settings.effect,
    master_speed: settings.master_speed,
    master_volume: settings.master_volume,
    master_pitch: settings.master_pitch,
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
