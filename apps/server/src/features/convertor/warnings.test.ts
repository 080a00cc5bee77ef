import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';

/** Issue 27 item 3: what of a text is not rendered as written reaches the caller. */
const app = await createTestApp({ config: testConfig(), conversionsPerMinute: 1000 });
const TEXT = '<speak>Hello.\n<amazon:effect name="drc">Quiet please.</amazon:effect></speak>';
const WARNING = {
  code: 'ignored_markup',
  message: expect.stringContaining('amazon:effect'),
  line: 2,
  column: 1,
};

describe(`warnings (${TEST_DATABASE_KIND})`, () => {
  it('are in the convertor answer, whole or streamed, and absent when there are none', async () => {
    for (const stream of [false, true]) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/convertor?stream=${stream}`,
        payload: voiceSettings({ text: TEXT }),
      });
      expect(response.statusCode, String(stream)).toBe(200);
      expect(response.json().warnings, String(stream)).toEqual([WARNING]);
    }
    const clean = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ text: 'Nothing to say about this.' }),
    });
    expect(clean.json()).not.toHaveProperty('warnings');
  });

  it('are the X-Parla-Warnings header of an audio answer, and in the JSON one', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const audio = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization },
      payload: { text: TEXT, format: 'wav' },
    });
    expect(audio.statusCode).toBe(200);
    expect(JSON.parse(String(audio.headers['x-parla-warnings']))).toEqual([WARNING]);
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization, accept: 'application/json' },
      payload: { text: TEXT },
    });
    expect(json.json().warnings).toEqual([WARNING]);
  });
});
