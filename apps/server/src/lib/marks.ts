import { text } from 'node:stream/consumers';
import { type SpeechMark, SpeechMarksSchema } from '@parla/contract';
import { type Mark, speechMarksOf } from '@parla/speech';
import type { ObjectStorage } from './storage/storage.js';

/**
 * Speech marks of a rendering (docs/decisions/019-speech-marks.md): stored as JSON next to the
 * audio, under the audio's key plus `.marks.json`, so they live and die with it; subtitles are
 * made from them when asked for (http/timing-routes.ts).
 */
export const marksKey = (audioKey: string) => `${audioKey}.marks.json`;

/**
 * Stores the marks of a rendering of `text` (as the user typed it) beside its audio; answers
 * them. `marksOf`: speechMarksOf(text), when the caller has it already.
 */
export async function storeMarks(
  storage: ObjectStorage,
  audioKey: string,
  text: string,
  marks: readonly Mark[],
  marksOf = speechMarksOf(text),
): Promise<SpeechMark[]> {
  const stored = marksOf(marks);
  const json = JSON.stringify(stored);
  await storage.put(marksKey(audioKey), new TextEncoder().encode(json), 'application/json');
  return stored;
}

/** The stored marks beside the audio under `audioKey`, or undefined. */
export async function readMarks(
  storage: ObjectStorage,
  audioKey: string,
): Promise<SpeechMark[] | undefined> {
  const stream = await storage.read(marksKey(audioKey));
  return stream ? SpeechMarksSchema.parse(JSON.parse(await text(stream))) : undefined;
}
