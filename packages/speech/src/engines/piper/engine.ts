import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SpeechError } from '../../errors.js';
import { espeakDataDir } from './espeak-data.js';
import { type InstalledVoice, voiceFingerprint } from './manifest.js';

/**
 * The neural engine: Piper/VITS ONNX voices run by sherpa-onnx-node (ONNX Runtime inside).
 *
 * sherpa-onnx ends the whole process (`exit(-1)`, or an uncaught C++ exception, `abort()`)
 * when a model file is corrupt, lacks Piper's metadata or its tokens.txt is malformed; a
 * worker thread cannot contain that. So each model is first loaded and run once in a child
 * process; only a model that passed there is loaded in this thread. A model that fails gives
 * a SpeechError that names the voice and says what sherpa-onnx reported.
 */

const require = createRequire(import.meta.url);

interface GeneratedAudio {
  samples: Float32Array;
  sampleRate: number;
}

interface OfflineTtsInstance {
  numSpeakers: number;
  sampleRate: number;
  generate(request: { text: string; sid: number; speed: number }): GeneratedAudio;
}

type OfflineTtsClass = new (config: unknown) => OfflineTtsInstance;

export interface NeuralModel {
  voice: InstalledVoice;
  /** The language this instance speaks, for a model of several languages. */
  language: string | undefined;
  sampleRate: number;
  numSpeakers: number;
  /** PCM at `sampleRate`; `speed` 2 is twice as fast (the model's length scale is 1/speed). */
  generate(text: string, speaker: number, speed: number): Float32Array;
}

/** Piper's inference defaults (piper/src/python_run/piper/voice.py). */
const NOISE_SCALE = 0.667;
const NOISE_SCALE_W = 0.8;

/**
 * espeak-ng's names for the languages of Kokoro v1.0's speakers where they differ from the
 * language code (espeak-ng has no voice named "fr-fr" or "en-gb"; a wrong name makes
 * sherpa-onnx crash on the first sentence).
 */
const ESPEAK_VOICE_NAMES: Record<string, string> = { 'en-gb': 'en', 'fr-fr': 'fr' };

function modelConfig(voice: InstalledVoice, dataDir: string, language: string | undefined) {
  // Kokoro (sherpa-onnx's OfflineTtsKokoroModelConfig) or Piper's VITS. A multi-language
  // Kokoro model (v1.0) is run with the phonemes of one language (`lang`) and its lexicons.
  const architecture = voice.voicesPath
    ? {
        kokoro: {
          model: voice.modelPath,
          voices: voice.voicesPath,
          tokens: voice.tokensPath,
          dataDir,
          lengthScale: 1,
          ...(language && { lang: ESPEAK_VOICE_NAMES[language] ?? language }),
          ...(voice.lexiconPaths.length > 0 && { lexicon: voice.lexiconPaths.join(',') }),
        },
      }
    : {
        vits: {
          model: voice.modelPath,
          tokens: voice.tokensPath,
          dataDir,
          lengthScale: 1,
          noiseScale: NOISE_SCALE,
          noiseScaleW: NOISE_SCALE_W,
        },
      };
  return {
    model: {
      ...architecture,
      numThreads: 1,
      provider: 'cpu',
      debug: 0,
    },
    maxNumSentences: 1,
  };
}

/** The module's path, for the probe process. */
function sherpaPath(): string {
  try {
    return require.resolve('sherpa-onnx-node');
  } catch {
    throw new SpeechError(
      'engine_unavailable',
      'The neural engine needs the sherpa-onnx-node package, which is not installed.',
    );
  }
}

const PROBE_SCRIPT = `
const [modulePath, config] = process.argv.slice(-2);
const { OfflineTts } = require(modulePath);
const tts = new OfflineTts(JSON.parse(config));
const audio = tts.generate({ text: 'Test.', sid: 0, speed: 1 });
if (!(audio.samples instanceof Float32Array)) throw new Error('the model gave no audio');
process.stdout.write(JSON.stringify({ sampleRate: tts.sampleRate, numSpeakers: tts.numSpeakers, samples: audio.samples.length }));
`;

interface ProbeResult {
  sampleRate: number;
  numSpeakers: number;
}

/** What sherpa-onnx printed that explains a failure, without its source-file prefixes. */
function explain(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^\S+\.(cc|h|cpp):\w+:\d+\s*/, '').trim())
    .filter((line) => line && !line.startsWith('at ') && !/^node:|^Node\.js v/.test(line));
  const useful =
    lines.find((l) => /what\(\)/.test(l)) ??
    lines.find((l) => /error|fail|not exist|invalid/i.test(l)) ??
    lines.at(-1);
  return (useful ?? 'no message').replace(/^what\(\):\s*/, '').slice(0, 300);
}

function probe(
  voice: InstalledVoice,
  dataDir: string,
  language: string | undefined,
): Promise<ProbeResult> {
  const modulePath = sherpaPath();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', PROBE_SCRIPT, '--', modulePath, JSON.stringify(modelConfig(voice, dataDir, language))],
      { timeout: 60_000, maxBuffer: 1 << 20, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        if (!error) {
          try {
            resolve(JSON.parse(stdout) as ProbeResult);
            return;
          } catch {
            // Fall through to the failure below.
          }
        }
        reject(
          new SpeechError(
            'engine_unavailable',
            `The neural voice "${voice.folder}"${language ? ` (${language})` : ''} cannot be ` +
              `loaded: ${explain(String(stderr))}. ` +
              'Reinstall it (npm run voices -- install) or remove its folder.',
          ),
        );
      },
    );
  });
}

const models = new Map<string, Promise<NeuralModel>>();

/**
 * The loaded model of an installed voice (checked in a child process first, then cached), for
 * one of its languages where its speakers speak several (one instance per language used).
 */
export function loadNeuralModel(voice: InstalledVoice, language?: string): Promise<NeuralModel> {
  return (async () => {
    const key = `${voice.modelPath}|${language ?? ''}|${await voiceFingerprint(voice)}`;
    let found = models.get(key);
    if (!found) {
      found = load(voice, language);
      // A failure is not remembered: an operator may fix the folder without a restart.
      found.catch(() => models.delete(key));
      models.set(key, found);
    }
    return found;
  })();
}

/** The languages a voice's model is run in: its speakers' own, or none (the model's). */
export function speakerLanguages(voice: InstalledVoice): (string | undefined)[] {
  const own = new Set(voice.manifest.speakers.map((speaker) => speaker.language));
  return [...own];
}

/**
 * Loads and runs a voice's model once in a child process (once per language of its speakers),
 * and checks it against its manifest; throws a SpeechError saying what is wrong. Answers the
 * phoneme-data directory.
 */
export async function checkNeuralVoice(
  voice: InstalledVoice,
  languages: (string | undefined)[] = speakerLanguages(voice),
): Promise<string> {
  // The phoneme data is cached beside the voices (VOICES_DIR/.cache).
  const dataDir = await espeakDataDir(join(dirname(voice.directory), '.cache'));
  // One language at a time: each probe loads the whole model.
  let probed: ProbeResult | undefined;
  for (const language of languages) probed = await probe(voice, dataDir, language);
  if (!probed) throw new Error('a voice has at least one speaker');
  if (probed.sampleRate !== voice.manifest.sample_rate) {
    throw new SpeechError(
      'engine_unavailable',
      `The neural voice "${voice.folder}" says ${voice.manifest.sample_rate} Hz but its model ` +
        `runs at ${probed.sampleRate} Hz; fix ${voice.folder}/parla-voice.json.`,
    );
  }
  const highest = Math.max(...voice.manifest.speakers.map((s) => s.id));
  if (highest >= Math.max(1, probed.numSpeakers)) {
    throw new SpeechError(
      'engine_unavailable',
      `The neural voice "${voice.folder}" lists speaker ${highest} but its model has ` +
        `${probed.numSpeakers}; fix ${voice.folder}/parla-voice.json.`,
    );
  }
  return dataDir;
}

/**
 * What a lexicon can say of a text: sherpa-onnx speaks Chinese characters (and, for Japanese,
 * kana) only through a lexicon, and crashes the process when a text gives it no sound at all.
 * So characters no lexicon lists are left out before the text reaches it.
 */
async function lexiconFilter(
  voice: InstalledVoice,
  language: string | undefined,
): Promise<((text: string) => string) | undefined> {
  if (language === undefined) return undefined;
  const known = new Set<string>();
  for (const path of voice.lexiconPaths) {
    for (const line of (await readFile(path, 'utf8')).split('\n')) {
      const word = line.split(/\s/, 1)[0];
      if (word && [...word].length === 1) known.add(word);
    }
  }
  const script = language === 'ja' ? /[\u3005\u3040-\u30ff\u4e00-\u9fff]/gu : /[\u4e00-\u9fff]/gu;
  return (text) => text.replace(script, (char) => (known.has(char) ? char : ' '));
}

async function load(voice: InstalledVoice, language: string | undefined): Promise<NeuralModel> {
  const dataDir = await checkNeuralVoice(voice, [language]);
  const filter = await lexiconFilter(voice, language);
  const { OfflineTts } = require(sherpaPath()) as { OfflineTts: OfflineTtsClass };
  const tts = new OfflineTts(modelConfig(voice, dataDir, language));
  return {
    voice,
    language,
    sampleRate: tts.sampleRate,
    numSpeakers: tts.numSpeakers,
    generate(raw, speaker, speed) {
      const text = filter ? filter(raw) : raw;
      if (!text.trim()) return new Float32Array(0);
      if (!Number.isInteger(speaker) || speaker < 0 || speaker >= Math.max(1, tts.numSpeakers)) {
        // ONNX Runtime would abort the process on an out-of-range speaker embedding.
        throw new SpeechError(
          'engine_unavailable',
          `The neural voice "${voice.folder}" has no speaker ${speaker} (it has ${tts.numSpeakers}).`,
        );
      }
      const audio = tts.generate({ text, sid: speaker, speed });
      // A copy in this thread's memory: the addon's buffer is external.
      return new Float32Array(audio.samples);
    },
  };
}
