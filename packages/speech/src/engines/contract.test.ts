import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, difference, innerSilences, rmsDb } from '../../test/audio.js';
import { expectMarksOfText } from '../../test/marks-check.js';
import {
  type FakeAzure,
  type FakeOpenAi,
  type FakePolly,
  startFakeAzure,
  startFakeOpenAi,
  startFakePolly,
} from '../../test/providers/index.js';
import { makeTestKokoroVoice, makeTestVoice } from '../../test/test-voice.js';
import { SpeechError, SsmlError } from '../errors.js';
import { speechMarks, subtitles } from '../marks.js';
import { synthesize } from '../synthesize.js';
import { nativeAvailable } from './espeak/backends.js';
import { engineRegistry, type SpeechConfig } from './registry.js';

/**
 * The contract every engine keeps (docs/decisions/007-speech-engine-interface.md), run on
 * each engine and backend: espeak-ng's WebAssembly build, its native program where it is
 * installed, Piper with the generated test voice, and each cloud provider's engine against a
 * local server speaking its API. A new engine adds one case here.
 */

let voicesDir: string;
let polly: FakePolly;
let azure: FakeAzure;
let openai: FakeOpenAi;
beforeAll(async () => {
  voicesDir = await mkdtemp(join(tmpdir(), 'parla-contract-'));
  await makeTestVoice(join(voicesDir, 'test'), { name: 'Test' });
  await makeTestKokoroVoice(join(voicesDir, 'kokoro'));
  [polly, azure, openai] = await Promise.all([
    startFakePolly(),
    startFakeAzure(),
    startFakeOpenAi(),
  ]);
});
afterAll(async () => {
  await rm(voicesDir, { recursive: true, force: true });
  await Promise.all([polly.close(), azure.close(), openai.close()]);
});

interface Case {
  name: string;
  /** The engine's id in the registry. */
  engine: string;
  voice: string;
  /** False for an engine that offers no effects (Polly's neural voices, OpenAI's endpoint). */
  effects?: false;
  config: () => SpeechConfig;
}

const CASES: Case[] = [
  {
    name: 'espeak-ng (WebAssembly)',
    engine: 'standard',
    voice: 'standard:en-us',
    config: () => ({ espeak: { backend: 'wasm' } }),
  },
  ...((await nativeAvailable())
    ? [
        {
          name: 'espeak-ng (native)',
          engine: 'standard',
          voice: 'standard:en-us',
          config: (): SpeechConfig => ({ espeak: { backend: 'native' } }),
        },
      ]
    : []),
  {
    name: 'piper (test voice)',
    engine: 'neural',
    voice: 'neural:test',
    config: () => ({ piper: { voicesDir } }),
  },
  {
    name: 'Kokoro (test voice)',
    engine: 'neural',
    voice: 'neural:kokoro#1',
    config: () => ({ piper: { voicesDir } }),
  },
  // Cloud voices, each against a local server that speaks its provider's API.
  {
    name: 'Amazon Polly (standard)',
    engine: 'standard:polly',
    voice: 'standard:polly:Joanna',
    config: () => ({
      polly: { region: polly.region, endpoint: polly.url, credentials: polly.credentials },
    }),
  },
  {
    name: 'Amazon Polly (neural)',
    engine: 'neural:polly',
    voice: 'neural:polly:Joanna',
    effects: false,
    config: () => ({
      polly: { region: polly.region, endpoint: polly.url, credentials: polly.credentials },
    }),
  },
  {
    name: 'Azure Speech',
    engine: 'neural:azure',
    voice: 'neural:azure:en-US-JennyNeural',
    config: () => ({ azure: { key: azure.key, region: 'westeurope', endpoint: azure.url } }),
  },
  {
    name: 'OpenAI-compatible',
    engine: 'neural:openai',
    voice: 'neural:openai:nova',
    effects: false,
    config: () => ({ openai: { url: openai.url, key: openai.key } }),
  },
];

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

describe.each(CASES)('the engine contract: $name', { timeout: 60_000 }, (c) => {
  const engine = () => engineRegistry(c.config()).get(c.engine);
  const say = async (text: string, change: { volume?: number; effect?: string } = {}) =>
    synthesize(
      {
        voice: c.voice,
        text,
        format: 'wav',
        sampleRate: 16000,
        ...(change.volume !== undefined && { volume: change.volume }),
        ...(change.effect !== undefined && { effect: change.effect as 'calm' }),
      },
      c.config(),
    );

  it('lists its voices with their capabilities', async () => {
    const voices = await engine().voices();
    expect(voices.length).toBeGreaterThan(0);
    for (const voice of voices) {
      expect(voice.id.startsWith(`${c.engine}:`)).toBe(true);
      expect(voice.name).not.toMatch(/^\w+:/);
      expect(['male', 'female', 'neutral']).toContain(voice.gender);
      expect(voice.capabilities.maxTextPerCall).toBeGreaterThan(0);
      expect(typeof voice.capabilities.wordTimings).toBe('boolean');
    }
    expect(await engine().resolve(c.voice)).toMatchObject({ id: c.voice });
    expect(await engine().fingerprint(c.voice)).toMatch(/\|/);
  });

  it('makes a break a silence of its length (±15 %)', async () => {
    const { samples, sampleRate } = decodeWav(
      (await say('Hello there. <break time="1200ms"/> General Kenobi.')).audio,
    );
    const longest = Math.max(...innerSilences(samples, sampleRate));
    expect(longest).toBeGreaterThan(1.2 * 0.85);
    expect(longest).toBeLessThan(1.2 * 1.15);
  });

  it('changes the RMS level by the volume in dB', async () => {
    const base = rmsDb(decodeWav((await say(SENTENCE)).audio).samples);
    const quieter = rmsDb(decodeWav((await say(SENTENCE, { volume: -10 })).audio).samples);
    expect(quieter - base).toBeCloseTo(-10, 0);
  });

  it('changes the audio with every effect it lists', async () => {
    const voice = await engine().resolve(c.voice);
    const effects = voice?.capabilities.effects ?? [];
    if (c.effects === false) expect(effects).toEqual([]);
    else expect(effects.length).toBeGreaterThan(0);
    const plain = decodeWav((await say('Good morning.')).audio).samples;
    for (const effect of effects) {
      const changed = decodeWav((await say('Good morning.', { effect })).audio).samples;
      // Well above the difference of re-rendering the same input (which is 0).
      expect(difference(plain, changed), effect).toBeGreaterThan(0.005);
    }
  });

  it('reports word and sentence marks in order, within the audio', async () => {
    const result = await say('First sentence here. Second one follows.');
    const words = result.marks.filter((m) => m.type === 'word');
    const voice = await engine().resolve(c.voice);
    // An engine without word timings may still spread words over the sound (Piper does).
    if (voice?.capabilities.wordTimings) expect(words.length).toBeGreaterThanOrEqual(4);
    expect(result.marks.filter((m) => m.type === 'sentence')).toHaveLength(2);
    for (const [i, mark] of result.marks.entries()) {
      expect(mark.start).toBeGreaterThanOrEqual(0);
      expect(mark.end).toBeGreaterThanOrEqual(mark.start);
      expect(mark.end).toBeLessThanOrEqual(result.duration + 1e-6);
      const previous = words[words.indexOf(mark) - 1];
      if (mark.type === 'word' && previous)
        expect(mark.start).toBeGreaterThanOrEqual(previous.start);
      if (i > 0 && mark.type === 'sentence') {
        expect(mark.start).toBeGreaterThanOrEqual(result.marks[i - 1]?.start ?? 0);
      }
    }
  });

  it('marks each sentence and each word, and subtitles say the text as typed (issue 27)', async () => {
    // Six sentences, one longer than a subtitle cue holds, and the short words ("a", "the")
    // that espeak-ng says with their neighbours.
    const sentences = [
      'It was a cold morning in the valley.',
      'The farmer walked to the barn and opened the door.',
      'Inside, the cows had been waiting for a while, the dog was asleep by the stove, and nobody had lit the lamp yet.',
      'He fed them hay, then he sat down.',
      'Nobody knew what the day would bring!',
      'Was it going to rain again?',
    ];
    const text = sentences.join(' ');
    const result = await say(text);
    const marks = speechMarks(text, result.marks);
    expect(result.marks.filter((m) => m.type === 'sentence')).toHaveLength(sentences.length);
    expectMarksOfText(
      text,
      sentences,
      marks,
      subtitles(marks, result.duration, 'vtt'),
      result.duration,
    );
    // The marks are those of this audio: the file holds every sample the result counts.
    const { samples, sampleRate } = decodeWav(result.audio);
    expect(samples.length / sampleRate).toBeCloseTo(result.duration, 2);
  });

  it('fails with coded errors', async () => {
    const unknown = `${c.engine}:xx-nowhere`;
    await expect(
      synthesize({ voice: unknown, text: 'Hi.', format: 'wav', sampleRate: 16000 }, c.config()),
    ).rejects.toMatchObject({ code: 'unknown_voice' });
    const voice = await engine().resolve(c.voice);
    if (!voice) throw new Error('no voice');
    await expect(
      engine().render({
        voice: { ...voice, id: unknown },
        parts: [{ text: 'Hi.' }],
        rate: 1,
        pitch: 0,
        volume: 0,
        effect: undefined,
      }),
    ).rejects.toMatchObject({ code: 'unknown_voice' });
    const ssml = await say('<speak><prosody rate="fast">x</speak>').catch((e: unknown) => e);
    expect(ssml).toBeInstanceOf(SsmlError);
    expect(ssml).toMatchObject({ code: 'bad_input', line: 1 });
    const bad = await say('Hi.', { volume: 99 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SpeechError);
    expect(bad).toMatchObject({ code: 'bad_input' });
  });
});
