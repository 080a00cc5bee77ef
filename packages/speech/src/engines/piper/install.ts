import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeechError } from '../../errors.js';
import { checkNeuralVoice } from './engine.js';
import {
  FOLDER_PATTERN,
  type InstalledVoice,
  MANIFEST_FILE,
  type ManifestSpeaker,
  normaliseLanguageCode,
  readInstalledVoice,
  type VoiceManifest,
} from './manifest.js';
import { withMetadata } from './onnx-metadata.js';

/**
 * Installing voices from Piper's catalogue (rhasspy/piper-voices): `voices.json` lists every
 * voice with its files, and each file's size and MD5; the files live beside it under the same
 * relative paths. The base URL is configurable (PIPER_VOICES_URL), so a mirror, or a local
 * server in tests, can stand in for the public one.
 */

export const DEFAULT_CATALOGUE_URL = 'https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/';

export interface CatalogueFile {
  size_bytes: number;
  md5_digest: string;
}

export interface CatalogueVoice {
  key: string;
  name: string;
  language: { code: string; name_english?: string; country_english?: string };
  quality: string;
  num_speakers: number;
  speaker_id_map: Record<string, number>;
  files: Record<string, CatalogueFile>;
  aliases?: string[];
}

/** Piper's `<voice>.onnx.json`, the parts we use. */
interface PiperConfig {
  audio: { sample_rate: number };
  espeak?: { voice?: string };
  phoneme_type?: string;
  phoneme_id_map: Record<string, number[]>;
  num_speakers?: number;
  speaker_id_map?: Record<string, number>;
  language?: { code?: string };
}

function baseUrl(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new SpeechError('engine_unavailable', `Cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new SpeechError('engine_unavailable', `${url} answered ${response.status}.`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function fetchCatalogue(base = DEFAULT_CATALOGUE_URL): Promise<CatalogueVoice[]> {
  const url = new URL('voices.json', baseUrl(base)).href;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(await fetchBytes(url)));
  } catch (error) {
    if (error instanceof SpeechError) throw error;
    throw new SpeechError('engine_unavailable', `${url} is not JSON.`);
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new SpeechError('engine_unavailable', `${url} is not a voice catalogue.`);
  }
  return Object.values(parsed as Record<string, CatalogueVoice>).filter(
    (v) => typeof v?.key === 'string' && typeof v.files === 'object',
  );
}

/** Downloads one catalogue file and checks its size and MD5 against the catalogue. */
async function download(base: string, path: string, expected: CatalogueFile): Promise<Uint8Array> {
  const url = new URL(path.split('/').map(encodeURIComponent).join('/'), baseUrl(base)).href;
  const bytes = await fetchBytes(url);
  if (bytes.length !== expected.size_bytes) {
    throw new SpeechError(
      'engine_unavailable',
      `${path}: expected ${expected.size_bytes} bytes, received ${bytes.length}.`,
    );
  }
  const md5 = createHash('md5').update(bytes).digest('hex');
  if (md5 !== expected.md5_digest.toLowerCase()) {
    throw new SpeechError(
      'engine_unavailable',
      `${path}: checksum ${md5} does not match ${expected.md5_digest}.`,
    );
  }
  return bytes;
}

/** tokens.txt in sherpa-onnx's layout (one "symbol id" a line) from Piper's phoneme_id_map. */
export function tokensFromPiper(config: PiperConfig): string {
  const lines: string[] = [];
  for (const [symbol, ids] of Object.entries(config.phoneme_id_map)) {
    // sherpa-onnx maps single code points; Piper's espeak maps only have those.
    if ([...symbol].length !== 1 || ids[0] === undefined) continue;
    lines.push(`${symbol} ${ids[0]}`);
  }
  return `${lines.join('\n')}\n`;
}

function title(text: string): string {
  return text.replace(/[_-]+/g, ' ').replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

export interface InstallOptions {
  voicesDir: string;
  base?: string;
  /** Piper's catalogue says nothing of gender; the operator may. */
  gender?: ManifestSpeaker['gender'];
  /** Replace an installed voice of the same name. */
  force?: boolean;
}

/**
 * Installs a catalogue voice into `voicesDir/<key>`: downloads and checks its files, writes
 * tokens.txt and the sherpa-onnx metadata, the manifest, and finally loads the model in a
 * child process to prove it works. Nothing is left behind when a step fails.
 */
export async function installVoice(name: string, options: InstallOptions): Promise<InstalledVoice> {
  const base = options.base ?? DEFAULT_CATALOGUE_URL;
  const catalogue = await fetchCatalogue(base);
  const entry = catalogue.find((v) => v.key === name || v.aliases?.includes(name));
  if (!entry) {
    throw new SpeechError(
      'unknown_voice',
      `The catalogue has no voice "${name}" (see "available").`,
    );
  }
  if (!FOLDER_PATTERN.test(entry.key)) {
    throw new SpeechError(
      'engine_unavailable',
      `The catalogue key "${entry.key}" is not a usable folder name.`,
    );
  }
  const files = Object.entries(entry.files);
  const model = files.find(([path]) => path.endsWith('.onnx'));
  const config = files.find(([path]) => path.endsWith('.onnx.json'));
  if (!model || !config) {
    throw new SpeechError(
      'engine_unavailable',
      `The catalogue lists no .onnx and .onnx.json for "${entry.key}".`,
    );
  }
  const target = join(options.voicesDir, entry.key);
  if (!options.force && !('problem' in (await readInstalledVoice(options.voicesDir, entry.key)))) {
    throw new SpeechError(
      'bad_input',
      `"${entry.key}" is already installed (--force replaces it).`,
    );
  }
  await mkdir(options.voicesDir, { recursive: true });
  const temporary = join(options.voicesDir, `.install-${entry.key}-${process.pid}`);
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary);
  try {
    const modelBytes = await download(base, model[0], model[1]);
    const configBytes = await download(base, config[0], config[1]);
    let piper: PiperConfig;
    try {
      piper = JSON.parse(new TextDecoder().decode(configBytes)) as PiperConfig;
    } catch {
      throw new SpeechError('engine_unavailable', `${config[0]} is not JSON.`);
    }
    if (piper.phoneme_type && piper.phoneme_type !== 'espeak') {
      throw new SpeechError(
        'engine_unavailable',
        `"${entry.key}" uses ${piper.phoneme_type} phonemes; only espeak-ng voices are supported.`,
      );
    }
    const sampleRate = piper.audio?.sample_rate;
    if (!Number.isInteger(sampleRate) || typeof piper.phoneme_id_map !== 'object') {
      throw new SpeechError(
        'engine_unavailable',
        `${config[0]} has no sample rate or phoneme map.`,
      );
    }
    const speakerMap = piper.speaker_id_map ?? entry.speaker_id_map ?? {};
    const speakerCount = Math.max(1, piper.num_speakers ?? entry.num_speakers ?? 1);
    const language = normaliseLanguageCode(piper.language?.code ?? entry.language.code);
    let annotated: Uint8Array;
    try {
      annotated = withMetadata(modelBytes, {
        model_type: 'vits',
        comment: 'piper',
        language: entry.language.name_english ?? language,
        voice: piper.espeak?.voice ?? language,
        has_espeak: '1',
        n_speakers: String(speakerCount),
        sample_rate: String(sampleRate),
      });
    } catch (error) {
      throw new SpeechError(
        'engine_unavailable',
        `${model[0]} is not an ONNX model: ${(error as Error).message}.`,
      );
    }
    await writeFile(join(temporary, 'model.onnx'), annotated);
    await writeFile(join(temporary, 'model.onnx.json'), configBytes);
    await writeFile(join(temporary, 'tokens.txt'), tokensFromPiper(piper));
    let license = `See ${base}`;
    const card = files.find(([path]) => path.endsWith('MODEL_CARD'));
    if (card) {
      const text = new TextDecoder().decode(await download(base, card[0], card[1]));
      await writeFile(join(temporary, 'MODEL_CARD'), text);
      license = /licen[cs]e\s*[:-]\s*(.+)/i.exec(text)?.[1]?.trim() ?? 'see MODEL_CARD';
    }
    const gender = options.gender ?? 'neutral';
    const named = Object.entries(speakerMap).sort((a, b) => a[1] - b[1]);
    const speakers: ManifestSpeaker[] =
      speakerCount > 1
        ? Array.from({ length: speakerCount }, (_, id) => ({
            id,
            name: title(named.find(([, sid]) => sid === id)?.[0] ?? `speaker ${id}`),
            gender,
          }))
        : [{ id: 0, name: title(entry.name), gender }];
    const manifest: VoiceManifest = {
      format: 1,
      name: `${title(entry.name)}${entry.quality ? ` (${entry.quality})` : ''}`,
      language,
      sample_rate: sampleRate,
      model: 'model.onnx',
      tokens: 'tokens.txt',
      license,
      speakers,
      source: { catalogue: base, key: entry.key, md5: model[1].md5_digest },
    };
    await writeFile(join(temporary, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const staged = await readInstalledVoice(
      options.voicesDir,
      `.install-${entry.key}-${process.pid}`,
    );
    if ('problem' in staged) throw new SpeechError('engine_unavailable', staged.problem);
    await checkNeuralVoice(staged);
    const old = `${target}.old-${process.pid}`;
    await rename(target, old).catch(() => {});
    await rename(temporary, target);
    await rm(old, { recursive: true, force: true });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  const installed = await readInstalledVoice(options.voicesDir, entry.key);
  if ('problem' in installed) throw new SpeechError('engine_unavailable', installed.problem);
  return installed;
}

/** Removes an installed voice's folder. */
export async function removeVoice(voicesDir: string, name: string): Promise<void> {
  if (!FOLDER_PATTERN.test(name))
    throw new SpeechError('bad_input', `"${name}" is not a voice name.`);
  const found = await readInstalledVoice(voicesDir, name);
  if ('problem' in found) {
    throw new SpeechError('unknown_voice', `No voice "${name}" is installed in ${voicesDir}.`);
  }
  await rm(join(voicesDir, name), { recursive: true, force: true });
}
