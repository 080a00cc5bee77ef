import { describe, expect, it } from 'vitest';
import { timeLeft } from './job-view.js';
import type { PartState } from './repository.js';

/** A part of `characters`, rendered from `began` for `ms` (ms from 0), or in hand, or left. */
const at = (ms: number) => new Date(ms).toISOString();
function part(
  index: number,
  characters: number,
  state: { began: number; ms?: number } | 'pending',
): PartState {
  const base = { chapter: 0, part: index, characters, duration: null };
  if (state === 'pending') {
    return { ...base, status: 'pending', started_at: null, rendered_at: null };
  }
  return state.ms === undefined
    ? { ...base, status: 'charged', started_at: at(state.began), rendered_at: null }
    : {
        ...base,
        status: 'done',
        started_at: at(state.began),
        rendered_at: at(state.began + state.ms),
      };
}

describe('the time left of a job (docs/decisions/032-job-progress.md)', () => {
  it('is unknown until a part is done', () => {
    expect(timeLeft([part(0, 250, { began: 0 }), part(1, 500, 'pending')], 2, 1000)).toBeNull();
  });

  it('times what is left at the speed of parts of its size begun after the start, two at once', () => {
    // Two slow first parts (the workers starting), then parts that take 1 s + 1 ms a character.
    const parts = [
      part(0, 250, { began: 0, ms: 5000 }),
      part(1, 500, { began: 0, ms: 6000 }),
      part(2, 1000, { began: 5000, ms: 2000 }),
      part(3, 2000, { began: 6000, ms: 3000 }),
      part(4, 4000, { began: 7000, ms: 5000 }),
      // In hand for 3 s of its 5.
      part(5, 4000, { began: 9000 }),
      part(6, 4000, 'pending'),
      part(7, 4000, 'pending'),
      part(8, 4000, 'pending'),
    ];
    // 4,000-character parts are timed on part 4 alone (the smaller ones pay more for their
    // start): 5 s of a rendering each. At 12.5 s part 5 has 1.5 s left, parts 6 to 8 15 s: two
    // at once, 8.25 s.
    expect(timeLeft(parts, 2, 12_500)).toBe(8);
  });

  it('shares what is left among the renderings the runner does at once', () => {
    const parts = [
      part(0, 1000, { began: 0, ms: 1000 }),
      part(1, 1000, { began: 1000, ms: 1000 }),
      part(2, 1000, 'pending'),
      part(3, 1000, 'pending'),
    ];
    expect(timeLeft(parts, 1, 2000)).toBe(2);
    expect(timeLeft(parts, 2, 2000)).toBe(1);
  });
});
