import { describe, expect, it } from 'vitest';
import { concat, firstSound, floatPcm, lastSound, trimSilence } from './dsp.js';

// espeak-ng's 16-bit samples are carried as they are (decision 056): each helper must treat
// them as the floats the engine used to make of them (each over 32768), on either side of the
// silence threshold (0.004 of full scale: 131 is quiet, 132 is heard).
const int16 = new Int16Array([0, 131, -131, 132, 5000, -32768, 32767, -132, 131, 0]);
const floats = Float32Array.from(int16, (x) => x / 32768);

describe('16-bit samples', () => {
  it('are heard where their floats are: the same first and last sound and the same trim', () => {
    expect(firstSound(int16)).toBe(3);
    expect(firstSound(floats)).toBe(3);
    expect(lastSound(int16)).toBe(8);
    expect(lastSound(floats)).toBe(8);
    const margins = { start: 0.001, end: 0.001 };
    const trimmed = trimSilence(int16, 1000, margins);
    expect(trimmed.samples).toBeInstanceOf(Int16Array);
    expect(trimmed.cutStart).toBe(trimSilence(floats, 1000, margins).cutStart);
    expect(floatPcm(trimmed.samples)).toEqual(trimSilence(floats, 1000, margins).samples);
    expect(trimSilence(new Int16Array(4), 1000, margins).samples).toEqual(new Int16Array(0));
  });

  it('become floats only when joined to other parts; one part is answered as it is', () => {
    expect(concat([int16])).toBe(int16);
    const joined = concat([int16, new Float32Array([0.25]), int16]);
    expect(joined).toEqual(new Float32Array([...floats, 0.25, ...floats]));
    expect(floatPcm(floats)).toBe(floats);
    expect(floatPcm(int16)).toEqual(floats);
  });
});
