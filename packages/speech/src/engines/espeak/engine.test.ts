import { describe, expect, it } from 'vitest';
import type { Segment } from '../types.js';
import { nativeAvailable, nativeBackend } from './backends.js';
import { createEspeakEngine } from './index.js';

const native = await nativeAvailable();

describe.skipIf(!native)(
  'the espeak-ng program for a command run once (direct, no word times)',
  () => {
    const once = createEspeakEngine({ backend: 'program', spawn: 'direct', wordTimings: false });
    const server = createEspeakEngine({ backend: 'program' });

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

const library = (await nativeBackend())?.wordEvents === true;

describe.skipIf(!library)('the espeak-ng engine through libespeak-ng', () => {
  it("gives the program's words, each within 40 ms of the time decision 019 aligns", async () => {
    const own = createEspeakEngine({ backend: 'native' });
    const aligned = createEspeakEngine({ backend: 'program' });
    const voice = await own.resolve('standard:en-us');
    if (!voice) throw new Error('no standard:en-us');
    expect(voice.capabilities.wordTimings).toBe(true);
    const segment: Segment = {
      voice,
      parts: [{ text: 'Numbers such as 1939 and words, said slowly; then quickly again.' }],
      rate: 0.8,
      pitch: 0,
      volume: 0,
      effect: undefined,
    };
    const [mine, theirs] = await Promise.all([own.render(segment), aligned.render(segment)]);
    expect(mine.words.map((word) => word.text)).toEqual(theirs.words.map((word) => word.text));
    mine.words.forEach((word, i) => {
      expect(Math.abs(word.time - (theirs.words[i]?.time ?? 0))).toBeLessThan(0.04);
    });
    expect(mine.samples.length).toBe(theirs.samples.length);
    expect(await own.fingerprint('standard:en-us')).not.toBe(
      await aligned.fingerprint('standard:en-us'),
    );
  });
});

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
