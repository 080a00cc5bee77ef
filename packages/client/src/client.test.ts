import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LEXICON_MESSAGES } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../test/server.js';
import { ParlaApiError, ParlaClient } from './index.js';

/** The error a call rejects with (the test fails if it resolves). */
async function failure(call: Promise<unknown>): Promise<ParlaApiError> {
  const error = await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParlaApiError);
  return error as ParlaApiError;
}

describe('ParlaClient against the real server', () => {
  let server: RunningServer;
  let account: ParlaClient;

  beforeAll(async () => {
    server = await startServer();
    account = new ParlaClient({ baseUrl: server.baseUrl, token: await server.createUser('BASIC') });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('makes, lists and revokes API keys with a login token; a revoked key is refused', async () => {
    const created = await account.createApiKey('client tests');
    expect(created.name).toBe('client tests');
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const listed = await account.apiKeys();
    expect(listed.map((key) => [key.id, key.prefix, key.last_used_date])).toEqual([
      [created.id, created.prefix, null],
    ]);

    const client = new ParlaClient({ baseUrl: server.baseUrl, apiKey: created.key });
    expect((await client.profile()).plan.type).toBe('BASIC');
    expect((await account.apiKeys())[0]?.last_used_date).not.toBeNull();

    expect(await account.revokeApiKey(created.id)).toEqual(expect.any(String));
    expect(await account.apiKeys()).toEqual([]);
    const refused = await failure(client.profile());
    expect(refused.status).toBe(401);
    expect(refused.message).not.toBe('GET /api/account/profile answered 401');
  });

  it('speaks: the audio with the facts of its headers, charged once per idempotency key', async () => {
    const text = 'The client speaks.';
    const before = (await account.profile()).plan.count_characters;

    const spoken = await account.speak({ text, language: 'en-US', format: 'wav' });
    expect(spoken.contentType).toBe('audio/wav');
    expect(new TextDecoder().decode(spoken.audio.subarray(0, 4))).toBe('RIFF');
    expect(spoken.audio.length).toBeGreaterThan(44);
    expect(spoken.characters).toBe(text.length);
    expect(spoken.replayed).toBe(false);
    expect(spoken.audioPath).toMatch(/^\/api\//);
    expect(spoken.subtitlesPath).toMatch(/^\/api\//);
    const marks = await account.marks(spoken.marksPath ?? '');
    expect(marks.filter((mark) => mark.type === 'word').map((mark) => mark.value)).toEqual([
      'The',
      'client',
      'speaks',
    ]);

    const first = await account.speak({ text: 'Once.' }, { idempotencyKey: 'client-once' });
    const again = await account.speak({ text: 'Once.' }, { idempotencyKey: 'client-once' });
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.audioPath).toBe(first.audioPath);
    expect((await account.profile()).plan.count_characters).toBe(
      before - text.length - 'Once.'.length,
    );
  });

  it('speaks as JSON: where the audio is and how long it lasts', async () => {
    const result = await account.speakJson({ text: 'Where is it?', format: 'mp3' });
    expect(result.success).toBe(true);
    expect(result.characters).toBe('Where is it?'.length);
    expect(result.duration).toBeGreaterThan(0);
    const audio = await fetch(`${server.baseUrl}${result.path}`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
  });

  it('lists voices filtered by language and engine', async () => {
    const english = await account.voices({ language: 'en-US', engine: 'standard' });
    expect(english.map((language) => language.language_code.toLowerCase())).toEqual(['en-us']);
    const voices = english.flatMap((language) => language.voices);
    expect(voices.length).toBeGreaterThan(0);
    expect(new Set(voices.map((voice) => voice.engine))).toEqual(new Set(['standard']));
    const all = await account.voices();
    expect(all.length).toBeGreaterThan(english.length);
  });

  it('manages pronunciation lexicons as JSON and as PLS files, with an API key', async () => {
    const key = new ParlaClient({
      baseUrl: server.baseUrl,
      apiKey: (await account.createApiKey('lexicons')).key,
    });
    const made = await key.putLexicon('Names', {
      language: 'en-US',
      entries: [{ grapheme: 'Nguyen', alias: 'win' }],
    });
    expect(made.entries).toHaveLength(1);
    const file = await key.exportLexicon('Names');
    expect(file).toContain('<grapheme>Nguyen</grapheme>');
    const copy = await key.importLexicon('Copy', file, { default: true });
    expect(copy).toMatchObject({ name: 'Copy', default: true, entries: made.entries });
    expect((await key.lexicons()).lexicons.map((lexicon) => lexicon.name)).toEqual([
      'Copy',
      'Names',
    ]);
    expect((await key.lexicon('Copy')).entries).toEqual(made.entries);
    const bad = await failure(key.importLexicon('Bad', '<lexicon>'));
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^The PLS file is not valid at 1:\d+: /);
    const renamed = await key.renameLexicon('Copy', 'Kept');
    expect(renamed).toMatchObject({ name: 'Kept', default: true, entries: made.entries });
    const taken = await failure(key.renameLexicon('Kept', 'Names'));
    expect(taken.status).toBe(409);
    expect(taken.message).toBe(LEXICON_MESSAGES.nameTaken('Names'));
    expect((await failure(key.renameLexicon('Copy', 'Again'))).status).toBe(404);
    expect(await key.deleteLexicon('Kept')).toBe('Lexicon "Kept" deleted.');
    expect((await failure(key.lexicon('Kept'))).status).toBe(404);
  });

  it('runs the operator console: finds a user, grants characters, reads the audit log', async () => {
    const admin = new ParlaClient({
      baseUrl: server.baseUrl,
      token: await server.createUser('FREE', { admin: true }),
    });
    const { user } = await account.profile().then(async (profile) => ({
      user: (await admin.admin.users({ query: profile.user.email })).items[0],
    }));
    if (!user) throw new Error('the console did not find the user');
    const granted = await admin.admin.characters(user.id, 1234, 'Client test');
    expect(granted.plan.count_characters).toBe(user.plan.count_characters + 1234);
    expect((await account.profile()).plan.count_characters).toBe(granted.plan.count_characters);
    expect((await admin.admin.user(user.id)).user.id).toBe(user.id);
    const [entry] = (await admin.admin.audit({ per_page: 1 })).items;
    expect(entry).toMatchObject({ action: 'user.characters', reason: 'Client test' });
    // A USER's token is refused, with the server's words and the field it named.
    const refused = await failure(account.admin.users());
    expect(refused.status).toBe(403);
    const invalid = await failure(admin.admin.characters(user.id, 0, 'x'));
    expect(invalid.status).toBe(400);
    expect(invalid.errors[0]?.path).toBe('characters');
    // The overview: the last 30 days by default, the speech service's health.
    const overview = await admin.admin.overview();
    expect(overview.days).toHaveLength(30);
    expect(overview.totals.sign_ups).toBeGreaterThanOrEqual(2);
    expect((await admin.admin.health()).workers.processes).toBe(1);
    const badPeriod = await failure(admin.admin.overview({ from: '2026-11-02', to: '2026-11-01' }));
    expect(badPeriod.status).toBe(400);
    expect(badPeriod.errors[0]?.path).toBe('from');

    // Voices: a hidden voice leaves the catalogue every caller sees, and comes back.
    const hidden = 'standard:en-us+f3';
    const catalogueIds = async () =>
      (await account.voices()).flatMap((language) => language.voices.map((voice) => voice.id));
    expect(await catalogueIds()).toContain(hidden);
    const after = await admin.admin.setVoiceHidden(hidden, true);
    const listed = after.languages.flatMap((language) => language.voices);
    expect(listed.find((voice) => voice.id === hidden)?.hidden).toBe(true);
    expect(await catalogueIds()).not.toContain(hidden);
    await admin.admin.setVoiceHidden(hidden, false);
    expect(await catalogueIds()).toContain(hidden);
    expect((await admin.admin.install()).state).toBe('idle');
    const unknown = await failure(
      admin.admin.setLanguage({ language_code: 'xx-yy', hidden: true }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.errors[0]?.path).toBe('language_code');

    // Plans: the terms as stored, and a mistake named by its field.
    const { plans } = await admin.admin.plans();
    const basic = plans.find((plan) => plan.type === 'BASIC');
    expect(basic?.engines.length).toBeGreaterThan(0);
    const tooMuch = await failure(
      admin.admin.setPlan('BASIC', {
        price: 9,
        count_characters: 10,
        count_characters_per_convert: 11,
        storage_bytes: 0,
        engines: ['neural'],
      }),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.errors[0]?.path).toBe('count_characters_per_convert');
  });

  it("reads the console's payments and sends refunds with their Idempotency-Key", async () => {
    const admin = new ParlaClient({
      baseUrl: server.baseUrl,
      token: await server.createUser('FREE', { admin: true }),
    });
    const { user } = await account.profile();
    const none = await admin.admin.payments({ email: user.email, status: 'refunded' });
    expect(none).toMatchObject({ items: [], total: 0, page: 1 });
    const unknown = await failure(
      admin.admin.refund(
        'no-such-payment',
        { reason: 'Test', characters: 'none' },
        'client-test-key',
      ),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe('There is no payment with this id.');
    const badAmount = await failure(
      admin.admin.refund(
        'no-such-payment',
        { amount_cents: 0, reason: 'Test', characters: 'none' },
        'client-test-key',
      ),
    );
    expect(badAmount.errors[0]?.path).toBe('amount_cents');
    expect((await failure(admin.admin.invoicePdf('no-such-payment'))).status).toBe(404);
    expect((await failure(account.admin.payments())).status).toBe(403);
  });

  it("turns the server's refusals into ParlaApiError with its message and fields", async () => {
    const invalid = await failure(account.speak({ text: 'x', speed: 900 }));
    expect(invalid.status).toBe(400);
    expect(invalid.errors.map((error) => error.path)).toEqual(['speed']);
    expect(invalid.message).not.toMatch(/answered 400$/);

    const anonymous = new ParlaClient({ baseUrl: server.baseUrl });
    expect((await failure(anonymous.apiKeys())).status).toBe(401);

    // The id travels as one encoded path segment: the route itself refuses it (unencoded, the
    // slash would have reached no route at all and answered 404).
    const malformed = await failure(account.revokeApiKey('no/such key'));
    expect(malformed.status).toBe(400);
    expect(malformed.errors.map((error) => error.message)).toEqual([
      'id must be the id of one of your API keys.',
    ]);
    const missing = await failure(account.revokeApiKey('no-such-key'));
    expect(missing.status).toBe(404);
  });

  it('accepts a base URL with trailing slashes and calls through the fetch it is given', async () => {
    const called: string[] = [];
    const client = new ParlaClient({
      baseUrl: `${server.baseUrl}//`,
      token: await server.createUser('FREE'),
      fetch: (input, init) => {
        called.push(`${init?.method} ${String(input)}`);
        return fetch(input, init);
      },
    });
    expect((await client.profile()).plan.type).toBe('FREE');
    expect(called).toEqual([`GET ${server.baseUrl}/api/account/profile`]);
  });
});

describe('ParlaClient behind a server that does not answer as Parla does', () => {
  let proxy: Server;
  let baseUrl: string;

  beforeAll(async () => {
    // What a misconfigured proxy or another service at the address answers.
    proxy = createServer((request, response) => {
      if (request.url === '/api/account/profile') {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body>Bad gateway</body></html>');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ hello: 'world' }));
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('names the call and the status when a failure is not JSON', async () => {
    const error = await failure(new ParlaClient({ baseUrl }).profile());
    expect(error.status).toBe(502);
    expect(error.message).toBe('GET /api/account/profile answered 502');
    expect(error.errors).toEqual([]);
  });

  it('refuses an answer that does not match the schema', async () => {
    const error = await failure(new ParlaClient({ baseUrl }).apiKeys());
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/^Unexpected answer: /);
  });
});
