import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The voices directory (VOICES_DIR): one folder per installed voice, holding its ONNX model,
 * its tokens.txt and `parla-voice.json`, the manifest below. A folder without a readable
 * manifest is not a voice; folders starting with a dot are ours (the phoneme-data cache).
 * See docs/neural-voices.md.
 */

export const MANIFEST_FILE = 'parla-voice.json';

export interface ManifestSpeaker {
  /** The model's speaker id (`sid`). */
  id: number;
  name: string;
  gender: 'male' | 'female' | 'neutral';
  /**
   * The speaker's own language, in a model that speaks several (Kokoro v1.0: `ff_siwis` is
   * French); the manifest's `language` otherwise. The model is run with this language's
   * phonemes for this speaker.
   */
  language?: string;
  /**
   * The model's own grade of this speaker where its authors publish one (Kokoro: `A`, `B-`,
   * `F+`…): the better graded speakers of a language are listed, and chosen by default, first.
   */
  grade?: string;
}

export interface VoiceManifest {
  format: 1;
  /** The voice's name as people read it ("Amy", "LibriTTS"). */
  name: string;
  /** BCP 47-ish language code, lower case with a hyphen ("en-us", "de-de"). */
  language: string;
  /** The model's native sample rate in Hz. */
  sample_rate: number;
  /** File names inside the folder. */
  model: string;
  tokens: string;
  license: string;
  /** Every speaker of the model; each is one voice of the catalogue. */
  speakers: ManifestSpeaker[];
  /**
   * Where it came from (the install command fills this): the catalogue and its key, or the
   * address it was downloaded from, the archive's checksums and which of them were checked
   * against what the host published (`size`, `md5`, `sha256`).
   */
  source?: {
    catalogue?: string;
    key?: string;
    md5?: string;
    url?: string;
    sha256?: string;
    checked?: string[];
  };
  /**
   * The model's architecture: `vits` (Piper, the default) or `kokoro` (Kokoro-82M as
   * sherpa-onnx runs it, whose speakers' styles are in `voices`).
   */
  architecture?: 'vits' | 'kokoro';
  /** Kokoro's speaker styles (voices.bin), a file name in the folder. */
  voices?: string;
  /**
   * Kokoro v1.0's pronunciation lexicons (lexicon-zh.txt, lexicon-us-en.txt…), file names in
   * the folder: Chinese characters are spoken only through them.
   */
  lexicons?: string[];
}

export interface InstalledVoice {
  /** The folder's name, which is the voice's key in ids (`neural:<folder>`). */
  folder: string;
  directory: string;
  manifest: VoiceManifest;
  modelPath: string;
  tokensPath: string;
  /** Kokoro's voices.bin; undefined for a Piper voice. */
  voicesPath?: string;
  /** Kokoro's lexicons (empty for most models). */
  lexiconPaths: string[];
}

/** Piper's `en_US` and espeak-ng's `en-us` are the same language: one spelling for both. */
export function normaliseLanguageCode(code: string): string {
  return code.replaceAll('_', '-').toLowerCase();
}

function isGender(value: unknown): value is ManifestSpeaker['gender'] {
  return value === 'male' || value === 'female' || value === 'neutral';
}

function isFileName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !/[/\\]|^\.\.?$/.test(value);
}

/** Checks a parsed manifest; answers what is wrong with it, or undefined. */
export function manifestProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const m = value as Record<string, unknown>;
  if (m.format !== 1) return 'format must be 1';
  for (const key of ['name', 'language', 'model', 'tokens', 'license'] as const) {
    if (typeof m[key] !== 'string' || m[key] === '') return `${key} must be a non-empty string`;
  }
  for (const key of ['model', 'tokens'] as const) {
    if (!isFileName(m[key])) return `${key} must be a file name in the folder`;
  }
  if (m.architecture !== undefined && m.architecture !== 'vits' && m.architecture !== 'kokoro')
    return 'architecture must be vits or kokoro';
  if (m.architecture === 'kokoro') {
    if (!isFileName(m.voices)) return 'voices must be a file name in the folder (Kokoro)';
  }
  if (m.lexicons !== undefined && !(Array.isArray(m.lexicons) && m.lexicons.every(isFileName)))
    return 'lexicons must be a list of file names in the folder';
  if (typeof m.sample_rate !== 'number' || !Number.isInteger(m.sample_rate) || m.sample_rate < 8000)
    return 'sample_rate must be an integer of at least 8000';
  if (!Array.isArray(m.speakers) || m.speakers.length === 0) return 'speakers must not be empty';
  for (const s of m.speakers as unknown[]) {
    const speaker = s as Record<string, unknown>;
    if (typeof speaker !== 'object' || speaker === null) return 'a speaker is not an object';
    if (typeof speaker.id !== 'number' || !Number.isInteger(speaker.id) || speaker.id < 0)
      return 'a speaker id must be a non-negative integer';
    if (typeof speaker.name !== 'string') return 'a speaker name must be a string';
    if (!isGender(speaker.gender)) return 'a speaker gender must be male, female or neutral';
    if (
      speaker.language !== undefined &&
      (typeof speaker.language !== 'string' || !speaker.language)
    )
      return 'a speaker language must be a non-empty string';
    if (speaker.grade !== undefined && !/^[A-F][+-]?$/.test(String(speaker.grade)))
      return 'a speaker grade must be a letter A to F, with + or -';
  }
  return undefined;
}

/** Folder names usable in voice ids and URLs. */
export const FOLDER_PATTERN = /^[A-Za-z0-9][\w.-]*$/;

export async function readInstalledVoice(
  voicesDir: string,
  folder: string,
): Promise<InstalledVoice | { folder: string; problem: string }> {
  const directory = join(voicesDir, folder);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(directory, MANIFEST_FILE), 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { folder, problem: code === 'ENOENT' ? `no ${MANIFEST_FILE}` : 'unreadable manifest' };
  }
  const problem = manifestProblem(parsed);
  if (problem) return { folder, problem: `${MANIFEST_FILE}: ${problem}` };
  const manifest = parsed as VoiceManifest;
  return {
    folder,
    directory,
    manifest: {
      ...manifest,
      language: normaliseLanguageCode(manifest.language),
      speakers: manifest.speakers.map((speaker) =>
        speaker.language
          ? { ...speaker, language: normaliseLanguageCode(speaker.language) }
          : speaker,
      ),
    },
    modelPath: join(directory, manifest.model),
    tokensPath: join(directory, manifest.tokens),
    lexiconPaths: (manifest.lexicons ?? []).map((name) => join(directory, name)),
    ...(manifest.architecture === 'kokoro' &&
      manifest.voices && { voicesPath: join(directory, manifest.voices) }),
  };
}

/**
 * The voices installed in a directory, sorted by folder. A missing directory means none.
 * Folders that are not voices are reported in `skipped` (the CLI shows them).
 */
export async function scanVoices(voicesDir: string | undefined): Promise<{
  voices: InstalledVoice[];
  skipped: { folder: string; problem: string }[];
}> {
  if (!voicesDir) return { voices: [], skipped: [] };
  let entries: string[];
  try {
    entries = (await readdir(voicesDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && FOLDER_PATTERN.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return { voices: [], skipped: [] };
  }
  const voices: InstalledVoice[] = [];
  const skipped: { folder: string; problem: string }[] = [];
  for (const folder of entries) {
    const found = await readInstalledVoice(voicesDir, folder);
    if ('problem' in found) skipped.push(found);
    else voices.push(found);
  }
  return { voices, skipped };
}

const hashes = new Map<string, Promise<string>>();

/** SHA-256 of a file, read as a stream; computed once per path, size and time. */
function fileHash(path: string, stamp: string): Promise<string> {
  const key = `${path}|${stamp}`;
  let found = hashes.get(key);
  if (!found) {
    found = new Promise<string>((resolve, reject) => {
      const hash = createHash('sha256');
      createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('end', () => resolve(hash.digest('hex')))
        .on('error', reject);
    });
    found.catch(() => hashes.delete(key));
    hashes.set(key, found);
  }
  return found;
}

/**
 * The SHA-256 of the model, the tokens, the styles and the lexicons: changes when a voice is reinstalled with other
 * files, and only then. Each file is hashed once per size and modification time.
 */
export async function voiceFingerprint(voice: InstalledVoice): Promise<string> {
  const parts: string[] = [];
  const files = [
    voice.modelPath,
    voice.tokensPath,
    ...(voice.voicesPath ? [voice.voicesPath] : []),
    ...voice.lexiconPaths,
  ];
  for (const path of files) {
    try {
      const s = await stat(path);
      parts.push(await fileHash(path, `${s.size}:${s.mtimeMs}`));
    } catch {
      parts.push('missing');
    }
  }
  return parts.join('|');
}
