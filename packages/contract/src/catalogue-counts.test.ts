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

  it('keeps the claims of natural speech only while natural voices exist (issue 29)', () => {
    const text =
      '{{#natural}}Natural speech from {{natural}} voices{{/natural}}{{^natural}}Speech in {{languages}} languages{{/natural}}.';
    expect(fillCatalogueCounts(text, { voices: 1100, languages: 131, natural: 48 })).toBe(
      'Natural speech from 48 voices.',
    );
    expect(fillCatalogueCounts(text, { voices: 1048, languages: 131, natural: 0 })).toBe(
      'Speech in 131 languages.',
    );
    // A catalogue that does not say counts as none: no claim is made.
    expect(fillCatalogueCounts(text, { voices: 1048, languages: 131 })).toBe(
      'Speech in 131 languages.',
    );
    expect(
      fillCatalogueCounts('{{#natural}}a{{/natural}} b {{#natural}}c{{/natural}}', {
        voices: 1,
        languages: 1,
        natural: 1,
      }),
    ).toBe('a b c');
  });
});
