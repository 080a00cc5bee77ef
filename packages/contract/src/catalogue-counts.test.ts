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

  it("groups the digits as the text's language does", () => {
    const counts = { voices: 1048, languages: 131 };
    expect(fillCatalogueCounts('{{voices}}', counts, 'de')).toBe('1.048');
    expect(fillCatalogueCounts('{{voices}}', counts, 'fr')).toBe('1\u202f048');
    expect(fillCatalogueCounts('{{voices}}', counts, 'ar')).toBe(
      new Intl.NumberFormat('ar').format(1048),
    );
    expect(fillCatalogueCounts('{{languages}}', counts, 'de')).toBe('131');
  });
});
