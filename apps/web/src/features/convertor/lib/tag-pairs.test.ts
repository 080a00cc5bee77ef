import { describe, expect, it } from 'vitest';
import { closedElement, openedElement, tagPairs } from './tag-pairs';

describe('tag pairs of a line', () => {
  it('pairs an opening tag with the closing tag of its element, innermost first', () => {
    const items = [
      '<prosody rate="fast">',
      null,
      '<emphasis level="strong">',
      null,
      '</emphasis>',
      '<break time="1s" />',
      '</prosody>',
    ];
    expect(tagPairs(items)).toEqual([
      [2, 4],
      [0, 6],
    ]);
  });

  it('leaves unmatched tags unpaired', () => {
    expect(tagPairs(['</prosody>', null, '<emphasis level="strong">'])).toEqual([]);
    expect(tagPairs(['<prosody rate="slow">', '<emphasis>', '</prosody>'])).toEqual([[0, 2]]);
  });

  it('tells opening, closing and self-closing tags apart', () => {
    expect(openedElement('<say-as interpret-as="characters">')).toBe('say-as');
    expect(openedElement('<break time="1s" />')).toBeUndefined();
    expect(openedElement('</effect>')).toBeUndefined();
    expect(closedElement('</effect>')).toBe('effect');
    expect(closedElement('<effect name="soft">')).toBeUndefined();
  });
});
