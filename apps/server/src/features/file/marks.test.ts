import path from 'node:path';
import { fileMediaQuery, SpeechMarksSchema, type VoiceSettings } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { createLocalStorage } from '../../lib/storage/local.js';
import { within } from '../../lib/storage/storage.js';
import { SAVED_MARKS_MESSAGES } from './marks.js';

const config = testConfig();
const app = await createTestApp({ config, conversionsPerMinute: 1000 });
const saved = within(createLocalStorage(path.join(config.dataDir, 'files')), 'saved');

const settings: VoiceSettings = voiceSettings({
  text: 'Saved words. Heard again.',
  output_format: 'mp3',
  sample_rate: 24000,
});

/** Converts, then saves the audio as the Save button does; answers the file id and its marks. */
async function savedConversion(authorization: string) {
  const result = (
    await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { authorization },
      payload: settings,
    })
  ).json() as { path: string; marks_path: string };
  const audio = (await app.inject({ method: 'GET', url: result.path })).rawPayload;
  const marks = SpeechMarksSchema.parse(
    (await app.inject({ method: 'GET', url: result.marks_path })).json(),
  );
  const boundary = '----parlamarks';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="audio.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`;
  const saved = await app.inject({
    method: 'POST',
    url: `/api/file/media?${new URLSearchParams(fileMediaQuery(settings))}`,
    headers: {
      authorization,
      'x-requested-with': 'parla',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([Buffer.from(head), audio, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(saved.statusCode).toBe(200);
  return { id: (saved.json() as { _id: string })._id, marks };
}

const putMarks = (authorization: string, id: string, payload: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/file/marks/${id}`,
    headers: { authorization, 'x-requested-with': 'parla' },
    payload: payload as object,
  });

describe(`speech marks of saved files (${TEST_DATABASE_KIND})`, () => {
  it('keeps the marks of a saved conversion for its owner only, as JSON and subtitles', async () => {
    const owner = await signedInUser(app, { plan: 'PREMIUM' });
    const { id, marks } = await savedConversion(owner.authorization);
    expect(marks.filter((m) => m.type === 'sentence')).toHaveLength(2);
    const missing = await app.inject({
      method: 'GET',
      url: `/api/file/marks/${id}`,
      headers: { authorization: owner.authorization },
    });
    expect(missing.statusCode).toBe(404);

    expect((await putMarks(owner.authorization, id, marks)).json()).toEqual({
      message: SAVED_MARKS_MESSAGES.saved,
    });
    const back = await app.inject({
      method: 'GET',
      url: `/api/file/marks/${id}`,
      headers: { authorization: owner.authorization },
    });
    expect(back.json()).toEqual(marks);
    const srt = await app.inject({
      method: 'GET',
      url: `/api/file/subtitles/${id}?format=srt`,
      headers: { authorization: owner.authorization },
    });
    expect(srt.statusCode).toBe(200);
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nSaved words\.\n\n2\n/);

    // Another user, even a paying one, does not find them; and cannot write them.
    const other = await signedInUser(app, { plan: 'PREMIUM' });
    for (const url of [`/api/file/marks/${id}`, `/api/file/subtitles/${id}`]) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: other.authorization },
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await putMarks(other.authorization, id, marks)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/file/marks/${id}` })).statusCode).toBe(
      401,
    );
  });

  it('refuses marks that are not speech marks or fall after the audio, naming the field', async () => {
    const { authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const { id, marks } = await savedConversion(authorization);
    const bad = await putMarks(authorization, id, [{ ...marks[0], type: 'viseme' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('type');
    const late = await putMarks(authorization, id, [{ ...marks[0], time: 3_600_000 }]);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ message: SAVED_MARKS_MESSAGES.tooLate(0) });
  });

  it('go with the file when it is deleted', async () => {
    const { authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const { id, marks } = await savedConversion(authorization);
    await putMarks(authorization, id, marks);
    const keys = async () => (await saved.list('')).map((entry) => entry.key);
    expect((await keys()).some((key) => key.includes(id) && key.endsWith('.marks.json'))).toBe(
      true,
    );
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/file/${id}`,
      headers: { authorization, 'x-requested-with': 'parla' },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await keys()).some((key) => key.includes(id))).toBe(false);
  });
});
