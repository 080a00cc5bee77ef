import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ADMIN_VOICE_MESSAGES,
  type AdminAvailableVoices,
  type AdminInstalledVoice,
} from '@parla/contract';
import { fetchCatalogue, KOKORO_MODELS, scanVoices } from '@parla/speech';

/**
 * The natural voices' files as the console shows them (issue 31 §6): what VOICES_DIR holds,
 * with size and licence, and what can be installed (sherpa-onnx's Kokoro models and Piper's
 * catalogue, read from PIPER_VOICES_URL as `npm run voices -- available` reads it).
 */

async function bytesOf(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const inside = path.join(directory, entry.name);
    if (entry.isDirectory()) total += await bytesOf(inside);
    else if (entry.isFile()) total += (await stat(inside)).size;
  }
  return total;
}

export async function installedVoices(voicesDir: string): Promise<AdminInstalledVoice[]> {
  const { voices } = await scanVoices(voicesDir);
  return Promise.all(
    voices.map(async (voice) => ({
      name: voice.folder,
      display_name: voice.manifest.name,
      language: voice.manifest.language,
      license: voice.manifest.license,
      bytes: await bytesOf(voice.directory),
      speakers: voice.manifest.speakers.length,
    })),
  );
}

/** The folder a catalogue voice id comes from (`neural:<folder>#<speaker>`), if any. */
export function folderOfVoice(id: string): string | undefined {
  return /^neural:([^#]+)/.exec(id)?.[1];
}

export async function availableVoices(
  voicesDir: string,
  piperBase: string | undefined,
): Promise<AdminAvailableVoices> {
  const installed = new Set((await scanVoices(voicesDir)).voices.map((voice) => voice.folder));
  const kokoro = KOKORO_MODELS.map((model) => ({
    name: model.name,
    architecture: 'kokoro' as const,
    language: model.languages.join(', '),
    quality: model.quality,
    bytes: model.size,
    license: model.license,
    installed: installed.has(model.name),
  }));
  try {
    const piper = (await fetchCatalogue(piperBase)).map((voice) => ({
      name: voice.key,
      architecture: 'piper' as const,
      language: voice.language.code,
      quality: voice.quality,
      bytes: Object.values(voice.files).reduce((sum, file) => sum + file.size_bytes, 0),
      // Piper's catalogue names no licence: each model card says it (docs/neural-voices.md).
      license: null,
      installed: installed.has(voice.key),
    }));
    return { voices: [...kokoro, ...piper], problem: null };
  } catch (error) {
    return {
      voices: kokoro,
      problem: ADMIN_VOICE_MESSAGES.catalogueUnreachable((error as Error).message),
    };
  }
}
