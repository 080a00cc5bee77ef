import { formatFileSize } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { savedFileOf } from '../../../test/saved';
import { toFileRow } from './file-row';

describe('file size (SPEC §3: two decimals, B up to YB)', () => {
  it.each([
    [0, '0.00 B'],
    [1, '1.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 ** 2 * 2.25, '2.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [1024 ** 4, '1.00 TB'],
    [1024 ** 5, '1.00 PB'],
    [1024 ** 6, '1.00 EB'],
    [1024 ** 7, '1.00 ZB'],
    [1024 ** 8, '1.00 YB'],
    [1024 ** 9, '1024.00 YB'],
    [1024 * 1024 - 1, '1.00 MB'],
  ])('%d bytes -> %s', (bytes, shown) => {
    expect(formatFileSize(bytes)).toBe(shown);
  });
});

describe('a saved file as a table row', () => {
  it('shows size, time, language, voice, save date and the start of the text', () => {
    const file = savedFileOf({
      _id: 'f1',
      language: 'English (America)',
      updated_date: '2026-11-21T14:05:00.000Z',
    });
    const row = toFileRow(file, 'en-GB');
    expect(row).toMatchObject({
      id: 'f1',
      size: '47.08 KB',
      time: '1:05',
      language: 'English (America)',
      voice: 'Lena',
      snippet: 'Hello there',
      format: file.output_format,
      seconds: file.length,
    });
    expect(row.saveDate).toMatch(/21 Nov 2026/);
  });
});
