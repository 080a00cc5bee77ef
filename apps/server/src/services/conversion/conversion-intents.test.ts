import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { createIntentRepository } from './intent-repository.js';
import { CONVERT_MESSAGES } from './messages.js';

/*
 * Issue 28 item 8: kill -9 during conversions left their characters charged with no audio, and
 * an acknowledged streamed conversion answered "expired" after the restart. A charge is an
 * intent under its server's lease; a server that starts refunds the intents whose lease ran out.
 */
const config = testConfig();
const first = await createTestApp({ config });
const { user, authorization } = await signedInUser(first);
const charged = 120;

const charactersOf = async (db: typeof first.db, userId: string) =>
  (
    await db
      .selectFrom('users')
      .select('count_characters')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).count_characters;

/** What a server killed mid-conversion leaves: the charge taken, an intent, its lease over. */
async function crashedConversion(charge: { userId: string } | { visitorKeys: string[] }) {
  const id = randomBytes(16).toString('base64url');
  if ('userId' in charge) {
    await first.db
      .updateTable('users')
      .set((eb) => ({ count_characters: eb('count_characters', '-', charged) }))
      .where('id', '=', charge.userId)
      .execute();
  } else {
    for (const key of charge.visitorKeys) {
      await first.db
        .insertInto('visitor_usage')
        .values({
          visitor_key: key,
          characters_used: charged,
          period_start: new Date().toISOString(),
        })
        .execute();
    }
  }
  await createIntentRepository(first.db).record(
    id,
    { ...charge, characters: charged },
    { owner: randomUUID(), ms: -60_000 },
  );
  return id;
}

describe(`conversions of a killed server (${TEST_DATABASE_KIND})`, () => {
  it('refunds the characters of a crashed conversion when a server starts', async () => {
    const before = await charactersOf(first.db, user.id);
    const id = await crashedConversion({ userId: user.id });
    const visitorKeys = [`visitor:${randomUUID()}`, `ip:crashed-${randomUUID()}`];
    await crashedConversion({ visitorKeys });
    expect(await charactersOf(first.db, user.id)).toBe(before - charged);

    const restarted = await createTestApp({ config });
    await restarted.ready();
    expect(await charactersOf(restarted.db, user.id)).toBe(before);
    const usage = await restarted.db
      .selectFrom('visitor_usage')
      .select('characters_used')
      .where('visitor_key', 'in', visitorKeys)
      .execute();
    expect(usage.map((row) => row.characters_used)).toEqual([0, 0]);

    // Its audio is answered as a failed conversion, not as expired audio.
    const audio = await restarted.inject({
      method: 'GET',
      url: `/api/convertor/audio/${id}.mp3`,
      headers: { authorization },
    });
    expect(audio.statusCode).toBe(404);
    expect(audio.json().message).toBe(CONVERT_MESSAGES.failed);

    // Refunded once: another start gives nothing more back.
    expect(await createIntentRepository(restarted.db).refundExpired()).toBe(0);
    expect(await charactersOf(restarted.db, user.id)).toBe(before);
  });

  it('leaves a live server’s conversion charged, and clears its intent once stored', async () => {
    const before = await charactersOf(first.db, user.id);
    const text = 'Hello there.';
    const response = await first.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { authorization },
      payload: voiceSettings({ text }),
    });
    expect(response.statusCode).toBe(200);
    expect(await createIntentRepository(first.db).refundExpired()).toBe(0);
    expect(await charactersOf(first.db, user.id)).toBe(before - text.length);
    const id = String(response.json().path).split('/').at(-1)?.split('.')[0] ?? '';
    expect(await createIntentRepository(first.db).state(id)).toBeUndefined();
  }, 60_000);

  it('converts again when an answered conversion died unstored and was refunded', async () => {
    const key = `retry-${randomUUID()}`;
    const convert = () =>
      first.inject({
        method: 'POST',
        url: '/api/convertor',
        headers: { authorization, 'idempotency-key': key },
        payload: voiceSettings({ text: 'Retry me.' }),
      });
    const answered = await convert();
    expect(answered.statusCode).toBe(200);
    const id = String(answered.json().path).split('/').at(-1)?.split('.')[0] ?? '';
    // As if its server had died after answering and before storing: no record, the charge
    // refunded from its intent.
    await first.db.deleteFrom('conversions').where('id', '=', id).execute();
    const intents = createIntentRepository(first.db);
    await intents.record(id, { userId: user.id, characters: 9 }, { owner: randomUUID(), ms: 0 });
    expect(await intents.refund(id)).toBe(true);

    const retried = await convert();
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json().path).not.toBe(answered.json().path);
  }, 60_000);
});
