import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import { MAX_SPEECH_SECONDS_PER_CHARACTER, MAX_TOTAL_BREAK_SECONDS } from './constants.js';
import { VOICE_SETTINGS_DEFAULTS } from './convertor.js';
import {
  FileIdParamsSchema,
  FileListSchema,
  FileMediaQuerySchema,
  fileMediaQuery,
  maxAudioBytes,
  maxConversionSeconds,
} from './file.js';

const file = {
  _id: '6560f1',
  size: 48213,
  length: 3.2,
  language: 'English (GB)',
  voice: 'Alan',
  updated_date: '2026-11-21T14:00:00.000Z',
  engine: 'neural',
  language_code: 'en-GB',
  voice_id: 'en_GB-alan-medium',
  audio_format: 'mp3',
  audio_sample_rate: 48000,
  effect: null,
  output_format: 'mp3',
  sample_rate: 48000,
  master_speed: 0,
  master_volume: 0,
  master_pitch: 0,
  snippet: 'Hello from Parla',
};

describe('FileSchema', () => {
  it('accepts a saved file and refuses a bad one', () => {
    expect(FileListSchema.parse([file])).toEqual([file]);
    expect(FileListSchema.safeParse([{ ...file, size: -1 }]).success).toBe(false);
    expect(FileListSchema.safeParse([{ ...file, audio_format: 'flac' }]).success).toBe(false);
    expect(FileListSchema.safeParse([{ ...file, updated_date: 'yesterday' }]).success).toBe(false);
    const { snippet: _, ...withoutSnippet } = file;
    expect(FileListSchema.safeParse([withoutSnippet]).success).toBe(false);
  });

  it('takes an id without slashes', () => {
    expect(FileIdParamsSchema.safeParse({ id: 'abc' }).success).toBe(true);
    expect(FileIdParamsSchema.safeParse({ id: 'a/b' }).success).toBe(false);
    expect(FileIdParamsSchema.safeParse({ id: '' }).success).toBe(false);
  });
});

describe('FileMediaQuerySchema', () => {
  const settings = { ...VOICE_SETTINGS_DEFAULTS, voice_id: 'v1', language_code: 'en-GB' };

  it('round-trips the query the client builds', () => {
    const query = fileMediaQuery({ ...settings, master_speed: -20 });
    expect(query).toEqual({
      engine: 'neural',
      language: 'en-GB',
      voice: 'v1',
      effect: '',
      audio_format: 'mp3',
      audio_sample_rate: '48000',
      master_speed: '-20',
      master_volume: '0',
      master_pitch: '0',
    });
    expect(FileMediaQuerySchema.parse(query)).toEqual({
      engine: 'neural',
      language: 'en-GB',
      voice: 'v1',
      effect: null,
      audio_format: 'mp3',
      audio_sample_rate: 48000,
      master_speed: -20,
      master_volume: 0,
      master_pitch: 0,
    });
  });

  it('refuses illegal combinations and out-of-range text numbers', () => {
    const query = fileMediaQuery(settings);
    expect(messagesOf(FileMediaQuerySchema, { ...query, audio_format: 'wav' })).toEqual({
      audio_sample_rate: ['WAV output is 16000 Hz only.'],
    });
    expect(messagesOf(FileMediaQuerySchema, { ...query, master_volume: '30' })).toEqual({
      master_volume: ['Volume must be between -20 dB and 20 dB.'],
    });
    expect(FileMediaQuerySchema.safeParse({ ...query, master_pitch: 'abc' }).success).toBe(false);
    expect(FileMediaQuerySchema.safeParse({ ...query, audio_sample_rate: '' }).success).toBe(false);
    expect(FileMediaQuerySchema.parse({ ...query, effect: 'calm' }).effect).toBe('calm');
  });
});

describe('limits of saved audio and storage (issue 13 item 5)', () => {
  it("bounds a plan's longest conversion and the bytes it can make", () => {
    expect(maxConversionSeconds(0)).toBe(MAX_TOTAL_BREAK_SECONDS);
    expect(maxConversionSeconds(1000)).toBe(1000 * MAX_SPEECH_SECONDS_PER_CHARACTER + 600);
    expect(maxAudioBytes('wav', 16000, 10)).toBe(10 * 32000 + 64 * 1024);
    expect(maxAudioBytes('mp3', 48000, 10)).toBe(10 * 12000 + 64 * 1024);
    expect(maxAudioBytes('ogg', 48000, 10)).toBeGreaterThan(maxAudioBytes('mp3', 48000, 10));
  });
});
