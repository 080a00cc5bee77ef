import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../test/redis-server.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../test/test-app.js';
import { voiceSettings } from '../../test/voice-settings.js';
import { UNAVAILABLE_MESSAGE } from './error-handler.js';

/*
 * Issue 28 item 8: with Redis killed, conversions answered FST_ERR_FAILED_ERROR_SERIALIZATION;
 * with Redis hung (SIGSTOP) requests hung for 20 s and more. A Redis of the test's own is
 * killed and stopped here.
 */
const redis = await startRedisServer();
afterAll(async () => {
  redis.resume();
  await redis.kill();
});
const app = await createTestApp({ config: testConfig({ REDIS_URL: redis.url }) });

const convert = () =>
  app.inject({ method: 'POST', url: '/api/convertor', payload: voiceSettings() });
const { authorization } = await signedInUser(app);
const openAiSpeech = () =>
  app.inject({
    method: 'POST',
    url: '/v1/audio/speech',
    headers: { authorization },
    payload: { model: 'tts-1', input: 'Hello.', voice: 'alloy' },
  });

/** Waits until the limiter's client is back (an invalid body: answered 400 by the route). */
async function limiterBack() {
  for (;;) {
    const response = await app.inject({ method: 'POST', url: '/api/convertor', payload: {} });
    if (response.statusCode === 400) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe(`Redis down or hung (${TEST_DATABASE_KIND})`, () => {
  it('answers 503 with Retry-After in the route’s own shape while Redis is killed', async () => {
    await limiterBack();
    await redis.kill();
    try {
      const response = await convert();
      expect(response.statusCode).toBe(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.json()).toMatchObject({ success: false, message: UNAVAILABLE_MESSAGE });
      const openAi = await openAiSpeech();
      expect(openAi.statusCode).toBe(503);
      expect(openAi.json()).toMatchObject({
        error: { message: UNAVAILABLE_MESSAGE, type: 'server_error' },
      });
    } finally {
      await redis.restart();
    }
  });

  it('answers 503 instead of hanging while Redis is stopped (SIGSTOP)', async () => {
    await limiterBack();
    redis.pause();
    try {
      const response = await convert();
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.json()).toMatchObject({ success: false, message: UNAVAILABLE_MESSAGE });
    } finally {
      redis.resume();
    }
  });
});
