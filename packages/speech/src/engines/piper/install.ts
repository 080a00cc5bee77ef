import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SpeechError } from '../../errors.js';
import { unpackArchive } from './archive.js';
import { type DownloadOptions, downloadFile, type Expected, UnreachableError } from './download.js';
import { checkNeuralVoice } from './engine.js';
import {
  DEFAULT_KOKORO_BASE_URL,
  KOKORO_GRADES,
  kokoroModel,
  kokoroUrl,
} from './kokoro-catalogue.js';
import { withVoiceLock } from './lock.js';
import {
  FOLDER_PATTERN,
  type InstalledVoice,
  MANIFEST_FILE,
  type ManifestSpeaker,
  normaliseLanguageCode,
  readInstalledVoice,
  type VoiceManifest,
} from './manifest.js';
import { readMetadata, withMetadata } from './onnx-metadata.js';

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
  const url =
    isLocalBase(base) && !base.startsWith('file:') ? pathToFileURL(resolve(base)).href : base;
  return url.endsWith('/') ? url : `${url}/`;
}

/** A catalogue base that is a folder on this machine (an offline mirror), not a URL. */
function isLocalBase(base: string): boolean {
  return base.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(base);
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  if (url.startsWith('file:')) {
    try {
      return new Uint8Array(await readFile(fileURLToPath(url)));
    } catch (error) {
      throw new SpeechError(
        'engine_unavailable',
        `Cannot read ${fileURLToPath(url)}: ${(error as Error).message}`,
      );
    }
  }
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UnreachableError(url, cause?.code ?? cause?.message ?? (error as Error).message);
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

/**
 * Downloads one catalogue file and checks its size and MD5 against the catalogue. Over HTTP the
 * file goes through `downloadFile` into VOICES_DIR/.downloads (resumed, retried, checked);
 * a catalogue on disk is read as it is.
 */
async function download(
  base: string,
  path: string,
  expected: CatalogueFile,
  options: InstallOptions,
): Promise<Uint8Array> {
  const url = new URL(path.split('/').map(encodeURIComponent).join('/'), baseUrl(base)).href;
  if (!url.startsWith('file:')) {
    const file = join(downloadsDir(options.voicesDir), path.replaceAll('/', '_'));
    await downloadFile(url, file, {
      ...downloadOptions(options),
      expected: { size: expected.size_bytes, md5: expected.md5_digest },
    });
    try {
      return new Uint8Array(await readFile(file));
    } finally {
      await rm(file, { force: true });
    }
  }
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
  /** Piper's catalogue (PIPER_VOICES_URL). */
  base?: string;
  /** Where sherpa-onnx's Kokoro archives are (KOKORO_MODELS_URL): a mirror, or tests' server. */
  kokoroBase?: string;
  /** Download progress of the install, bytes of the whole voice. */
  onProgress?: (bytes: number, total: number | undefined) => void;
  signal?: AbortSignal;
  /** An archive unpacking to more is refused (archive.ts; default 4 GiB). */
  maxUnpackedBytes?: number;
  /** Download attempts after the first, and the first wait between them (download.ts). */
  retries?: number;
  backoffMs?: number;
  /** Piper's catalogue says nothing of gender; the operator may. */
  gender?: ManifestSpeaker['gender'];
  /** Replace an installed voice of the same name. */
  force?: boolean;
  /**
   * `installAny`: answer a voice already installed instead of refusing it (a server making
   * sure of its default voices, or one that waited for another installing the same).
   */
  keepInstalled?: boolean;
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
  // One progress for the whole voice: the model, its configuration and its card.
  const total = files.reduce((sum, [, file]) => sum + file.size_bytes, 0);
  const progress = (before: number): InstallOptions => ({
    ...options,
    onProgress: (bytes) => options.onProgress?.(before + bytes, total),
  });
  const modelBytes = await download(base, model[0], model[1], progress(0));
  const configBytes = await download(base, config[0], config[1], progress(model[1].size_bytes));
  const card = files.find(([path]) => path.endsWith('MODEL_CARD'));
  return installFiles(options, {
    key: entry.key,
    name: entry.name,
    quality: entry.quality,
    languageCode: entry.language.code,
    languageName: entry.language.name_english,
    speakerMap: entry.speaker_id_map,
    speakers: entry.num_speakers,
    modelBytes,
    configBytes,
    card:
      card &&
      new TextDecoder().decode(
        await download(
          base,
          card[0],
          card[1],
          progress(model[1].size_bytes + config[1].size_bytes),
        ),
      ),
    source: { catalogue: base, key: entry.key, md5: model[1].md5_digest },
  });
}

/** What a voice is made of, wherever it came from (the catalogue, a folder, an archive). */
interface VoiceFiles {
  key: string;
  name: string;
  quality?: string | undefined;
  languageCode?: string | undefined;
  languageName?: string | undefined;
  speakerMap?: Record<string, number> | undefined;
  speakers?: number | undefined;
  modelBytes: Uint8Array;
  configBytes: Uint8Array;
  card?: string | undefined;
  source: NonNullable<VoiceManifest['source']>;
}

/**
 * Installs a voice's files into `voicesDir/<key>`: checks Piper's configuration, writes
 * tokens.txt and the sherpa-onnx metadata, the manifest, and finally loads the model in a
 * child process to prove it works. Nothing is left behind when a step fails.
 */
async function installFiles(options: InstallOptions, voice: VoiceFiles): Promise<InstalledVoice> {
  const entry = { key: voice.key, name: voice.name, quality: voice.quality ?? '' };
  if (!FOLDER_PATTERN.test(entry.key)) {
    throw new SpeechError('bad_input', `"${entry.key}" is not a usable voice folder name.`);
  }
  return stage(options, entry.key, async (temporary) => {
    const { modelBytes, configBytes } = voice;
    let piper: PiperConfig;
    try {
      piper = JSON.parse(new TextDecoder().decode(configBytes)) as PiperConfig;
    } catch {
      throw new SpeechError('engine_unavailable', `${entry.key}.onnx.json is not JSON.`);
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
        `${entry.key}.onnx.json has no sample rate or phoneme map.`,
      );
    }
    const speakerMap = piper.speaker_id_map ?? voice.speakerMap ?? {};
    const speakerCount = Math.max(1, piper.num_speakers ?? voice.speakers ?? 1);
    const languageCode = piper.language?.code ?? voice.languageCode ?? piper.espeak?.voice;
    if (!languageCode) {
      throw new SpeechError('bad_input', `${entry.key}.onnx.json names no language.`);
    }
    const language = normaliseLanguageCode(languageCode);
    let annotated: Uint8Array;
    try {
      annotated = withMetadata(modelBytes, {
        model_type: 'vits',
        comment: 'piper',
        language: voice.languageName ?? language,
        voice: piper.espeak?.voice ?? language,
        has_espeak: '1',
        n_speakers: String(speakerCount),
        sample_rate: String(sampleRate),
      });
    } catch (error) {
      throw new SpeechError(
        'engine_unavailable',
        `${entry.key}.onnx is not an ONNX model: ${(error as Error).message}.`,
      );
    }
    await writeFile(join(temporary, 'model.onnx'), annotated);
    await writeFile(join(temporary, 'model.onnx.json'), configBytes);
    await writeFile(join(temporary, 'tokens.txt'), tokensFromPiper(piper));
    let license = `See ${voice.source.catalogue}`;
    if (voice.card) {
      await writeFile(join(temporary, 'MODEL_CARD'), voice.card);
      license = /licen[cs]e\s*[:-]\s*(.+)/i.exec(voice.card)?.[1]?.trim() ?? 'see MODEL_CARD';
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
      source: voice.source,
    };
    await writeFile(join(temporary, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  });
}

/**
 * Writes a voice into a temporary folder of `voicesDir` (`write`), proves it loads and speaks
 * (in a child process), then puts it in place as `voicesDir/<key>`. Nothing is left behind
 * when a step fails; an installed voice is replaced only with `force`.
 */
async function stage(
  options: InstallOptions,
  key: string,
  write: (temporary: string) => Promise<void>,
): Promise<InstalledVoice> {
  const target = join(options.voicesDir, key);
  if (!options.force && !('problem' in (await readInstalledVoice(options.voicesDir, key)))) {
    throw new SpeechError('bad_input', `"${key}" is already installed (--force replaces it).`);
  }
  await mkdir(options.voicesDir, { recursive: true });
  const folder = `.install-${key}-${process.pid}`;
  const temporary = join(options.voicesDir, folder);
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary);
  try {
    await write(temporary);
    const staged = await readInstalledVoice(options.voicesDir, folder);
    if ('problem' in staged) throw new SpeechError('engine_unavailable', staged.problem);
    await checkNeuralVoice(staged);
    const old = `${target}.old-${process.pid}`;
    await rename(target, old).catch(() => {});
    await rename(temporary, target);
    await rm(old, { recursive: true, force: true });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  const installed = await readInstalledVoice(options.voicesDir, key);
  if ('problem' in installed) throw new SpeechError('engine_unavailable', installed.problem);
  return installed;
}

/** Downloads in progress and their resumable parts: a dot folder, never read as a voice. */
function downloadsDir(voicesDir: string): string {
  return join(voicesDir, '.downloads');
}

function downloadOptions(options: InstallOptions): DownloadOptions {
  return {
    ...(options.onProgress && { onProgress: options.onProgress }),
    ...(options.signal && { signal: options.signal }),
    ...(options.retries !== undefined && { retries: options.retries }),
    ...(options.backoffMs !== undefined && { backoffMs: options.backoffMs }),
  };
}

const ARCHIVE = /\.(tar\.gz|tgz|tar\.bz2|tbz2?|tar|zip)$/i;

/**
 * Installs a voice from this machine (offline installs): a folder holding Piper's
 * `<voice>.onnx` and `<voice>.onnx.json` (and its MODEL_CARD if any) or a Kokoro model as
 * sherpa-onnx publishes it, or a .tar.gz / .tar.bz2 / .zip / .tar archive of one. No
 * catalogue, so no checksum to check: the model is checked by loading it.
 */
export async function installLocalVoice(
  path: string,
  options: InstallOptions,
  source?: NonNullable<VoiceManifest['source']>,
): Promise<InstalledVoice> {
  const origin = resolve(path);
  const info = await stat(origin).catch(() => undefined);
  if (!info) throw new SpeechError('bad_input', `${origin} does not exist.`);
  let folder = origin;
  let unpacked: string | undefined;
  if (info.isFile()) {
    // Beside the voices (same disk, so the final move is a rename), in a dot folder.
    await mkdir(options.voicesDir, { recursive: true });
    unpacked = await mkdtemp(join(options.voicesDir, '.unpack-'));
    try {
      await unpackArchive(origin, unpacked, options.maxUnpackedBytes);
    } catch (error) {
      await rm(unpacked, { recursive: true, force: true });
      throw error;
    }
    folder = unpacked;
  }
  try {
    const styles = await findFile(folder, (name) => name === 'voices.bin');
    if (styles) return await installKokoro(dirname(styles), origin, options, source);
    const model = await findFile(folder, (name) => name.endsWith('.onnx'));
    const config = await findFile(folder, (name) => name.endsWith('.onnx.json'));
    if (!model || !config) {
      throw new SpeechError(
        'bad_input',
        `${origin} holds no Piper voice (a .onnx and its .onnx.json) and no Kokoro model.`,
      );
    }
    const key = basename(model, '.onnx');
    const card = await findFile(folder, (name) => name === 'MODEL_CARD');
    const modelBytes = new Uint8Array(await readFile(model));
    return await installFiles(options, {
      key,
      name: key.split('-')[1] ?? key,
      quality: key.split('-')[2],
      modelBytes,
      configBytes: new Uint8Array(await readFile(config)),
      card: card && (await readFile(card, 'utf8')),
      source: source ?? {
        catalogue: `file://${origin}`,
        key,
        md5: createHash('md5').update(modelBytes).digest('hex'),
      },
    });
  } finally {
    if (unpacked) await rm(unpacked, { recursive: true, force: true });
  }
}

/**
 * Installs a voice from an http(s) address of an archive (or of a Kokoro release): downloaded
 * into VOICES_DIR/.downloads (resumed after an interruption, retried, its size and checksum
 * checked where known), unpacked, test-loaded, then put in place. The archive is removed once
 * the voice is installed; a failed download leaves its part to be resumed.
 */
export async function installFromUrl(
  url: string,
  options: InstallOptions & { expected?: Expected },
): Promise<InstalledVoice> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SpeechError('bad_input', `${url} is not an http(s) address.`);
  }
  const name = decodeURIComponent(parsed.pathname.split('/').pop() ?? '');
  if (!ARCHIVE.test(name) || !FOLDER_PATTERN.test(name)) {
    throw new SpeechError(
      'bad_input',
      `${url} does not name a .tar.bz2, .tar.gz, .zip or .tar archive.`,
    );
  }
  const file = join(downloadsDir(options.voicesDir), name);
  const downloaded = await downloadFile(url, file, {
    ...downloadOptions(options),
    ...(options.expected && { expected: options.expected }),
  });
  try {
    return await installLocalVoice(file, options, {
      url,
      key: name.replace(ARCHIVE, ''),
      sha256: downloaded.sha256,
      checked: downloaded.checked,
    });
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * `voices install <what>`: a Kokoro model of sherpa-onnx's (kokoro-int8-multi-lang-v1_0…), an
 * http(s) address, a folder or archive on this machine, else a name of Piper's catalogue. One
 * installer at a time per voice in a voices directory (lock.ts); one that waited for another
 * finds the voice there and answers it.
 */
export async function installAny(what: string, options: InstallOptions): Promise<InstalledVoice> {
  const kokoro = kokoroModel(what);
  const isUrl = /^https?:\/\//i.test(what);
  const isPath =
    !kokoro && !isUrl && (/[/\\]/.test(what) || ARCHIVE.test(what) || existsSync(what));
  if (isPath) return installLocalVoice(what, options);
  const key = kokoro
    ? kokoro.name
    : isUrl
      ? decodeURIComponent(new URL(what).pathname.split('/').pop() ?? '').replace(ARCHIVE, '')
      : what;
  if (!FOLDER_PATTERN.test(key)) {
    throw new SpeechError('bad_input', `"${what}" names no voice that can be installed.`);
  }
  return withVoiceLock(
    options.voicesDir,
    key,
    async () => {
      if (!options.force) {
        const there = await readInstalledVoice(options.voicesDir, key);
        if (!('problem' in there)) {
          if (options.keepInstalled) return there;
          throw new SpeechError(
            'bad_input',
            `"${key}" is already installed (--force replaces it).`,
          );
        }
      }
      if (kokoro) {
        return installFromUrl(kokoroUrl(kokoro, options.kokoroBase ?? DEFAULT_KOKORO_BASE_URL), {
          ...options,
          force: true,
        });
      }
      if (isUrl) return installFromUrl(what, { ...options, force: true });
      return installVoice(what, { ...options, force: true });
    },
    { signal: options.signal },
  );
}

/** Kokoro's speaker names: `af_heart` is an American English female voice named Heart. */
const KOKORO_LANGUAGES: Record<string, string> = {
  a: 'en-us',
  b: 'en-gb',
  e: 'es',
  f: 'fr-fr',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-br',
  z: 'cmn',
};

/** The lexicon a language's speakers cannot speak without (their script is read only through it). */
const KOKORO_LEXICONS: Record<string, string> = { cmn: 'lexicon-zh.txt', ja: 'lexicon-ja.txt' };

/**
 * Installs a Kokoro model as sherpa-onnx publishes it (kokoro-en-v0_19, kokoro-multi-lang-v1_0
 * and the like: a folder with model.onnx, voices.bin and tokens.txt, the settings in the model's
 * metadata). Its speakers come from the metadata's `speaker_names`, their gender and, in a
 * multi-language model (metadata version 2), their language from Kokoro's naming; that
 * model's lexicons (lexicon-*.txt) are installed with it.
 */
async function installKokoro(
  folder: string,
  source: string,
  options: InstallOptions,
  origin?: NonNullable<VoiceManifest['source']>,
): Promise<InstalledVoice> {
  const model = await findFile(folder, (name) => name.endsWith('.onnx'), 0);
  const tokens = await findFile(folder, (name) => name === 'tokens.txt', 0);
  if (!model || !tokens) {
    throw new SpeechError(
      'bad_input',
      `${source}: a Kokoro voice needs model.onnx and tokens.txt beside voices.bin.`,
    );
  }
  const modelBytes = new Uint8Array(await readFile(model));
  let metadata: Map<string, string>;
  try {
    metadata = readMetadata(modelBytes);
  } catch (error) {
    throw new SpeechError(
      'bad_input',
      `${model} is not an ONNX model: ${(error as Error).message}.`,
    );
  }
  if (metadata.get('model_type') !== 'kokoro' || !metadata.get('style_dim')) {
    throw new SpeechError('bad_input', `${model} has no Kokoro metadata (model_type, style_dim).`);
  }
  const multilingual = Number(metadata.get('version') ?? 1) >= 2;
  const sampleRate = Number(metadata.get('sample_rate'));
  const count = Number(metadata.get('n_speakers'));
  if (!Number.isInteger(sampleRate) || !Number.isInteger(count) || count < 1) {
    throw new SpeechError('bad_input', `${model}: its metadata has no sample_rate or n_speakers.`);
  }
  const names = (metadata.get('speaker_names') ?? '').split(',').filter(Boolean);
  const key =
    basename(folder)
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'kokoro';
  const modelLanguage = normaliseLanguageCode(metadata.get('voice') ?? 'en-us');
  const languageOf = (name: string) => KOKORO_LANGUAGES[name.charAt(0)] ?? modelLanguage;
  const lexicons = multilingual
    ? (await readdir(folder)).filter((name) => /^lexicon-[\w-]+\.txt$/.test(name)).sort()
    : [];
  const all: ManifestSpeaker[] = Array.from({ length: count }, (_, id) => {
    const raw = names[id] ?? `speaker_${id}`;
    const kind = raw.charAt(1);
    return {
      id,
      name: title(raw.split('_').slice(1).join(' ') || raw),
      gender: options.gender ?? (kind === 'f' ? 'female' : kind === 'm' ? 'male' : 'neutral'),
      ...(multilingual && { language: languageOf(raw) }),
      ...(KOKORO_GRADES[raw] && { grade: KOKORO_GRADES[raw] }),
    };
  });
  // A speaker whose script is read only through a lexicon the archive lacks (v1.0's Japanese
  // speakers: sherpa-onnx ships no lexicon-ja.txt) is left out rather than speaking nonsense.
  const missing = new Set<string>();
  const speakers = all.filter((speaker) => {
    const needed = speaker.language && KOKORO_LEXICONS[speaker.language];
    if (needed && !lexicons.includes(needed))
      missing.add(`its ${speaker.language} speakers need ${needed}`);
    return !(needed && !lexicons.includes(needed));
  });
  if (speakers.length === 0) {
    throw new SpeechError(
      'bad_input',
      `${source}: ${[...missing].join('; ')}, which is not in the folder.`,
    );
  }
  const manifest: VoiceManifest = {
    format: 1,
    architecture: 'kokoro',
    name: `Kokoro (${key})`,
    language: speakers[0]?.language ?? languageOf(names[0] ?? ''),
    sample_rate: sampleRate,
    model: 'model.onnx',
    tokens: 'tokens.txt',
    voices: 'voices.bin',
    ...(lexicons.length > 0 && { lexicons }),
    license: 'Apache-2.0 (Kokoro-82M)',
    speakers,
    source: origin ?? {
      catalogue: `file://${source}`,
      key,
      md5: createHash('md5').update(modelBytes).digest('hex'),
    },
  };
  return stage(options, key, async (temporary) => {
    await writeFile(join(temporary, 'model.onnx'), modelBytes);
    await writeFile(join(temporary, 'voices.bin'), await readFile(join(folder, 'voices.bin')));
    await writeFile(join(temporary, 'tokens.txt'), await readFile(tokens));
    for (const lexicon of lexicons) {
      await copyFile(join(folder, lexicon), join(temporary, lexicon));
    }
    await writeFile(join(temporary, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  });
}

/** The first file under `folder` (searched depth-first, two levels) whose name matches. */
async function findFile(
  folder: string,
  matches: (name: string) => boolean,
  depth = 2,
): Promise<string | undefined> {
  const entries = await readdir(folder, { withFileTypes: true });
  const file = entries.find((entry) => entry.isFile() && matches(entry.name));
  if (file) return join(folder, file.name);
  if (depth === 0) return undefined;
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const found = await findFile(join(folder, entry.name), matches, depth - 1);
    if (found) return found;
  }
  return undefined;
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
