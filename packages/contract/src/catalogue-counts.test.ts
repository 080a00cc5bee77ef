import { describe, expect, it } from 'vitest';
import { fillCatalogueCounts } from './catalogue-counts.js';

describe('fillCatalogueCounts', () => {
  it('fills every placeholder with the grouped count', () => {
    expect(
      fillCatalogueCounts('{{voices}} voices in {{languages}} languages; {{voices}}.', {
        voices: 1048,
        languages: 131,
      }),
    ).toBe('1,048 voices in 131 languages; 1,048.');
    expect(fillCatalogueCounts('No counts.', { voices: 1, languages: 1 })).toBe('No counts.');
  });
});
