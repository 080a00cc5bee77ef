import { describe, expect, it } from 'vitest';
import { downloadName, formatTime } from './time';

describe('player times and download names', () => {
  it('formats seconds', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65.7)).toBe('1:05');
    expect(formatTime(3725)).toBe('1:02:05');
    expect(formatTime(Number.NaN)).toBe('0:00');
  });

  it('names a download after the language, voice, time and format', () => {
    expect(downloadName('Standard (en-us)', 'en-us', 'mp3', new Date(2026, 10, 23, 9, 5))).toBe(
      'parla-en-us-standard-en-us-2026-11-23-0905.mp3',
    );
  });
});
