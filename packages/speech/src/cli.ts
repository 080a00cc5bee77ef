#!/usr/bin/env node
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
import { speechRequestFromSettings } from './product.js';
import { synthesize } from './synthesize.js';
import { listVoices } from './voices.js';

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
  --backend NAME       wasm, native or auto (default: PARLA_SPEECH_BACKEND, else auto)
  --any-rate           allow every format at every rate (skip the product's rate rules)
  --list-voices        print the languages and voices, one voice per line
  -h, --help           show this help
`;

class UsageError extends Error {}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number, not "${value}"`);
  return parsed;
}

async function readInput(file: string | undefined): Promise<string> {
  const bytes = file ? await readFile(file) : await readStdin();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file ?? 'standard input'} is not valid UTF-8 text`);
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function main(argv: string[]): Promise<number> {
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
  if (backend !== undefined && !['wasm', 'native', 'auto'].includes(backend)) {
    throw new UsageError('--backend must be wasm, native or auto');
  }
  const text = await readInput(positionals[0]);
  const request = speechRequestFromSettings(
    {
      engine: values.engine,
      voice_id: values.voice,
      // Not read by the engine: the voice says its language.
      language_code: values.voice.split(/[:+#]/)[1] ?? values.voice,
      text,
      output_format: format,
      sample_rate: number(values.rate, 'rate', defaultSampleRate(values.engine, format)) as 8000,
      effect: effect ?? null,
      master_speed: number(values.speed, 'speed', 0),
      master_volume: number(values.volume, 'volume', 0),
      master_pitch: number(values.pitch, 'pitch', 0),
      voice_effects: [],
    },
    { productRules: !values['any-rate'] },
  );
  const result = await synthesize(request, {
    ...config,
    espeak: { backend: backend ?? backendFromEnvironment() },
  });
  if (values.output) await writeFile(values.output, result.audio);
  else process.stdout.write(result.audio);
  process.stderr.write(
    `${result.duration.toFixed(2)} s, ${result.sampleRate} Hz ${result.format} (${values.voice})\n`,
  );
  return 0;
}

/** PARLA_SPEECH_BACKEND, as the server reads it (apps/server/src/config.ts). */
function backendFromEnvironment(): BackendChoice {
  const value = process.env.PARLA_SPEECH_BACKEND;
  return value === 'wasm' || value === 'native' ? value : 'auto';
}

// `parla-say --list-voices | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const file = process.argv.slice(2).find((a) => !a.startsWith('-')) ?? 'input';
    if (error instanceof SsmlError) {
      process.stderr.write(`parla-say: ${file}:${error.line}:${error.column}: ${error.reason}\n`);
    } else if (error instanceof SpeechError || error instanceof UsageError) {
      process.stderr.write(`parla-say: ${error.message}\n`);
    } else if (
      error instanceof Error &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`parla-say: ${error.message}\n${HELP}`);
    } else {
      process.stderr.write(
        `parla-say: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
