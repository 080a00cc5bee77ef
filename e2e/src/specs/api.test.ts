import { ParlaApiError, ParlaClient } from '@parla/client';
import { describe, expect, inject, it } from 'vitest';
import { newUser } from '../harness/users.js';

/**
 * The public API as a developer scripts it (issue 16), through @parla/client against the
 * built product: a key made with a login token, one call with defaults, word timings, errors
 * naming the field, a retry charged once, and a revoked key refused at once.
 */
describe('the public API through @parla/client', () => {
  const baseUrl = inject('baseUrl');

  it('converts with a key made on the account, charged and timed', async () => {
    const user = await newUser('BASIC');
    const account = new ParlaClient({ baseUrl, token: user.token });
    const created = await account.createApiKey('e2e script');
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect((await account.apiKeys()).map((k) => k.prefix)).toEqual([created.prefix]);

    const client = new ParlaClient({ baseUrl, apiKey: created.key });
    const before = (await client.profile()).plan.count_characters;
    const text = 'Scripts speak through Parla.';
    const spoken = await client.speak({ text, language: 'en-US', format: 'wav' });
    expect(spoken.contentType).toBe('audio/wav');
    expect(new TextDecoder().decode(spoken.audio.subarray(0, 4))).toBe('RIFF');
    // 16-bit mono at 16 kHz: more than a second of audio for this sentence.
    expect((spoken.audio.length - 44) / 2 / 16000).toBeGreaterThan(1);
    expect(spoken.characters).toBe(text.length);
    expect((await client.profile()).plan.count_characters).toBe(before - text.length);
    const marks = await client.marks(spoken.marksPath ?? '');
    expect(marks.filter((m) => m.type === 'word').map((m) => m.value)).toEqual([
      'Scripts',
      'speak',
      'through',
      'Parla',
    ]);

    const english = await client.voices({ language: 'en-US' });
    expect(english[0]?.voices.length).toBeGreaterThan(0);

    const first = await client.speak({ text: 'Once.' }, { idempotencyKey: 'e2e-once' });
    const again = await client.speak({ text: 'Once.' }, { idempotencyKey: 'e2e-once' });
    expect(again.replayed).toBe(true);
    expect(again.audioPath).toBe(first.audioPath);
    expect((await client.profile()).plan.count_characters).toBe(
      before - text.length - 'Once.'.length,
    );

    const bad = await client.speak({ text: 'x', speed: 900 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ParlaApiError);
    expect((bad as ParlaApiError).status).toBe(400);
    expect((bad as ParlaApiError).errors[0]?.path).toBe('speed');

    await account.revokeApiKey(created.id);
    const revoked = await client.profile().catch((e: unknown) => e);
    expect((revoked as ParlaApiError).status).toBe(401);
  });
});
