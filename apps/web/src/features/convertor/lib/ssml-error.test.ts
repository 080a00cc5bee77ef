import { describe, expect, it } from 'vitest';
import { errorPosition, offsetOf } from './ssml-error';

describe('SSML error positions', () => {
  it("reads the engine's line:column prefix", () => {
    expect(errorPosition('2:7: emphasis level "loud" is not one of strong')).toEqual({
      line: 2,
      column: 7,
      reason: 'emphasis level "loud" is not one of strong',
    });
    expect(errorPosition('Your plan converts at most 1000 at a time.')).toBeNull();
  });

  it('turns a line and column into an offset of the document, clamped', () => {
    const text = 'ab\ncdef\ng';
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 2, 3)).toBe(5);
    expect(offsetOf(text, 3, 1)).toBe(8);
    expect(offsetOf(text, 9, 9)).toBe(text.length);
    expect(offsetOf(text, 2, 99)).toBe(7);
  });
});
