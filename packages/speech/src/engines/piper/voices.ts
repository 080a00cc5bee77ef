import { STANDARD_ONLY_EFFECTS, VOICE_EFFECTS, type VoiceEffect } from '@parla/contract';
import {
  FOLDER_PATTERN,
  type InstalledVoice,
  type ManifestSpeaker,
  normaliseLanguageCode,
  readInstalledVoice,
  scanVoices,
} from './manifest.js';

/**
 * Neural voices are what VOICES_DIR holds: each speaker of each installed model is one voice.
 * Ids read `neural:<folder>` for a single-speaker model and `neural:<folder>#<sid>` for a
 * speaker of a multi-speaker one.
 */

export interface NeuralVoice {
  engine: 'neural';
  id: string;
  name: string;
  language: string;
  /** For a `<voice language>` switch, which matches by gender. */
  gender: 'male' | 'female';
  /** As the manifest says (Piper's catalogue has no gender: `neutral` unless told). */
  declaredGender: ManifestSpeaker['gender'];
  installed: InstalledVoice;
  /** The model's speaker id. */
  speaker: number;
  /** The speaker's own language where the model speaks several (it is run in it). */
  speakerLanguage: string | undefined;
}

/**
 * The speaking styles are prosody presets (rate through the model's length scale, pitch
 * through signal processing, volume), so each of them changes a neural voice's audio; the
 * standard-only effects (breathing, soft, whispered) need espeak-ng's voice variants.
 */
export const NEURAL_EFFECTS: readonly VoiceEffect[] = VOICE_EFFECTS.filter(
  (effect) => !(STANDARD_ONLY_EFFECTS as readonly string[]).includes(effect),
);

function voicesOf(installed: InstalledVoice): NeuralVoice[] {
  const single = installed.manifest.speakers.length === 1;
  return installed.manifest.speakers.map((speaker) => ({
    engine: 'neural',
    id: single ? `neural:${installed.folder}` : `neural:${installed.folder}#${speaker.id}`,
    name:
      single || speaker.name === installed.manifest.name
        ? installed.manifest.name
        : `${installed.manifest.name} (${speaker.name})`,
    language: speaker.language ?? installed.manifest.language,
    // The catalogue's genders are male and female; a neutral voice is offered with female
    // voices for a `<voice language>` switch.
    gender: speaker.gender === 'male' ? 'male' : 'female',
    declaredGender: speaker.gender,
    installed,
    speaker: speaker.id,
    speakerLanguage: speaker.language,
  }));
}

/** A grade as a number: F- is 1, F 2, F+ 3 … A 17, A+ 18; no grade 0. */
function gradeValue(grade: string | undefined): number {
  const match = grade && /^([A-F])([+-]?)$/.exec(grade);
  if (!match?.[1]) return 0;
  return 'FEDCBA'.indexOf(match[1]) * 3 + (match[2] === '+' ? 3 : match[2] === '-' ? 1 : 2);
}

/** Piper's catalogue qualities, best last (its key ends with one: en_US-amy-medium). */
const PIPER_QUALITIES = ['x_low', 'low', 'medium', 'high'];

/**
 * How good a voice is expected to sound, to list the best first (issue 29: the default voice of
 * a language is its best natural one): the model's own grade of the speaker, then Kokoro before
 * Piper, then Piper's quality.
 */
function rank(voice: NeuralVoice): number[] {
  const speaker = voice.installed.manifest.speakers.find((s) => s.id === voice.speaker);
  const key = voice.installed.manifest.source?.key ?? voice.installed.folder;
  const quality = PIPER_QUALITIES.indexOf(key.split('-').at(-1) ?? '');
  return [
    gradeValue(speaker?.grade),
    voice.installed.manifest.architecture === 'kokoro' ? 1 : 0,
    quality,
  ];
}

/** Every installed voice, the best expected first (stable: the folders' order otherwise). */
export async function listNeuralVoices(voicesDir: string | undefined): Promise<NeuralVoice[]> {
  const { voices } = await scanVoices(voicesDir);
  const ranked = voices.flatMap(voicesOf).map((voice) => ({ voice, rank: rank(voice) }));
  ranked.sort((a, b) => {
    for (let i = 0; i < a.rank.length; i++) {
      const difference = (b.rank[i] ?? 0) - (a.rank[i] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  });
  return ranked.map((entry) => entry.voice);
}

export async function resolveNeuralVoice(
  id: string,
  voicesDir: string | undefined,
): Promise<NeuralVoice | undefined> {
  const match = /^neural:([^#]+)(?:#(\d+))?$/.exec(id);
  if (!match?.[1] || !voicesDir || !FOLDER_PATTERN.test(match[1])) return undefined;
  const installed = await readInstalledVoice(voicesDir, match[1]);
  if ('problem' in installed) return undefined;
  const voices = voicesOf(installed);
  if (match[2] === undefined) return voices.length === 1 ? voices[0] : undefined;
  if (voices.length === 1) return undefined;
  return voices.find((v) => v.speaker === Number(match[2]));
}

/** A neural voice of a language (exact code first, then the same base language). */
export async function neuralVoiceForLanguage(
  language: string,
  gender: 'male' | 'female',
  voicesDir: string | undefined,
): Promise<NeuralVoice | undefined> {
  const voices = await listNeuralVoices(voicesDir);
  const code = normaliseLanguageCode(language);
  const base = code.split('-')[0];
  const exact = voices.filter((v) => v.language === code);
  const near = exact.length > 0 ? exact : voices.filter((v) => v.language.split('-')[0] === base);
  return near.find((v) => v.gender === gender) ?? near[0];
}
