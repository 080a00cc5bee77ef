import { existsSync } from 'node:fs';
import path from 'node:path';
import { type SpeechMark, SpeechMarksSchema } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';

const config = testConfig();
const app = await createTestApp({ config, conversionsPerMinute: 1000 });
const audioDir = path.join(config.dataDir, 'files', 'audio');

const TEXT =
  '<speak>Good morning. <break time="2s"/>It is <say-as interpret-as="cardinal">42</say-as> degrees <mark name="end"/>today.</speak>';

async function converted(headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/convertor',
    payload: voiceSettings({ text: TEXT }),
    headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    path: string;
    marks_path: string;
    subtitles_path: string;
    duration: number;
  };
}

describe(`speech marks and subtitles of a conversion (${TEST_DATABASE_KIND})`, () => {
  it('answers marks in Polly shape, with offsets into the SSML as typed', async () => {
    const result = await converted();
    expect(result.marks_path).toMatch(/^\/api\/convertor\/marks\/[\w-]{22}$/);
    const response = await app.inject({ method: 'GET', url: result.marks_path });
    expect(response.statusCode).toBe(200);
    const marks = SpeechMarksSchema.parse(response.json());
    const words = marks.filter((mark) => mark.type === 'word');
    expect(words.map((mark) => TEXT.slice(mark.start, mark.end))).toEqual([
      'Good',
      'morning',
      'It',
      'is',
      '42',
      'degrees',
      'today',
    ]);
    // "It" comes after the 2 s break.
    expect((words[2]?.time ?? 0) - (words[1]?.time ?? 0)).toBeGreaterThanOrEqual(2000);
    const mark = marks.find((m) => m.type === 'ssml') as SpeechMark;
    expect(TEXT.slice(mark.start, mark.end)).toBe('<mark name="end"/>');
    expect(marks.filter((m) => m.type === 'sentence').map((m) => m.value)).toEqual([
      'Good morning.',
      'It is 42 degrees today.',
    ]);
    expect(Math.max(...marks.map((m) => m.time))).toBeLessThan(result.duration * 1000);
  });

  it('answers WebVTT, and SRT with ?format=srt; a bad format is named', async () => {
    const result = await converted();
    const vtt = await app.inject({ method: 'GET', url: result.subtitles_path });
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:0\d\.\d{3}\nGood morning\.\n/);
    const srt = await app.inject({ method: 'GET', url: `${result.subtitles_path}?format=srt` });
    expect(srt.statusCode).toBe(200);
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nGood morning\.\n\n2\n/);
    expect(srt.body).toContain('It is 42 degrees today.');
    const bad = await app.inject({ method: 'GET', url: `${result.subtitles_path}?format=doc` });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('format');
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/convertor/marks/{id}',
        '/api/convertor/subtitles/{id}',
        '/api/file/marks/{id}',
        '/api/file/subtitles/{id}',
      ]),
    );
  });

  it('answers 404 for an unknown conversion, and removes the marks with the audio', async () => {
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/convertor/marks/AAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: CONVERT_MESSAGES.gone });
    const { authorization } = await signedInUser(app);
    const result = await converted({ authorization });
    const marksFile = path.join(audioDir, `${path.basename(result.path)}.marks.json`);
    expect(existsSync(marksFile)).toBe(true);
    await app.inject({ method: 'DELETE', url: '/api/account/delete', headers: { authorization } });
    expect(existsSync(marksFile)).toBe(false);
    expect((await app.inject({ method: 'GET', url: result.marks_path })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: result.subtitles_path })).statusCode).toBe(404);
  });
});
