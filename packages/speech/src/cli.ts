/**
 * `parla-say`: speaks a text or SSML file with the library, one request per process (see
 * README.md); bin/parla-say.js calls `main`. Only the modules a run needs are loaded, when it
 * needs them: `--help` and a usage mistake load none of the synthesis code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  AUDIO_FORMATS,
  type AudioFormat,
  defaultSampleRate,
  VOICE_EFFECTS,
  type VoiceEffect,
} from '@parla/contract';
import type { BackendChoice } from './engines/espeak/backends.js';
import { SpeechError, SsmlError } from './errors.js';
import { formatWarning } from './warnings.js';

const HELP = `Usage: parla-say [options] [FILE]

Speaks FILE (or standard input): plain text or SSML (see docs/ssml.md).

  -o, --output FILE    write the audio to FILE (default: standard output)
  --voice ID           voice id (default standard:en-us); see --list-voices
  --engine NAME        standard, or neural with the voices installed in VOICES_DIR
  --format FORMAT      wav, mp3 or ogg (default: from the output name, else wav)
  --rate HZ            sample rate (default: the product default for engine and format)
  --speed PERCENT      -100..100 (default 0)
  --volume DB          -20..20 (default 0)
  --pitch PERCENT      -100..100 (default 0)
  --effect NAME        one of ${VOICE_EFFECTS.join(', ')}
  --backend NAME       wasm, native, program or auto (default: PARLA_SPEECH_BACKEND, else auto)
  --any-rate           allow every format at every rate (skip the product's rate rules)
  --list-voices        print the languages and voices, one voice per line
  -h, --help           show this help
`;

/** How errors name standard input, as compilers do. */
const STDIN = '<stdin>';

class UsageError extends Error {}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number, not "${value}"`);
  return parsed;
}

async function readInput(file: string | undefined): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = file ? await readFile(file) : await readStdin();
  } catch (error) {
    throw new UsageError(`cannot read ${file ?? STDIN}: ${systemReason(error)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file ?? STDIN} is not valid UTF-8 text`);
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** "no such file or directory" rather than "ENOENT: no such file or directory, open 'x'". */
function systemReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^E[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/**
 * The longest text rendered in this process (characters). Past it, rendering in the launcher
 * while this process encodes the group before saves more than the launcher's start costs
 * (about 0.1 s, some 1,500 characters of espeak-ng's rendering: docs/decisions/057).
 */
const RENDERED_HERE = 2000;

async function speak(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      voice: { type: 'string', default: 'standard:en-us' },
      engine: { type: 'string', default: 'standard' },
      format: { type: 'string' },
      rate: { type: 'string' },
      speed: { type: 'string' },
      volume: { type: 'string' },
      pitch: { type: 'string' },
      effect: { type: 'string' },
      backend: { type: 'string' },
      'any-rate': { type: 'boolean', default: false },
      'list-voices': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  // A program reads its environment; the library is given the configuration.
  const config = { piper: { voicesDir: process.env.VOICES_DIR || undefined } };
  if (values['list-voices']) {
    const { listVoices } = await import('./voices.js');
    for (const language of await listVoices(config)) {
      for (const voice of language.voices) {
        process.stdout.write(
          `${voice.id}\t${language.language_name}\t${voice.name}\t${voice.gender}\n`,
        );
      }
    }
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('give at most one input file');
  const input = positionals[0];
  const extension = values.output?.split('.').at(-1)?.toLowerCase();
  const format = (values.format ??
    (AUDIO_FORMATS as readonly string[]).find((f) => f === extension) ??
    'wav') as AudioFormat;
  if (!(AUDIO_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${AUDIO_FORMATS.join(', ')}`);
  }
  if (values.engine !== 'standard' && values.engine !== 'neural') {
    throw new UsageError('--engine must be standard or neural');
  }
  const effect = values.effect as VoiceEffect | undefined;
  if (effect !== undefined && !(VOICE_EFFECTS as readonly string[]).includes(effect)) {
    throw new UsageError(`--effect must be one of ${VOICE_EFFECTS.join(', ')}`);
  }
  const backend = values.backend as BackendChoice | undefined;
  if (backend !== undefined && !['wasm', 'native', 'program', 'auto'].includes(backend)) {
    throw new UsageError('--backend must be wasm, native, program or auto');
  }
  const sampleRate = number(values.rate, 'rate', defaultSampleRate(values.engine, format));
  const speed = number(values.speed, 'speed', 0);
  const volume = number(values.volume, 'volume', 0);
  const pitch = number(values.pitch, 'pitch', 0);
  const text = await readInput(input);
  const [{ synthesize }, { checkSettings, speechRequestFromSettings }] = await Promise.all([
    import('./synthesize.js'),
    import('./product.js'),
  ]);
  // The product's rules, as the server applies them (--any-rate waives the sample-rate ones).
  const request = speechRequestFromSettings(
    checkSettings(
      {
        engine: values.engine,
        voice_id: values.voice,
        // Not read by the engine: the voice says its language.
        language_code: values.voice.split(/[:+#]/)[1] ?? values.voice,
        text,
        output_format: format,
        sample_rate: sampleRate as 8000,
        effect: effect ?? null,
        master_speed: speed,
        master_volume: volume,
        master_pitch: pitch,
        voice_effects: [],
      },
      { productRules: !values['any-rate'] },
    ),
  );
  let result: Awaited<ReturnType<typeof synthesize>>;
  try {
    result = await synthesize(request, {
      ...config,
      // One request from a small process, and no word times (only the audio is written), so
      // the WebAssembly build is not loaded beside it. A short text renders in this process
      // (libespeak-ng opened here, or the program started from here): no second process to
      // start. A long one renders in the launcher process while this one encodes.
      espeak: {
        backend: backend ?? backendFromEnvironment(),
        spawn: text.length <= RENDERED_HERE ? 'direct' : 'launcher',
        wordTimings: false,
      },
    });
  } catch (error) {
    // A position in the SSML is a position in the input: name it as compilers do.
    if (error instanceof SsmlError) {
      throw new SpeechError(
        'bad_input',
        `${input ?? STDIN}:${error.line}:${error.column}: ${error.reason}`,
      );
    }
    throw error;
  }
  if (values.output) {
    try {
      await writeFile(values.output, result.audio);
    } catch (error) {
      throw new UsageError(`cannot write ${values.output}: ${systemReason(error)}`);
    }
  } else {
    process.stdout.write(result.audio);
  }
  // What the voice could not do as asked (a phoneme it reads as text, say) is said, not hidden.
  for (const warning of result.warnings) {
    process.stderr.write(`parla-say: warning: ${formatWarning(warning)}\n`);
  }
  process.stderr.write(
    `${result.duration.toFixed(2)} s, ${result.sampleRate} Hz ${result.format} (${values.voice})\n`,
  );
  return 0;
}

/** PARLA_SPEECH_BACKEND, as the server reads it (apps/server/src/config.ts). */
function backendFromEnvironment(): BackendChoice {
  const value = process.env.PARLA_SPEECH_BACKEND;
  return value === 'wasm' || value === 'native' || value === 'program' ? value : 'auto';
}

/**
 * Runs `parla-say` with the given arguments; answers the exit status: 0, 1 when speech failed,
 * 2 for a usage mistake. Errors are printed, prefixed `parla-say:`, never thrown.
 */
export async function main(argv: string[]): Promise<number> {
  // `parla-say --list-voices | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  try {
    return await speak(argv);
  } catch (error) {
    const parseError =
      error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`parla-say: ${message}\n${parseError ? HELP : ''}`);
    return error instanceof UsageError || parseError ? 2 : 1;
  }
}
