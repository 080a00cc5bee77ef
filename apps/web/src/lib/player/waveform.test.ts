import { describe, expect, it } from 'vitest';
import { reduceToBars, seekTime } from './waveform';

describe('the waveform reduction', () => {
  it('gives one normalised peak per bar, the loudest bar being 1', () => {
    const samples = new Float32Array([0.125, -0.25, 0.5, -0.5, 0, 0, 0.25, -0.125]);
    expect(reduceToBars([samples], 4)).toEqual([0.5, 1, 0, 0.5]);
  });

  it('takes the loudest channel and handles silence and empty audio', () => {
    const left = new Float32Array([0.1, 0.1, 0.1, 0.1]);
    const right = new Float32Array([0, 0, 0.4, 0.4]);
    expect(reduceToBars([left, right], 2)).toEqual([0.25, 1]);
    expect(reduceToBars([new Float32Array(6)], 3)).toEqual([0, 0, 0]);
    expect(reduceToBars([], 3)).toEqual([0, 0, 0]);
  });

  it('spreads a short track over more bars than samples', () => {
    const bars = reduceToBars([new Float32Array([1, 0.5])], 4);
    expect(bars).toHaveLength(4);
    expect(Math.max(...bars)).toBe(1);
  });

  it('turns a click position into a time', () => {
    expect(seekTime(0.5, 10)).toBe(5);
    expect(seekTime(1.2, 10)).toBe(10);
    expect(seekTime(-1, 10)).toBe(0);
    expect(seekTime(0.5, Number.NaN)).toBe(0);
  });
});
