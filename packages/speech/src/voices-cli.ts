/**
 * `npm run voices -- available | install <name> | remove <name> | list`: the neural voices
 * of an installation (docs/neural-voices.md).
 *
 * Options: --dir DIR (default VOICES_DIR, else DATA_DIR/voices, else ./data/voices),
 * --base-url URL (default PIPER_VOICES_URL, else Piper's public catalogue), --force
 * (install over an installed voice), --gender male|female|neutral (Piper's catalogue has no
 * gender), --language CODE (filter `available`). bin/voices.js calls `main`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_CATALOGUE_URL,
  fetchCatalogue,
  type InstallOptions,
  installLocalVoice,
  installVoice,
  removeVoice,
} from './engines/piper/install.js';
import { normaliseLanguageCode, scanVoices, type VoiceManifest } from './engines/piper/manifest.js';

const USAGE = `usage: npm run voices -- <command> [options]

  available [--language CODE]   voices of the catalogue
  install <name> [--force] [--gender male|female|neutral]
  install <folder | file.tar.gz>  a voice on this machine (offline: a .onnx and its .onnx.json)
  remove <name>
  list                          voices installed in the voices directory

  --dir DIR        voices directory (default VOICES_DIR, else DATA_DIR/voices)
  --base-url URL   catalogue (default PIPER_VOICES_URL, else ${DEFAULT_CATALOGUE_URL});
                   a folder holding a copy of the catalogue works offline
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
      help: { type: 'boolean', default: false },
    },
  });
  const [command, name] = positionals;
  const voicesDir = resolve(
    values.dir ?? process.env.VOICES_DIR ?? `${process.env.DATA_DIR ?? './data'}/voices`,
  );
  const base = values['base-url'] ?? process.env.PIPER_VOICES_URL ?? DEFAULT_CATALOGUE_URL;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'available') {
    const language = values.language ? normaliseLanguageCode(values.language) : undefined;
    const voices = (await fetchCatalogue(base))
      .filter((v) => !language || normaliseLanguageCode(v.language.code).startsWith(language))
      .sort((a, b) => a.key.localeCompare(b.key));
    for (const voice of voices) {
      const size = Object.values(voice.files).reduce((sum, f) => sum + f.size_bytes, 0);
      const speakers = voice.num_speakers > 1 ? `, ${voice.num_speakers} speakers` : '';
      out(`${voice.key}\t${voice.language.code}\t${voice.quality}${speakers}\t${megabytes(size)}`);
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
    const options: InstallOptions = {
      voicesDir,
      base,
      force: values.force,
      ...(gender && { gender: gender as NonNullable<InstallOptions['gender']> }),
    };
    // A path (a folder or an archive on this machine) rather than a catalogue name.
    const local = /[/\\]|\.(tar\.gz|tgz|tar)$/i.test(name) || existsSync(name);
    const installed = local
      ? await installLocalVoice(name, options)
      : await installVoice(name, options);
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
      out(
        `${voice.folder}\t${languagesOf(m).join(',')}\t${m.sample_rate} Hz\t${m.speakers.length} speaker(s)\t${m.license}`,
      );
    }
    for (const folder of skipped) out(`${folder.folder}\tnot a voice: ${folder.problem}`);
    return 0;
  }
  process.stderr.write(USAGE);
  return 2;
}
