import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import {
  availableEffects,
  ConvertResultSchema,
  capabilitiesFromVoiceId,
  EditorHistoryEntrySchema,
  effectEngineError,
  SpeechMarksSchema,
  SubtitlesQuerySchema,
  VOICE_SETTINGS_DEFAULTS,
  VoiceSettingsSchema,
  VoicesResponseSchema,
} from './convertor.js';

const settings = {
  ...VOICE_SETTINGS_DEFAULTS,
  voice_id: 'en_GB-alan-medium',
  language_code: 'en-GB',
  text: '<speak>Hello</speak>',
  voice_effects: [],
};

describe('VoiceSettingsSchema', () => {
  it('accepts the defaults with a voice and a text', () => {
    expect(VoiceSettingsSchema.parse(settings)).toEqual(settings);
  });

  it('applies the sample-rate rules with their message', () => {
    expect(messagesOf(VoiceSettingsSchema, { ...settings, engine: 'standard' })).toEqual({
      sample_rate: ['The standard engine does not support 48000 Hz; choose 24000 Hz or lower.'],
    });
    expect(messagesOf(VoiceSettingsSchema, { ...settings, output_format: 'wav' })).toEqual({
      sample_rate: ['WAV output is 16000 Hz only.'],
    });
    expect(
      VoiceSettingsSchema.safeParse({ ...settings, output_format: 'wav', sample_rate: 16000 })
        .success,
    ).toBe(true);
    expect(messagesOf(VoiceSettingsSchema, { ...settings, sample_rate: 11025 })).toEqual({
      sample_rate: ['Sample rate must be one of 48000, 44100, 24000, 22050, 16000, 8000 Hz.'],
    });
  });

  it('keeps standard-only effects to the standard engine', () => {
    expect(messagesOf(VoiceSettingsSchema, { ...settings, effect: 'whispered' })).toEqual({
      effect: ['The whispered effect needs the standard engine.'],
    });
    expect(
      VoiceSettingsSchema.safeParse({
        ...settings,
        engine: 'standard',
        sample_rate: 24000,
        effect: 'whispered',
      }).success,
    ).toBe(true);
    expect(VoiceSettingsSchema.safeParse({ ...settings, effect: 'news' }).success).toBe(true);
    expect(VoiceSettingsSchema.safeParse({ ...settings, effect: 'sleepy' }).success).toBe(false);
  });

  it('keeps the sliders within their ranges', () => {
    expect(
      VoiceSettingsSchema.safeParse({
        ...settings,
        master_speed: -100,
        master_volume: 20,
        master_pitch: 100,
      }).success,
    ).toBe(true);
    expect(messagesOf(VoiceSettingsSchema, { ...settings, master_speed: 101 })).toEqual({
      master_speed: ['Speed must be between -100 % and 100 %.'],
    });
    expect(messagesOf(VoiceSettingsSchema, { ...settings, master_volume: -21 })).toEqual({
      master_volume: ['Volume must be between -20 dB and 20 dB.'],
    });
    expect(messagesOf(VoiceSettingsSchema, { ...settings, master_pitch: '5' })).toEqual({
      master_pitch: ['Pitch must be between -100 % and 100 %.'],
    });
  });

  it('needs a text, a voice and a language', () => {
    expect(
      messagesOf(VoiceSettingsSchema, { ...settings, text: '  ', voice_id: '', language_code: '' }),
    ).toEqual({
      text: ['Text is required.'],
      voice_id: ['Voice is required.'],
      language_code: ['Language is required.'],
    });
  });
});

describe('voices', () => {
  const voices = VoicesResponseSchema.parse([
    {
      language_name: 'English (GB)',
      language_code: 'en-GB',
      voices: [
        {
          id: 'en-gb',
          name: 'Alan',
          gender: 'Male',
          effects: ['whispered', 'news'],
          engine: 'standard',
          capabilities: { pitch: true, emphasis: false },
        },
      ],
    },
  ]);

  it('parses the voice catalogue', () => {
    expect(voices[0]?.voices[0]?.effects).toEqual(['whispered', 'news']);
    expect(
      VoicesResponseSchema.safeParse([{ language_name: 'x', language_code: 'x', voices: [{}] }])
        .success,
    ).toBe(false);
  });

  it('offers standard-only effects only under the standard engine', () => {
    const voice = { effects: ['breathing', 'soft', 'whispered', 'calm'] as const };
    expect(availableEffects('standard', { effects: [...voice.effects] })).toEqual([
      'breathing',
      'soft',
      'whispered',
      'calm',
    ]);
    expect(availableEffects('neural', { effects: [...voice.effects] })).toEqual(['calm']);
    expect(effectEngineError('neural', null)).toBeUndefined();
  });

  it("follows SPEC's voice-id rule for pitch and emphasis", () => {
    expect(capabilitiesFromVoiceId('en-US-ai3-jenny')).toEqual({ pitch: true, emphasis: true });
    expect(capabilitiesFromVoiceId('en-US-ai2-jenny')).toEqual({ pitch: true, emphasis: false });
    expect(capabilitiesFromVoiceId('en-US-jenny')).toEqual({ pitch: false, emphasis: false });
  });
});

describe('ConvertResultSchema', () => {
  it('accepts success and failure', () => {
    expect(
      ConvertResultSchema.safeParse({
        success: true,
        message: '',
        path: '/api/audio/abc.mp3',
        duration: 2.5,
      }).success,
    ).toBe(true);
    expect(
      ConvertResultSchema.safeParse({
        success: false,
        message: 'Voice not installed',
        path: null,
        duration: null,
      }).success,
    ).toBe(true);
    expect(
      ConvertResultSchema.safeParse({ success: true, path: 'x', duration: -1, message: '' })
        .success,
    ).toBe(false);
  });

  it("keeps a failure's field messages, as the error shape of every other route", () => {
    const failure = {
      success: false,
      message: 'Text is required.',
      path: null,
      duration: null,
      errors: [{ path: 'text', message: 'Text is required.' }],
    };
    expect(ConvertResultSchema.parse(failure)).toEqual(failure);
  });
});

describe('EditorHistoryEntrySchema', () => {
  it('accepts TEXT and SSML entries only', () => {
    const entry = {
      operation: 'paste',
      target: 'SSML',
      old_version: '<speak/>',
      new_version: '<speak>Hi</speak>',
    };
    expect(EditorHistoryEntrySchema.parse(entry)).toEqual(entry);
    expect(EditorHistoryEntrySchema.safeParse({ ...entry, target: 'HTML' }).success).toBe(false);
  });
});

describe('SpeechMarksSchema', () => {
  it("takes Polly's speech-mark shape and names a bad field", () => {
    const marks = [
      { time: 0, type: 'sentence', start: 0, end: 12, value: 'Hello there.' },
      { time: 6, type: 'word', start: 0, end: 5, value: 'Hello' },
      { time: 410, type: 'ssml', start: 6, end: 24, value: 'here' },
    ];
    expect(SpeechMarksSchema.parse(marks)).toEqual(marks);
    const bad = SpeechMarksSchema.safeParse([{ ...marks[0], type: 'viseme' }]);
    expect(bad.error?.issues[0]?.path).toEqual([0, 'type']);
    expect(SpeechMarksSchema.safeParse([{ ...marks[1], time: 1.5 }]).success).toBe(false);
    expect(SubtitlesQuerySchema.parse({})).toEqual({ format: 'vtt' });
    expect(SubtitlesQuerySchema.safeParse({ format: 'doc' }).error?.issues[0]?.message).toBe(
      'format must be vtt or srt.',
    );
  });

  it('are offered beside the audio in a successful answer', () => {
    const answer = {
      success: true,
      message: 'Your audio is ready.',
      path: '/api/convertor/audio/abc.mp3',
      duration: 1,
      marks_path: '/api/convertor/marks/abc',
      subtitles_path: '/api/convertor/subtitles/abc',
    };
    expect(ConvertResultSchema.parse(answer)).toEqual(answer);
  });
});
