import { VOICE_EFFECTS } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { decodeWav, difference, rmsDb } from '../test/audio.js';
import { request } from '../test/request.js';
import { nativeAvailable } from './engines/espeak/backends.js';
import { synthesize } from './synthesize.js';
import { listVoices } from './voices.js';

const backends = ['wasm', ...((await nativeAvailable()) ? ['native' as const] : [])] as const;

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

    // That each listed effect changes the audio is in the engine contract (engines/contract.test.ts).
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
