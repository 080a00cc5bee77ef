import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, decodeWav, innerSilences, medianF0, rmsDb } from '../../../test/audio.js';
import { request } from '../../../test/request.js';
import {
  makeTestVoice,
  TEST_VOICE_BASE_HZ,
  TEST_VOICE_SPEAKER_STEP_HZ,
  testVoiceModel,
} from '../../../test/test-voice.js';
import { SpeechError } from '../../errors.js';
import { SpeechPool } from '../../pool/pool.js';
import { synthesize, synthesizeStream } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import { NEURAL_EFFECTS } from './voices.js';

let voicesDir: string;

beforeAll(async () => {
  voicesDir = await mkdtemp(join(tmpdir(), 'parla-voices-'));
  await makeTestVoice(join(voicesDir, 'duo'), { speakers: 2, name: 'Duo' });
  await makeTestVoice(join(voicesDir, 'solo'), {
    sampleRate: 16000,
    name: 'Solo',
    language: 'de_DE',
  });
});

afterAll(async () => {
  await rm(voicesDir, { recursive: true, force: true });
});

const neural = (overrides: Parameters<typeof request>[0]) =>
  request({ engine: 'neural', voice_id: 'neural:duo#0', language_code: 'en-us', ...overrides });

const say = (overrides: Parameters<typeof request>[0]) =>
  synthesize(neural(overrides), { piper: { voicesDir } });

async function seconds(overrides: Parameters<typeof request>[0]): Promise<number> {
  const result = await say(overrides);
  const { samples, sampleRate } = decodeWav(result.audio);
  return samples.length / sampleRate;
}

describe('the voices directory', () => {
  it('lists each speaker of each installed model as a neural voice, and nothing else', async () => {
    const languages = await listVoices({ piper: { voicesDir } });
    const neuralVoices = languages.flatMap((l) =>
      l.voices
        .filter((v) => v.engine === 'neural')
        .map((v) => ({ ...v, language: l.language_code })),
    );
    expect(neuralVoices.map((v) => [v.id, v.name, v.language])).toEqual([
      ['neural:duo#0', 'Duo (Speaker 1)', 'en-us'],
      ['neural:duo#1', 'Duo (Speaker 2)', 'en-us'],
      ['neural:solo', 'Solo', 'de-de'],
    ]);
    const duo = neuralVoices.find((v) => v.id === 'neural:duo#0');
    expect(duo?.effects).not.toContain('whispered');
    expect(duo?.effects).toContain('happy');
    // The standard voices are still there.
    const english = languages.find((l) => l.language_code === 'en-us');
    expect(english?.voices.some((v) => v.engine === 'standard')).toBe(true);
  });

  it('has no neural voices without a directory, or with an empty one', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'parla-voices-empty-'));
    try {
      for (const dir of [undefined, empty, join(empty, 'missing')]) {
        const languages = await listVoices({ piper: { voicesDir: dir } });
        expect(languages.flatMap((l) => l.voices).some((v) => v.engine === 'neural')).toBe(false);
      }
      await expect(synthesize(neural({}), { piper: { voicesDir: empty } })).rejects.toThrow(
        'The neural engine has no voices installed; choose another engine.',
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('skips a folder without a valid manifest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parla-voices-bad-'));
    try {
      await cp(join(voicesDir, 'solo'), join(dir, 'broken'), { recursive: true });
      await writeFile(join(dir, 'broken', 'parla-voice.json'), '{"format": 1}');
      const languages = await listVoices({ piper: { voicesDir: dir } });
      expect(languages.flatMap((l) => l.voices).some((v) => v.engine === 'neural')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('synthesis with a neural voice', () => {
  it('renders each speaker with its own voice', async () => {
    const f0 = async (voice_id: string) => {
      const { samples, sampleRate } = decodeWav(
        (await say({ voice_id, text: 'Hello there.' })).audio,
      );
      return medianF0(samples, sampleRate);
    };
    const first = await f0('neural:duo#0');
    const second = await f0('neural:duo#1');
    expect(first).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
    expect(second).toBeCloseTo(TEST_VOICE_BASE_HZ + TEST_VOICE_SPEAKER_STEP_HZ, -1);
  });

  it('changes duration with speed, through the model', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const normal = await seconds({ text });
    const fast = await seconds({ text, master_speed: 100 });
    const slow = await seconds({ text, master_speed: -100 });
    expect(fast / normal).toBeGreaterThan(0.4);
    expect(fast / normal).toBeLessThan(0.6);
    expect(slow / normal).toBeGreaterThan(1.7);
    expect(slow / normal).toBeLessThan(2.3);
  });

  it('moves pitch by signal processing, keeping the duration', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const plain = decodeWav((await say({ text })).audio);
    const higher = decodeWav((await say({ text, master_pitch: 100 })).audio);
    const ratio = medianF0(higher.samples, 16000) / medianF0(plain.samples, 16000);
    expect(ratio).toBeGreaterThan(2 ** (4.5 / 12));
    expect(ratio).toBeLessThan(2 ** (5.5 / 12));
    expect(
      Math.abs(higher.samples.length - plain.samples.length) / plain.samples.length,
    ).toBeLessThan(0.02);
  });

  it('puts the silence of a break where it is (±15 %)', async () => {
    const result = await say({ text: 'Hello there <break time="1500ms"/> general Kenobi' });
    const { samples, sampleRate } = decodeWav(result.audio);
    const longest = Math.max(...innerSilences(samples, sampleRate));
    expect(longest).toBeGreaterThan(1.5 * 0.85);
    expect(longest).toBeLessThan(1.5 * 1.15);
  });

  it('reads say-as the same way as the standard engine (spelled out letters last longer)', async () => {
    const word = await seconds({ text: 'NASA' });
    const spelled = await seconds({
      text: '<speak><say-as interpret-as="characters">NASA</say-as></speak>',
    });
    expect(spelled).toBeGreaterThan(word * 1.5);
  });

  it.each([
    ['mp3', 48000],
    ['ogg', 48000],
    ['mp3', 44100],
    ['wav', 16000],
  ] as const)('resamples the model rate to %s at %i Hz', async (format, rate) => {
    for (const voice_id of ['neural:duo#0', 'neural:solo']) {
      const result = await say({
        voice_id,
        text: 'Hello there.',
        output_format: format,
        sample_rate: rate,
      });
      expect(result.sampleRate).toBe(rate);
      const decoded = await decode(format, result.audio);
      expect(decoded.sampleRate).toBe(rate);
      expect(medianF0(decoded.samples, rate)).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
    }
  });

  it('streams sentence by sentence', async () => {
    const chunks = [];
    for await (const chunk of synthesizeStream(
      neural({
        text: 'First sentence. Second sentence. Third one.',
        output_format: 'mp3',
        sample_rate: 48000,
      }),
      { piper: { voicesDir } },
    )) {
      chunks.push(chunk);
    }
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.last)).toEqual([false, false, true]);
    expect(chunks[1]?.start).toBeCloseTo(chunks[0]?.duration ?? 0, 5);
    expect(
      chunks.flatMap((c) => c.marks.filter((m) => m.type === 'sentence').map((m) => m.text)),
    ).toEqual(['First sentence.', 'Second sentence.', 'Third one.']);
  });

  it('changes the audio with every effect it lists (prosody presets)', async () => {
    const measure = async (effect: (typeof NEURAL_EFFECTS)[number] | null) => {
      const { samples, sampleRate } = decodeWav(
        (await say({ text: 'Hello there.', effect })).audio,
      );
      return [samples.length / sampleRate, medianF0(samples, sampleRate), rmsDb(samples)];
    };
    const plain = await measure(null);
    for (const effect of NEURAL_EFFECTS) {
      const styled = await measure(effect);
      const changed = styled.some(
        (value, i) => Math.abs(value - (plain[i] as number)) > 0.02 * Math.abs(plain[i] as number),
      );
      expect(changed, effect).toBe(true);
    }
  }, 60_000);

  it('switches voices inside a text: to a standard voice, and by language to a neural one', async () => {
    const mixed = await say({
      text: '<speak>Hello. <voice name="standard:en-us">Formant voice here.</voice> And back.</speak>',
    });
    expect(mixed.duration).toBeGreaterThan(1);
    const { samples, sampleRate } = decodeWav(
      (
        await say({
          voice_id: 'neural:duo#1',
          text: '<speak><voice language="de">Guten Tag.</voice></speak>',
        })
      ).audio,
    );
    // The German test voice is a single speaker at the base frequency (the English one asked
    // for speaker 1 would be 90 Hz higher).
    expect(medianF0(samples, sampleRate)).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
  });

  it('refuses mismatched engines and voices, and the standard-only effects', async () => {
    // The product's payload names the engine apart from the voice: both must agree.
    expect(() => neural({ voice_id: 'standard:en-us' })).toThrow('is not a neural voice');
    expect(() => request({ voice_id: 'neural:duo#0' })).toThrow('needs the neural engine');
    await expect(say({ voice_id: 'neural:duo' })).rejects.toThrow('Unknown voice "neural:duo"');
    await expect(say({ voice_id: 'neural:duo#7' })).rejects.toThrow('Unknown voice');
    await expect(
      say({ text: '<speak><effect name="whispered">Hi</effect></speak>' }),
    ).rejects.toThrow('needs the standard engine');
  });
});

describe('a broken voice', () => {
  let brokenDir: string;

  beforeAll(async () => {
    brokenDir = await mkdtemp(join(tmpdir(), 'parla-voices-broken-'));
    await cp(join(voicesDir, 'solo'), join(brokenDir, 'corrupt'), { recursive: true });
    await writeFile(join(brokenDir, 'corrupt', 'model.onnx'), 'this is not an ONNX model');
    await cp(join(voicesDir, 'solo'), join(brokenDir, 'missing'), { recursive: true });
    await rm(join(brokenDir, 'missing', 'model.onnx'));
    // A Piper model copied by hand, without the metadata sherpa-onnx reads.
    await cp(join(voicesDir, 'solo'), join(brokenDir, 'bare'), { recursive: true });
    await writeFile(join(brokenDir, 'bare', 'model.onnx'), testVoiceModel({ bare: true }));
  });

  afterAll(async () => {
    await rm(brokenDir, { recursive: true, force: true });
  });

  it.each([
    ['corrupt', 'Protobuf parsing failed'],
    ['missing', 'does not exist'],
    ['bare', 'sample_rate'],
  ])('gives a clear error for a %s model, and the process carries on', async (folder, reason) => {
    const attempt = synthesize(neural({ voice_id: `neural:${folder}` }), {
      piper: { voicesDir: brokenDir },
    });
    await expect(attempt).rejects.toBeInstanceOf(SpeechError);
    await expect(attempt).rejects.toThrow(`The neural voice "${folder}" cannot be loaded`);
    await expect(attempt).rejects.toThrow(reason);
  });

  it('fails the request through the pool without losing the worker', async () => {
    const pool = new SpeechPool({ size: 1, config: { piper: { voicesDir: brokenDir } } });
    try {
      await expect(pool.synthesize(neural({ voice_id: 'neural:corrupt' }))).rejects.toMatchObject({
        code: 'engine_unavailable',
      });
      // The same worker answers the next request.
      const ok = await pool.synthesize(request({ text: 'Still here.' }));
      expect(ok.duration).toBeGreaterThan(0.3);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('the pool with neural voices', () => {
  it('renders, streams and lists neural voices on worker threads', async () => {
    const pool = new SpeechPool({ size: 1, config: { piper: { voicesDir } } });
    try {
      const voices = await pool.listVoices();
      expect(voices.flatMap((l) => l.voices).filter((v) => v.engine === 'neural')).toHaveLength(3);
      const result = await pool.synthesize(neural({ output_format: 'mp3', sample_rate: 48000 }));
      expect((await decode('mp3', result.audio)).sampleRate).toBe(48000);
      const chunks = [];
      for await (const chunk of pool.stream(neural({ text: 'One. Two.' }))) chunks.push(chunk);
      expect(chunks).toHaveLength(2);
    } finally {
      await pool.close();
    }
    // The first request of a worker extracts the phoneme data and checks the model.
  }, 60_000);
});
