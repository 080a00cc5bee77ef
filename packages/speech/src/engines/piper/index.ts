import { applyGain } from '../../dsp/dsp.js';
import { pitchShift } from '../../dsp/pitch.js';
import { presetFor } from '../../effects.js';
import { SpeechError } from '../../errors.js';
import { estimatedTimings } from '../timings.js';
import type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Segment,
  SpeechEngine,
} from '../types.js';
import { loadNeuralModel } from './engine.js';
import { voiceFingerprint } from './manifest.js';
import {
  listNeuralVoices,
  NEURAL_EFFECTS,
  type NeuralVoice,
  neuralVoiceForLanguage,
  resolveNeuralVoice,
} from './voices.js';

export interface PiperConfig {
  /** The voices directory (one folder per installed voice); none: the engine has no voices. */
  voicesDir?: string | undefined;
}

/** Bump when a change to this engine changes the audio or the marks of an unchanged segment. */
const ENGINE_VERSION = 2;

/** Pitch through signal processing; a VITS model has no control of emphasis. */
const CAPABILITIES: EngineCapabilities = {
  pitch: true,
  emphasis: false,
  rate: true,
  effects: NEURAL_EFFECTS,
  nativeSsml: [],
  wordTimings: false,
  phonemes: false,
  engineName: 'a neural voice',
  maxTextPerCall: 10_000,
};

function engineVoice(voice: NeuralVoice): EngineVoice & { neural: NeuralVoice } {
  return {
    id: voice.id,
    name: voice.name,
    gender: voice.declaredGender,
    language: voice.language,
    languageName: languageName(voice.language),
    capabilities: CAPABILITIES,
    provider: 'piper',
    neural: voice,
  };
}

/** "en-gb" → "British English". */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Piper voices (VITS models) through sherpa-onnx, from the voices directory
 * (docs/neural-voices.md). The model controls its speed (length scale); pitch goes through
 * signal processing and volume through gain; the effects that need espeak-ng's variants
 * (breathing, soft, whispered) are not offered.
 */
export function createPiperEngine(config: PiperConfig = {}): SpeechEngine {
  const { voicesDir } = config;
  const resolve = async (id: string) => {
    const voice = await resolveNeuralVoice(id, voicesDir);
    return voice ? engineVoice(voice) : undefined;
  };
  const neuralOf = async (id: string): Promise<NeuralVoice> => {
    const found = await resolveNeuralVoice(id, voicesDir);
    if (!found) throw new SpeechError('unknown_voice', `Unknown neural voice "${id}".`);
    return found;
  };
  return {
    id: 'neural',
    local: true,
    async voices() {
      return (await listNeuralVoices(voicesDir)).map(engineVoice);
    },
    resolve,
    async voiceForLanguage(language, gender) {
      const voice = await neuralVoiceForLanguage(language, gender, voicesDir);
      return voice ? engineVoice(voice) : undefined;
    },
    async sampleRate(voice) {
      const neural = await neuralOf(voice.id);
      return (await loadNeuralModel(neural.installed, neural.speakerLanguage)).sampleRate;
    },
    async fingerprint(id) {
      // The audio depends on the installed model: a reinstalled voice is not served stale.
      const neural = await neuralOf(id);
      return `piper|${ENGINE_VERSION}|${await voiceFingerprint(neural.installed)}`;
    },
    async render(segment: Segment): Promise<RenderedSegment> {
      const voice = await neuralOf(segment.voice.id);
      const preset = presetFor(segment.effect);
      if (preset.variant || preset.breaths) {
        throw new SpeechError(
          'bad_input',
          `The ${segment.effect} effect needs the standard engine.`,
        );
      }
      const model = await loadNeuralModel(voice.installed, voice.speakerLanguage);
      const speed = Math.min(4, Math.max(0.25, segment.rate * preset.rate));
      const text = segment.parts
        .map((part) => (part.spell ? [...part.text.replace(/\s+/g, '')].join(' ') : part.text))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      let samples = model.generate(text, voice.speaker, speed);
      samples = pitchShift(samples, segment.pitch + preset.pitch, model.sampleRate);
      applyGain(samples, segment.volume + preset.volume);
      // Piper speaks espeak-ng's phonemes: espeak-ng's word and mark times fit it well.
      return {
        samples,
        sampleRate: model.sampleRate,
        ...(await estimatedTimings(segment, text, speed, samples, model.sampleRate)),
        breaths: false,
      };
    },
    async rendersOffThread() {
      return false;
    },
    async close() {},
  };
}
