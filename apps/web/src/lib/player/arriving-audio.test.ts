import { describe, expect, it } from 'vitest';
import { decodeDue, joinChunks, MIN_NEW_BYTES, shownDuration, switchNow } from './arriving-audio';

describe('audio as it arrives (issue 33, item 5)', () => {
  it('joins the chunks in order', () => {
    const joined = joinChunks([new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])]);
    expect([...new Uint8Array(joined)]).toEqual([1, 2, 3]);
    expect(joinChunks([]).byteLength).toBe(0);
  });

  it('decodes again as the audio grows by a quarter, and at the end', () => {
    const at = (arrived: number, decoded: number, done = false, busy = false) =>
      decodeDue({ arrived, decoded, done, busy });
    expect(at(0, 0)).toBe(false);
    expect(at(MIN_NEW_BYTES - 1, 0)).toBe(false);
    expect(at(MIN_NEW_BYTES, 0)).toBe(true);
    expect(at(MIN_NEW_BYTES, 0, false, true)).toBe(false);
    expect(at(1_000_000 + 200_000, 1_000_000)).toBe(false);
    expect(at(1_000_000 + 250_000, 1_000_000)).toBe(true);
    // Everything arrived: the rest is decoded, however little it is; nothing twice.
    expect(at(1_000_001, 1_000_000, true)).toBe(true);
    expect(at(5, 0, true)).toBe(true);
    expect(at(1_000_000, 1_000_000, true)).toBe(false);
    expect(at(5, 0, true, true)).toBe(false);
  });

  it('decodes a long stream a few times over, not once a chunk', () => {
    let decoded = 0;
    let decodedBytes = 0;
    let times = 0;
    for (let arrived = 4_096; arrived <= 20_000_000; arrived += 4_096) {
      if (decodeDue({ arrived, decoded, done: false, busy: false })) {
        decodedBytes += arrived;
        decoded = arrived;
        times += 1;
      }
    }
    expect(times).toBeLessThan(60);
    expect(decodedBytes).toBeLessThan(6 * 20_000_000);
  });

  it('shows the duration as it grows, never below the position', () => {
    // The stream has no length yet: what has arrived, or the position when ahead of it.
    expect(shownDuration({ known: 0, arrived: 0, time: 2, arriving: true })).toBe(2);
    expect(shownDuration({ known: 0, arrived: 3.5, time: 2, arriving: true })).toBe(3.5);
    expect(shownDuration({ known: 0, arrived: 7, time: 2, arriving: true })).toBe(7);
    // Arrived: the audio's own length.
    expect(shownDuration({ known: 276, arrived: 275.9, time: 3, arriving: false })).toBe(276);
    expect(shownDuration({ known: 0, arrived: 12, time: 3, arriving: false })).toBe(12);
    expect(shownDuration({ known: 10, arrived: 0, time: 10.02, arriving: false })).toBe(10.02);
  });

  it('switches to the stored file only when nothing is heard, or for a seek', () => {
    const at = (complete: boolean, playing: boolean, seeking = false, streaming = true) =>
      switchNow({ streaming, complete, playing, seeking });
    expect(at(false, false)).toBe(false);
    expect(at(false, true, true)).toBe(false);
    expect(at(true, true)).toBe(false);
    expect(at(true, false)).toBe(true);
    expect(at(true, true, true)).toBe(true);
    // A stored file (or one already switched) is never reloaded.
    expect(at(true, false, true, false)).toBe(false);
  });
});
