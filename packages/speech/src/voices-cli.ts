/**
 * `npm run voices -- available | install <what> | remove <name> | list`: the neural voices
 * of an installation (docs/neural-voices.md).
 *
 * Options: --dir DIR (default VOICES_DIR, else DATA_DIR/voices, else ./data/voices),
 * --base-url URL (default PIPER_VOICES_URL, else Piper's public catalogue), --kokoro-url URL
 * (default KOKORO_MODELS_URL, else sherpa-onnx's release), --force (install over an installed
 * voice), --gender male|female|neutral (Piper's catalogue has no gender), --language CODE and
 * --engine kokoro|piper (filter `available`). bin/voices.js calls `main`.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type CatalogueVoice,
  DEFAULT_CATALOGUE_URL,
  fetchCatalogue,
  type InstallOptions,
  installAny,
  removeVoice,
} from './engines/piper/install.js';
import { DEFAULT_KOKORO_BASE_URL, KOKORO_MODELS } from './engines/piper/kokoro-catalogue.js';
import { normaliseLanguageCode, scanVoices, type VoiceManifest } from './engines/piper/manifest.js';

const USAGE = `usage: npm run voices -- <command> [options]

  available [--engine kokoro|piper] [--language CODE]
                                the catalogue: languages, size, quality, licence, installed
  install <name> [--force] [--gender male|female|neutral]
                                a Kokoro model (kokoro-int8-multi-lang-v1_0…) or a Piper voice
  install <https://…/file.tar.bz2>  an archive on the web (resumed, checked, test-loaded)
  install <folder | file.tar.gz | .tar.bz2 | .zip>  a voice on this machine (offline)
  remove <name>
  list                          voices installed in the voices directory, licence and source

  --dir DIR        voices directory (default VOICES_DIR, else DATA_DIR/voices)
  --base-url URL   Piper's catalogue (default PIPER_VOICES_URL, else ${DEFAULT_CATALOGUE_URL});
                   a folder holding a copy of the catalogue works offline
  --kokoro-url URL Kokoro archives (default KOKORO_MODELS_URL, else ${DEFAULT_KOKORO_BASE_URL})
`;

const out = (text: string) => process.stdout.write(`${text}\n`);

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Runs the command; answers its exit status (2: usage, 1: it failed), printing errors. */

/** A voice's languages: its speakers' own where it speaks several (Kokoro v1.0). */
function languagesOf(manifest: VoiceManifest): string[] {
  return [...new Set(manifest.speakers.map((speaker) => speaker.language ?? manifest.language))];
}

export async function main(argv: string[]): Promise<number> {
  try {
    return await voices(argv);
  } catch (error) {
    const usage =
      error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n${usage ? USAGE : ''}`,
    );
    return usage ? 2 : 1;
  }
}

async function voices(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      'base-url': { type: 'string' },
      force: { type: 'boolean', default: false },
      gender: { type: 'string' },
      language: { type: 'string' },
      engine: { type: 'string' },
      'kokoro-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, name] = positionals;
  const voicesDir = resolve(
    values.dir ?? process.env.VOICES_DIR ?? `${process.env.DATA_DIR ?? './data'}/voices`,
  );
  const base = values['base-url'] ?? process.env.PIPER_VOICES_URL ?? DEFAULT_CATALOGUE_URL;
  const kokoroBase =
    values['kokoro-url'] ?? process.env.KOKORO_MODELS_URL ?? DEFAULT_KOKORO_BASE_URL;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'available') {
    const engine = values.engine;
    if (engine !== undefined && engine !== 'kokoro' && engine !== 'piper') {
      process.stderr.write('--engine is kokoro or piper\n');
      return 2;
    }
    const language = values.language ? normaliseLanguageCode(values.language) : undefined;
    const speaks = (code: string) => !language || normaliseLanguageCode(code).startsWith(language);
    const installed = new Set((await scanVoices(voicesDir)).voices.map((v) => v.folder));
    const mark = (key: string) => (installed.has(key) ? 'installed' : '-');
    if (engine !== 'piper') {
      for (const model of KOKORO_MODELS.filter((m) => m.languages.some(speaks))) {
        out(
          `${model.name}\tkokoro\t${model.languages.join(',')}\t${model.quality}, ${model.speakers} speakers\t~${megabytes(model.size)}\t${model.license}\t${mark(model.name)}`,
        );
      }
    }
    if (engine !== 'kokoro') {
      let catalogue: CatalogueVoice[];
      try {
        catalogue = await fetchCatalogue(base);
      } catch (error) {
        // Kokoro's table is built in; Piper's catalogue is on the web.
        if (engine === 'piper') throw error;
        process.stderr.write(`Piper's catalogue: ${(error as Error).message}\n`);
        return 0;
      }
      const voices = catalogue
        .filter((v) => speaks(v.language.code))
        .sort((a, b) => a.key.localeCompare(b.key));
      for (const voice of voices) {
        const size = Object.values(voice.files).reduce((sum, f) => sum + f.size_bytes, 0);
        const speakers = voice.num_speakers > 1 ? `, ${voice.num_speakers} speakers` : '';
        out(
          `${voice.key}\tpiper\t${voice.language.code}\t${voice.quality}${speakers}\t${megabytes(size)}\tsee MODEL_CARD\t${mark(voice.key)}`,
        );
      }
    }
    return 0;
  }
  if (command === 'install' || command === 'remove') {
    if (!name) {
      process.stderr.write(USAGE);
      return 2;
    }
    if (command === 'remove') {
      await removeVoice(voicesDir, name);
      out(`Removed ${name} from ${voicesDir}.`);
      return 0;
    }
    const gender = values.gender;
    if (gender !== undefined && gender !== 'male' && gender !== 'female' && gender !== 'neutral') {
      process.stderr.write('--gender is male, female or neutral\n');
      return 2;
    }
    let shown = -1;
    const options: InstallOptions = {
      voicesDir,
      base,
      kokoroBase,
      force: values.force,
      ...(gender && { gender: gender as NonNullable<InstallOptions['gender']> }),
      onProgress: (bytes, total) => {
        // A line per tenth, on stderr: the result stays alone on stdout.
        const tenth = total ? Math.floor((bytes / total) * 10) : -1;
        if (tenth > shown) {
          shown = tenth;
          process.stderr.write(
            `${name}: ${megabytes(bytes)} of ${total ? megabytes(total) : '?'}\n`,
          );
        }
      },
    };
    const installed = await installAny(name, options);
    const m = installed.manifest;
    out(
      `Installed ${installed.folder} (${languagesOf(m).join(', ')}, ${m.sample_rate} Hz, ` +
        `${m.speakers.length} speaker${m.speakers.length > 1 ? 's' : ''}) in ${installed.directory}.`,
    );
    return 0;
  }
  if (command === 'list') {
    const { voices, skipped } = await scanVoices(voicesDir);
    if (voices.length === 0) out(`No neural voices in ${voicesDir}.`);
    for (const voice of voices) {
      const m = voice.manifest;
      const source = m.source?.url ?? m.source?.catalogue ?? 'unknown source';
      out(
        `${voice.folder}\t${languagesOf(m).join(',')}\t${m.sample_rate} Hz\t${m.speakers.length} speaker(s)\t${m.license}\t${source}`,
      );
    }
    for (const folder of skipped) out(`${folder.folder}\tnot a voice: ${folder.problem}`);
    return 0;
  }
  process.stderr.write(USAGE);
  return 2;
}
