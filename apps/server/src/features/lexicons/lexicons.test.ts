import {
  ConvertResultSchema,
  LEXICON_MESSAGES,
  LEXICON_PLAN_LIMITS,
  LexiconListSchema,
  LexiconSchema,
  PLS_MEDIA_TYPE,
} from '@parla/contract';
import { decodeWav, difference } from '@parla/speech/testing';
import { describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';

const app = await createTestApp();

type Headers = Record<string, string>;

const put = (name: string, headers: Headers, payload: object | string, type?: string) =>
  app.inject({
    method: 'PUT',
    url: `/api/lexicons/${name}`,
    headers: { ...headers, ...(type && { 'content-type': type }) },
    payload,
  });
const get = (url: string, headers: Headers) => app.inject({ method: 'GET', url, headers });
const list = async (headers: Headers) =>
  LexiconListSchema.parse((await get('/api/lexicons', headers)).json());

const NAMES = {
  language: 'en-US',
  entries: [{ grapheme: 'Nguyen', alias: 'win' }],
};

const PLS = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
    alphabet="ipa" xml:lang="en-US">
  <lexeme>
    <grapheme>W3C</grapheme>
    <alias>World Wide Web Consortium</alias>
  </lexeme>
  <lexeme>
    <grapheme>tomato</grapheme>
    <phoneme>təˈmɑːtoʊ</phoneme>
  </lexeme>
</lexicon>`;

/** The samples of a conversion's audio (wav), and what it left of the user's characters. */
async function converted(headers: Headers, text: string, lexiconNames?: string[]) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/convertor',
    headers,
    payload: voiceSettings({ text, ...(lexiconNames && { lexicon_names: lexiconNames }) }),
  });
  const result = ConvertResultSchema.parse(response.json());
  if (!result.path) return { status: response.statusCode, result, samples: undefined };
  const audio = await app.inject({ method: 'GET', url: result.path });
  return { status: response.statusCode, result, samples: decodeWav(audio.rawPayload).samples };
}

describe(`pronunciation lexicons (${TEST_DATABASE_KIND})`, () => {
  it('are created, listed, read, replaced and deleted by their owner', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const headers = { authorization };
    expect(await list(headers)).toEqual({ lexicons: [], limits: LEXICON_PLAN_LIMITS.BASIC });
    const created = await put('Names', headers, { ...NAMES, default: true });
    expect(created.statusCode).toBe(201);
    const lexicon = LexiconSchema.parse(created.json());
    expect(lexicon).toMatchObject({ name: 'Names', language: 'en-US', default: true });
    expect(lexicon.entries).toEqual([
      {
        grapheme: 'Nguyen',
        case_sensitive: false,
        whole_word: true,
        alias: 'win',
        phoneme: null,
        alphabet: null,
        language: null,
      },
    ]);
    expect((await list(headers)).lexicons).toEqual([
      expect.objectContaining({ name: 'Names', entries: 1, default: true, default_position: 1 }),
    ]);
    expect((await get('/api/lexicons/Names', headers)).json()).toEqual(lexicon);
    const replaced = await put('Names', headers, {
      language: 'en-GB',
      entries: [...NAMES.entries, { grapheme: 'Siobhan', alias: 'shiv awn' }],
    });
    expect(replaced.statusCode).toBe(200);
    // Replaced whole; `default` left out is false.
    expect(replaced.json()).toMatchObject({ language: 'en-GB', default: false, entries: [{}, {}] });
    const deleted = await app.inject({ method: 'DELETE', url: '/api/lexicons/Names', headers });
    expect(deleted.json()).toEqual({ message: LEXICON_MESSAGES.deleted('Names') });
    expect((await get('/api/lexicons/Names', headers)).statusCode).toBe(404);
  });

  it('take and give PLS files: exported and imported again, the same file', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const headers = { authorization };
    const imported = await put('Terms', headers, PLS, PLS_MEDIA_TYPE);
    expect(imported.statusCode).toBe(201);
    expect(imported.json()).toMatchObject({
      entries: [
        { grapheme: 'W3C', alias: 'World Wide Web Consortium' },
        { grapheme: 'tomato', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa' },
      ],
    });
    const exported = await get('/api/lexicons/Terms', { ...headers, accept: PLS_MEDIA_TYPE });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe(`${PLS_MEDIA_TYPE}; charset=utf-8`);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="Terms.pls"');
    expect(exported.body).toContain('<grapheme>W3C</grapheme>');
    // Imported again under another name and exported: byte for byte the same file.
    expect((await put('Again', headers, exported.body, 'application/xml')).statusCode).toBe(201);
    const again = await get('/api/lexicons/Again?format=pls', headers);
    expect(again.body).toBe(exported.body);
    // `?default=true` with a PLS body makes it a default lexicon.
    const marked = await app.inject({
      method: 'PUT',
      url: '/api/lexicons/Again?default=true',
      headers: { ...headers, 'content-type': PLS_MEDIA_TYPE },
      payload: exported.body,
    });
    expect(marked.json()).toMatchObject({ default: true });
  });

  it('refuse a bad file, too many entries or lexicons, and store nothing of it', async () => {
    const { authorization } = await signedInUser(app, { plan: 'FREE' });
    const headers = { authorization };
    const badPls = PLS.replace('<alias>World Wide Web Consortium</alias>', '<alias>World');
    const bad = await put('Terms', headers, badPls, PLS_MEDIA_TYPE);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'The PLS file is not valid at 7:11: unexpected close tag.',
    });
    const noPronunciation = await put(
      'Terms',
      headers,
      PLS.replace('<alias>World Wide Web Consortium</alias>', ''),
      PLS_MEDIA_TYPE,
    );
    expect(noPronunciation.json()).toEqual({
      message: 'The PLS file is not valid at 4:3: <lexeme> needs a <phoneme> or an <alias>.',
    });
    const limit = LEXICON_PLAN_LIMITS.FREE.entries;
    const many = Array.from({ length: limit + 1 }, (_, i) => ({ grapheme: `w${i}`, alias: 'x' }));
    const tooMany = await put('Terms', headers, { language: 'en-US', entries: many });
    expect(tooMany.statusCode).toBe(403);
    expect(tooMany.json()).toEqual({
      message: LEXICON_MESSAGES.tooManyEntries(limit + 1, limit),
    });
    const both = await put('Terms', headers, {
      language: 'en-US',
      entries: [{ grapheme: 'a', alias: 'b', phoneme: 'c' }],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual([
      { path: 'entries.0.alias', message: LEXICON_MESSAGES.aliasOrPhoneme },
    ]);
    const badName = await put('my-names', headers, NAMES);
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toBe(LEXICON_MESSAGES.nameInvalid);
    expect((await list(headers)).lexicons).toEqual([]);
    // FREE keeps one lexicon.
    expect((await put('One', headers, NAMES)).statusCode).toBe(201);
    const second = await put('Two', headers, NAMES);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({ message: LEXICON_MESSAGES.tooManyLexicons(1) });
    // A refused replacement leaves the lexicon as it was.
    expect((await put('One', headers, badPls, PLS_MEDIA_TYPE)).statusCode).toBe(400);
    expect((await put('One', headers, { language: 'en-US', entries: many })).statusCode).toBe(403);
    const kept = await list(headers);
    expect(kept.lexicons.map((lexicon) => [lexicon.name, lexicon.entries])).toEqual([['One', 1]]);
  });

  it('are renamed in one call: within the plan, onto no taken name, only by their owner', async () => {
    const owner = await signedInUser(app, { plan: 'FREE' });
    const headers = { authorization: owner.authorization };
    const rename = (from: string, payload: unknown, as: Headers = headers) =>
      app.inject({
        method: 'POST',
        url: `/api/lexicons/${from}/rename`,
        headers: as,
        ...(payload !== undefined && { payload: payload as object }),
      });
    const made = LexiconSchema.parse(
      (await put('Names', headers, { ...NAMES, default: true })).json(),
    );
    // A FREE user's one lexicon (a copy under the new name would be refused at the limit).
    const renamed = await rename('Names', { name: 'People' });
    expect(renamed.statusCode).toBe(200);
    expect(LexiconSchema.parse(renamed.json())).toEqual({
      ...made,
      name: 'People',
      updated_at: expect.any(String),
    });
    expect((await list(headers)).lexicons).toEqual([
      expect.objectContaining({ name: 'People', default: true, default_position: 1, entries: 1 }),
    ]);
    expect((await get('/api/lexicons/Names', headers)).statusCode).toBe(404);
    // Read under its new name, its entries kept.
    expect((await get('/api/lexicons/People', headers)).json()).toMatchObject({
      entries: made.entries,
    });
    // The same name: nothing to do, the lexicon as it is.
    const same = await rename('People', { name: 'People' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: 'People', entries: made.entries });
    // Unknown lexicon: 404.
    const unknown = await rename('Nobody', { name: 'Somebody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: LEXICON_MESSAGES.notFound('Nobody') });

    // Onto a name the user already has: 409, both as they were.
    const business = await signedInUser(app, { plan: 'BASIC' });
    const two = { authorization: business.authorization };
    await put('First', two, { ...NAMES, default: true });
    await put('Second', two, {
      language: 'en-GB',
      entries: [{ grapheme: 'Siobhan', alias: 'shiv awn' }],
    });
    const before = await list(two);
    const taken = await rename('First', { name: 'Second' }, two);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: LEXICON_MESSAGES.nameTaken('Second') });
    expect(await list(two)).toEqual(before);
    expect((await get('/api/lexicons/Second', two)).json()).toMatchObject({ language: 'en-GB' });

    // Another user's lexicon: 404, and it is unchanged.
    const theirs = await rename('First', { name: 'Mine' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: LEXICON_MESSAGES.notFound('First') });
    expect(await list(two)).toEqual(before);

    // Malformed: 400 naming the field; nothing changed.
    for (const [payload, path] of [
      [{ name: 'my-names' }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'a'.repeat(21) }, 'name'],
      [{ name: 42 }, 'name'],
      [{}, 'name'],
    ] as const) {
      const bad = await rename('People', payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json()).toEqual({
        message: LEXICON_MESSAGES.nameInvalid,
        errors: [{ path, message: LEXICON_MESSAGES.nameInvalid }],
      });
    }
    const badPath = await rename('my-names', { name: 'Fine' });
    expect(badPath.statusCode).toBe(400);
    expect(badPath.json().message).toBe(LEXICON_MESSAGES.nameInvalid);
    for (const payload of [undefined, 'People', [] as unknown]) {
      const bad = await rename('People', payload);
      expect(bad.statusCode, String(payload)).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode, String(payload)).toBeLessThan(500);
    }
    expect((await list(headers)).lexicons.map((lexicon) => lexicon.name)).toEqual(['People']);
    // Signed in only.
    expect((await rename('People', { name: 'Other' }, {})).statusCode).toBe(401);
    // In the OpenAPI document (and so in the fuzz suite, which sends bad input to every route).
    const paths = app.swagger().paths as Record<string, Record<string, object>>;
    const documented = JSON.stringify(paths['/api/lexicons/{name}/rename']?.post);
    expect(documented).toContain('"operationId":"postLexiconsRenameByName"');
    expect(documented).toContain('"required":["name"]');
  });

  it("never show or apply another user's lexicon", async () => {
    const owner = await signedInUser(app, { plan: 'BASIC' });
    const other = await signedInUser(app, { plan: 'BASIC' });
    expect((await put('Private', { authorization: owner.authorization }, NAMES)).statusCode).toBe(
      201,
    );
    const peek = await get('/api/lexicons/Private', { authorization: other.authorization });
    expect(peek.statusCode).toBe(404);
    expect(peek.json()).toEqual({ message: LEXICON_MESSAGES.notFound('Private') });
    expect((await list({ authorization: other.authorization })).lexicons).toEqual([]);
    const removal = await app.inject({
      method: 'DELETE',
      url: '/api/lexicons/Private',
      headers: { authorization: other.authorization },
    });
    expect(removal.statusCode).toBe(404);
    const before = other.user.count_characters;
    const refused = await converted({ authorization: other.authorization }, 'I met Nguyen.', [
      'Private',
    ]);
    expect(refused.status).toBe(400);
    expect(refused.result.message).toBe(LEXICON_MESSAGES.unknownInConversion('Private'));
    const row = await app.db
      .selectFrom('users')
      .select('count_characters')
      .where('id', '=', other.user.id)
      .executeTakeFirstOrThrow();
    expect(row.count_characters).toBe(before);
    // Nor by an SSML <lexicon uri>.
    const ssml = await converted(
      { authorization: other.authorization },
      '<speak><lexicon uri="Private" xml:id="p"/>I met Nguyen.</speak>',
    );
    expect(ssml.status).toBe(400);
    expect(ssml.result.message).toBe('1:8: <lexicon uri="Private"> names none of your lexicons');
    // Anonymous visitors have none.
    const anonymous = await converted({}, 'I met Nguyen.', ['Private']);
    expect(anonymous.result.message).toBe(LEXICON_MESSAGES.unknownInConversion('Private'));
    // Every lexicon route wants a signed-in caller.
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const anonymousCall = await app.inject({
        method,
        url: '/api/lexicons/Private',
        payload: NAMES,
      });
      expect(anonymousCall.statusCode).toBe(401);
    }
    expect((await get('/api/lexicons', {})).statusCode).toBe(401);
  });

  it('apply to conversions: named in order, else the defaults, and none with []', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const headers = { authorization };
    await put('Names', headers, { ...NAMES, default: true });
    await put('Other', headers, {
      language: 'en',
      entries: [{ grapheme: 'Nguyen', alias: 'new yen' }],
    });
    const text = 'I met Nguyen.';
    const win = (await converted(headers, 'I met win.', [])).samples;
    const newYen = (await converted(headers, 'I met new yen.', [])).samples;
    const plain = (await converted(headers, text, [])).samples;
    if (!win || !newYen || !plain) throw new Error('no audio');
    const near = (a: Float32Array | undefined, b: Float32Array) => difference(a ?? b, b) < 0.02;
    expect(near(plain, win)).toBe(false);
    expect(near((await converted(headers, text)).samples, win)).toBe(true);
    expect(near((await converted(headers, text, ['Other', 'Names'])).samples, newYen)).toBe(true);
    expect(near((await converted(headers, text, ['Names', 'Other'])).samples, win)).toBe(true);
    // The public API takes the same names, and an API key may manage lexicons.
    const key = await app.inject({
      method: 'POST',
      url: '/api/account/api_keys',
      headers,
      payload: { name: 'lexicons' },
    });
    const apiKey = { 'x-api-key': (key.json() as { key: string }).key };
    expect((await list(apiKey)).lexicons.map((lexicon) => lexicon.name)).toEqual([
      'Names',
      'Other',
    ]);
    const spoken = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { ...apiKey, accept: 'audio/*' },
      payload: { text, voice: 'standard:en-us', format: 'wav', lexicon_names: ['Other'] },
    });
    expect(spoken.statusCode).toBe(200);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: apiKey,
      payload: { text, lexicon_names: ['Nope'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(LEXICON_MESSAGES.unknownInConversion('Nope'));
    const tooMany = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: apiKey,
      payload: { text, lexicon_names: ['a', 'b', 'c', 'd', 'e', 'f'] },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(LEXICON_MESSAGES.namesTooMany);
    // Eight conversions: more than the default 20 s on a busy machine.
  }, 90_000);

  it("apply to the OpenAI-compatible route as the key owner's defaults", async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const headers = { authorization };
    const key = await app.inject({
      method: 'POST',
      url: '/api/account/api_keys',
      headers,
      payload: { name: 'openai' },
    });
    const bytes = async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/audio/speech',
        headers: { authorization: `Bearer ${(key.json() as { key: string }).key}` },
        payload: { model: 'tts-1', voice: 'alloy', input: 'I met Nguyen.', response_format: 'wav' },
      });
      expect(response.statusCode).toBe(200);
      return response.rawPayload.length;
    };
    const long = {
      language: 'en',
      entries: [{ grapheme: 'Nguyen', alias: 'the one name nobody here can ever say right' }],
    };
    await put('Names', headers, { ...long, default: true });
    const withDefault = await bytes();
    await put('Names', headers, { ...long, default: false });
    // The many words of the alias against the one name: WAV bytes grow with the audio.
    expect(withDefault).toBeGreaterThan(2 * (await bytes()));
  }, 60_000);

  it('are checked when a job names them', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const job = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { text: 'A short book.', lexicon_names: ['Missing'] },
    });
    expect(job.statusCode).toBe(400);
    expect(job.json()).toEqual({ message: LEXICON_MESSAGES.unknownInConversion('Missing') });
  });
});
