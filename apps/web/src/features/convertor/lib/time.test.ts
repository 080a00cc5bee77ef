import { describe, expect, it } from 'vitest';
import { downloadName } from './time';

describe('download names', () => {
  it('names a download after the language, voice, time and format', () => {
    expect(downloadName('Standard (en-us)', 'en-us', 'mp3', new Date(2026, 10, 23, 9, 5))).toBe(
      'parla-en-us-standard-en-us-2026-11-23-0905.mp3',
    );
  });
});
