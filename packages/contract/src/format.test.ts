import { describe, expect, it } from 'vitest';
import { formatDuration, formatFileSize } from './format.js';

describe('formatFileSize', () => {
  it.each([
    [0, '0.00 B'],
    [512, '512.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [48213, '47.08 KB'],
    [1024 ** 2 * 3.25, '3.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [1024 ** 8, '1.00 YB'],
    [1024 ** 9, '1024.00 YB'],
    [1024 * 1024 - 1, '1.00 MB'],
    [-5, '0.00 B'],
    [Number.NaN, '0.00 B'],
  ])('%d bytes -> %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [3.7, '0:03'],
    [65, '1:05'],
    [600, '10:00'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [-1, '0:00'],
    [Number.POSITIVE_INFINITY, '0:00'],
  ])('%d s -> %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});
