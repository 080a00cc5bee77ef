import { describe, expect, it } from 'vitest';
import { insertedIntoSample } from './sample';

const SAMPLE = 'Welcome to Parla. Type here.';

describe('insertedIntoSample', () => {
  it('finds a typed character wherever the caret was', () => {
    expect(insertedIntoSample(SAMPLE, `H${SAMPLE}`)).toBe('H');
    expect(insertedIntoSample(SAMPLE, `${SAMPLE}x`)).toBe('x');
    expect(insertedIntoSample(SAMPLE, 'Welcome to Parla.Q Type here.')).toBe('Q');
  });

  it('finds a paste that replaced a selection of the sample', () => {
    expect(insertedIntoSample(SAMPLE, 'Welcome to my own words')).toBe('my own words');
    expect(insertedIntoSample(SAMPLE, 'Bonjour')).toBe('Bonjour');
  });

  it('answers null when the edit only removed some of the sample', () => {
    expect(insertedIntoSample(SAMPLE, 'Welcome to Parla.')).toBeNull();
    expect(insertedIntoSample(SAMPLE, '')).toBeNull();
  });
});
