import { VOICE_EFFECTS } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { nativeAvailable } from './engines/espeak/backends.js';
import { synthesize } from './synthesize.js';
import { decodeWav, rmsDb } from './test/audio.js';
import { request } from './test/request.js';
import { listVoices } from './voices.js';

const backends = ['wasm', ...((await nativeAvailable()) ? ['native' as const] : [])] as const;

/** Mean absolute difference of two signals over the shorter one, plus their length change. */
function difference(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / n + Math.abs(a.length - b.length) / Math.max(a.length, b.length);
}

describe('voice effects', () => {
  it('every standard voice lists every effect it supports, and only those', async () => {
    const languages = await listVoices();
    expect(languages.length).toBeGreaterThan(100);
    const english = languages.find((l) => l.language_code === 'en-us');
    expect(english?.language_name).toBe('English (US)');
    expect(english?.voices[0]).toMatchObject({
      id: 'standard:en-us',
      name: 'English (US) – Male 1',
      gender: 'male',
      engine: 'standard',
      capabilities: { pitch: true, emphasis: true },
    });
    expect(english?.voices[0]?.effects).toEqual([...VOICE_EFFECTS]);
  });

  describe.each(backends)('with the %s backend', (backend) => {
    const render = async (
      effect: (typeof VOICE_EFFECTS)[number] | null,
      voice = 'standard:en-us',
    ) =>
      decodeWav(
        (
          await synthesize(request({ text: 'Good morning.', effect, voice_id: voice }), {
            espeak: { backend },
          })
        ).audio,
      ).samples;

    it.each(VOICE_EFFECTS)('%s changes the audio', async (effect) => {
      const plain = await render(null);
      const changed = await render(effect);
      // Well above the rounding noise of re-rendering the same input (which is 0).
      expect(difference(plain, changed)).toBeGreaterThan(0.005);
    });

    it('whispered has no voiced pitch and soft is quieter', async () => {
      const plain = await render(null, 'standard:en-us+f2');
      expect(rmsDb(await render('soft', 'standard:en-us+f2'))).toBeLessThan(rmsDb(plain) - 2);
      const whisper = await render('whispered', 'standard:en-us+f2');
      expect(difference(plain, whisper)).toBeGreaterThan(0.005);
    });

    it('the effect tag applies to its words only', async () => {
      const whole = decodeWav(
        (await synthesize(request({ text: 'One two three.' }), { espeak: { backend } })).audio,
      ).samples;
      const tagged = decodeWav(
        (
          await synthesize(request({ text: 'One <effect name="whispered">two</effect> three.' }), {
            espeak: { backend },
          })
        ).audio,
      ).samples;
      expect(difference(whole, tagged)).toBeGreaterThan(0.002);
    });
  });
});
