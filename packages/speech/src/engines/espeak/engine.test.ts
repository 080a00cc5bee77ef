import { describe, expect, it } from 'vitest';
import type { Segment } from '../types.js';
import { nativeAvailable } from './backends.js';
import { createEspeakEngine } from './index.js';

const native = await nativeAvailable();

describe.skipIf(!native)(
  'the espeak-ng engine for a command run once (direct, no word times)',
  () => {
    const once = createEspeakEngine({ backend: 'native', spawn: 'direct', wordTimings: false });
    const server = createEspeakEngine({ backend: 'native' });

    it('finds the voices the whole catalogue finds, including languages the program lacks', async () => {
      // en-us and fr-fr are the program's own codes; fo (Faroese) and ca-ba only the
      // WebAssembly build has; fr-CA and zh resolve through a base language and an alias.
      for (const id of [
        'standard:en-us',
        'standard:fr-fr+f2',
        'standard:fo',
        'standard:ca-ba',
        'standard:fr-CA',
        'standard:zh',
      ]) {
        const [quick, whole] = await Promise.all([once.resolve(id), server.resolve(id)]);
        expect(quick?.id, id).toBe(whole?.id);
        expect(quick?.name, id).toBe(whole?.name);
        expect(quick?.capabilities.wordTimings).toBe(false);
        expect(whole?.capabilities.wordTimings).toBe(true);
      }
      expect(await once.resolve('standard:xx-nowhere')).toBeUndefined();
    });

    it('renders the same audio, without word times, and says so in its fingerprint', async () => {
      const voice = await once.resolve('standard:en-us');
      if (!voice) throw new Error('no standard:en-us');
      const segment: Segment = {
        voice,
        parts: [{ text: 'The same words, twice.' }],
        rate: 1,
        pitch: 0,
        volume: 0,
        effect: undefined,
      };
      const [quick, whole] = await Promise.all([once.render(segment), server.render(segment)]);
      expect(quick.samples).toEqual(whole.samples);
      expect(whole.words.map((word) => word.text)).toEqual(['The', 'same', 'words', 'twice']);
      expect(quick.words).toEqual([]);
      expect(await once.fingerprint('standard:en-us')).not.toBe(
        await server.fingerprint('standard:en-us'),
      );
    });
  },
);

describe('word times from espeak-ng word events', () => {
  it('gives a word whose event espeak-ng misplaces into the word before its own time (issue 27)', async () => {
    // espeak-ng reports "a while" one character into "for"; the event is the next word's.
    const engine = createEspeakEngine({ backend: 'wasm' });
    const voice = await engine.resolve('standard:en-us');
    if (!voice) throw new Error('no standard:en-us');
    const rendered = await engine.render({
      voice,
      parts: [{ text: 'The cows were waiting for a while. He fed them.' }],
      rate: 1,
      pitch: 0,
      volume: 0,
      effect: undefined,
    });
    const words = rendered.words.map((word) => word.text);
    expect(words.slice(words.indexOf('for'), words.indexOf('He'))).toEqual(['for', 'a']);
    const times = rendered.words.map((word) => word.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
  });
});
