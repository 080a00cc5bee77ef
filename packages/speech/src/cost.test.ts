import { describe, expect, it } from 'vitest';
import { decodeMp3, rmsDb } from '../test/audio.js';
import { request } from '../test/request.js';
import { toneVoice } from '../test/tone-voice.js';
import { nativeAvailable } from './engines/espeak/backends.js';
import type { SpeechEngine } from './engines/types.js';
import { SpeechError } from './errors.js';
import { planSentences, sentenceText } from './plan.js';
import { parseSsml } from './ssml/parser.js';
import { synthesize } from './synthesize.js';

/**
 * Issue 28, item 1: what a text may cost is bounded for every script. A letter of a script the
 * voice does not read is named ("Chinese letter"), a CJK character is a syllable; the estimate
 * says so before rendering, and the bound holds while rendering too.
 */

const backends = ['wasm', ...((await nativeAvailable()) ? ['native' as const] : [])] as const;

const CJK = '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳';
const cjk = (length: number) => CJK.repeat(Math.ceil(length / CJK.length)).slice(0, length);

/** A free visitor's request: mp3 at 24 kHz. */
const free = (text: string, overrides: Parameters<typeof request>[0] = {}) =>
  request({ text, output_format: 'mp3', sample_rate: 24000, ...overrides });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.each(backends)('cost bounded for every script (%s backend)', (backend) => {
  const options = { espeak: { backend } };

  it('refuses 1,000 CJK characters at speed -100 on an English voice before rendering (it made 567 s)', async () => {
    const error = await refusal(synthesize(free(cjk(1000), { master_speed: -100 }), options));
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: 'limit_exceeded', spent: false });
    expect((error as Error).message).toMatch(
      /^This text would make about \d+ s of audio .*; a text of 1000 characters may make at most 150 s\./,
    );
  });

  it.each([
    ['Ethiopic letters', 'ሀሁሂሃሄህሆ'],
    ['cuneiform', '𒀀𒀁𒀂𒀃𒀄'],
    ['fullwidth forms', 'ＡＢＣＤＥ'],
  ])('refuses 1,000 characters of %s on an English voice', async (_name, unit) => {
    const text = unit.repeat(1000 / [...unit].length).slice(0, 2000);
    const error = await refusal(synthesize(free(text), options));
    expect(error).toMatchObject({ code: 'limit_exceeded' });
  });

  it('says Chinese on a Chinese voice within its bound, the run cut at CJK commas and full stops', async () => {
    const text = `${cjk(15)}，${cjk(15)}。${cjk(15)}、${cjk(15)}！`;
    const result = await synthesize(free(text, { voice_id: 'standard:cmn' }), options);
    const { samples, sampleRate } = await decodeMp3(result.audio);
    const seconds = samples.length / sampleRate;
    expect(rmsDb(samples)).toBeGreaterThan(-40);
    // About 0.36 s a syllable: 60 syllables, within the 60 s a short text may make.
    expect(seconds).toBeGreaterThan(10);
    expect(seconds).toBeLessThan(60);
  });
});

describe('a run of CJK without sentence breaks', () => {
  it('is cut at CJK full stops, then commas, then at 100 characters', () => {
    const stops = planSentences(parseSsml(`${cjk(40)}。${cjk(40)}！${cjk(40)}？${cjk(10)}`));
    expect(stops.map((s) => sentenceText(s).length)).toEqual([41, 41, 41, 10]);
    const commas = planSentences(parseSsml(`${cjk(80)}，${cjk(80)}、${cjk(80)}`));
    expect(commas.map((s) => sentenceText(s).length)).toEqual([81, 81, 80]);
    const unbroken = planSentences(parseSsml(cjk(1000)));
    expect(unbroken.map((s) => sentenceText(s).length)).toEqual(Array(10).fill(100));
  });
});

describe('the bound while rendering', () => {
  const voice = toneVoice('slow:tone', 'Slow tone');
  let rendered = 0;
  // An engine that says far more than any estimate: two seconds of tone a character.
  const slow: SpeechEngine = {
    id: 'slow',
    local: true,
    voices: async () => [voice],
    resolve: async (id) => (id === voice.id ? voice : undefined),
    voiceForLanguage: async () => undefined,
    sampleRate: async () => 8000,
    fingerprint: async () => 'slow|1',
    rendersOffThread: async () => false,
    async render(segment) {
      rendered += 1;
      const characters = segment.parts.reduce((sum, part) => sum + part.text.trim().length, 0);
      const samples = new Float32Array(characters * 2 * 8000);
      for (let i = 0; i < samples.length; i++) samples[i] = 0.3 * Math.sin(i / 3);
      return { samples, sampleRate: 8000, words: [], breaths: false };
    },
    close: async () => {},
  };

  it('stops the rendering once the audio passes what the text may make, the work spent', async () => {
    // 40 sentences of 20 letters: estimated at about 1.3 s each (53 s), said in 40 s each.
    const text = 'Abcdefghij klmnopqrs. '.repeat(40);
    rendered = 0;
    const error = await refusal(
      synthesize({ ...request({ text }), voice: voice.id }, { engines: [slow] }),
    );
    expect(error).toMatchObject({ code: 'limit_exceeded', spent: true });
    expect((error as Error).message, String(error)).toMatch(
      /^This text makes more audio than its length allows: \d+ s from \d+ % of it, and a text of 879 characters may make at most 132 s/,
    );
    // Stopped after a few sentences, not after forty.
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(5);
  });
});
