import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ADMIN_VOICE_MESSAGES,
  AdminAuditListSchema,
  AdminAvailableVoicesSchema,
  type AdminVoiceCatalogue,
  AdminVoiceCatalogueSchema,
  AdminVoiceInstallStateSchema,
  type Language,
} from '@parla/contract';
import { startVoiceHosts } from '@parla/speech/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../../test/redis.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { setRole } from '../../services/admin/administrators.js';
import { VOICE_SETTINGS_TTL_MS } from '../../services/voices/voice-settings.js';

/*
 * The console's Voices (issue 31 §6, decision 052), on a database of this file's own (hidden
 * voices would change every other file's catalogue) shared by two servers, with a voices
 * directory of its own and the loopback hosts that answer as Hugging Face and GitHub do.
 */
const hosts = await startVoiceHosts();
afterAll(() => hosts.close());
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-admin-voices-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const voicesDir = path.join(dataDir, 'voices');
const ownUrl = await ownDatabaseUrl('voices');
const env = {
  DATABASE_URL: ownUrl || `sqlite:${path.join(dataDir, 'parla.sqlite')}`,
  VOICES_DIR: voicesDir,
  PIPER_VOICES_URL: hosts.piperBase,
  KOKORO_MODELS_URL: hosts.kokoroBase,
};
const app = await createTestApp({ config: testConfig(env), conversionsPerMinute: 1000 });
await app.ready();
/** Another server on the same database (no Redis): it hears of a change within the TTL. */
const other = await createTestApp({ config: testConfig(env), conversionsPerMinute: 1000 });
await other.ready();

type App = typeof app;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const signedIn = await signedInUser(app);
expect((await setRole(app.db, { id: signedIn.user.id }, 'ADMIN', null)).ok).toBe(true);
const authorization = signedIn.authorization;

const admin = (method: Method, url: string, payload?: object, on: App = app) =>
  on.inject({ method, url, headers: { authorization }, ...(payload && { payload }) });

async function adminCatalogue(): Promise<AdminVoiceCatalogue> {
  const response = await admin('GET', '/api/admin/voices');
  expect(response.statusCode, response.body).toBe(200);
  return AdminVoiceCatalogueSchema.parse(response.json());
}

async function siteVoices(on: App = app, query = ''): Promise<Language[]> {
  const response = await on.inject({ method: 'GET', url: `/api/convertor/voices${query}` });
  expect(response.statusCode).toBe(200);
  return response.json() as Language[];
}

const voiceIds = (languages: Language[]) =>
  languages.flatMap((language) => language.voices.map((voice) => voice.id));
const languageCodes = (languages: Language[]) => languages.map((l) => l.language_code);

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - start;
}

async function latestAudit() {
  const response = await admin('GET', '/api/admin/audit?per_page=1');
  return AdminAuditListSchema.parse(response.json()).items[0];
}

/** English voices of espeak-ng: a second one to hide while the first still speaks. */
async function englishVoices() {
  const english = (await adminCatalogue()).languages.find((l) => l.language_code === 'en-us');
  const standard = english?.voices.filter((voice) => voice.engine === 'standard') ?? [];
  expect(standard.length).toBeGreaterThan(1);
  return standard;
}

describe(`the console's voices (${TEST_DATABASE_KIND})`, () => {
  it('hides a voice from the site, the API, OpenAI’s route and conversions, on both servers, and shows it again', async () => {
    const [, hiddenVoice] = await englishVoices();
    const id = hiddenVoice?.id ?? '';
    expect(voiceIds(await siteVoices())).toContain(id);
    expect(voiceIds(await siteVoices(other))).toContain(id);
    // Browsers keep the list only to ask again with its ETag: the same list is a 304.
    const listing = await app.inject({ method: 'GET', url: '/api/convertor/voices' });
    expect(listing.headers['cache-control']).toBe('public, no-cache');
    const tag = String(listing.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices',
      headers: { 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);

    const hiding = await admin('PUT', '/api/admin/voices/voice', { voice_id: id, hidden: true });
    expect(hiding.statusCode, hiding.body).toBe(200);
    const answered = AdminVoiceCatalogueSchema.parse(hiding.json());
    const listed = answered.languages.flatMap((l) => l.voices).find((v) => v.id === id);
    expect(listed?.hidden).toBe(true);
    expect(await latestAudit()).toMatchObject({
      action: 'voice.visibility',
      target_type: 'voice',
      target_id: id,
      before: { hidden: false },
      after: { hidden: true },
      actor_email: signedIn.user.email,
    });

    // At once on this server (a browser asking with the old ETag gets the new list); on the
    // other within the settings' time to live.
    expect(voiceIds(await siteVoices())).not.toContain(id);
    const revalidated = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices',
      headers: { 'if-none-match': tag },
    });
    expect(revalidated.statusCode).toBe(200);
    expect(voiceIds(revalidated.json() as Language[])).not.toContain(id);
    const waited = await until(
      async () => !voiceIds(await siteVoices(other)).includes(id),
      VOICE_SETTINGS_TTL_MS + 2000,
    );
    expect(waited).toBeLessThanOrEqual(VOICE_SETTINGS_TTL_MS + 2000);

    // Refused wherever a conversion names it, with a 4xx naming the voice.
    for (const [on, url] of [
      [app, '/api/convertor'],
      [other, '/api/convertor'],
      [app, '/api/convertor?stream=true'],
    ] as const) {
      const convert = await on.inject({
        method: 'POST',
        url,
        payload: voiceSettings({ voice_id: id }),
      });
      expect(convert.statusCode).toBe(400);
      expect(convert.json().message).toBe(ADMIN_VOICE_MESSAGES.hiddenVoice(id));
    }
    const api = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization },
      payload: { text: 'Hello.', voice: id },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json().errors[0].path).toBe('voice');
    const openAi = await app.inject({
      method: 'POST',
      url: '/v1/audio/speech',
      headers: { authorization },
      payload: { model: 'tts-1', input: 'Hello.', voice: id, response_format: 'wav' },
    });
    expect(openAi.statusCode).toBe(400);
    expect(openAi.json().error.param).toBe('voice');
    const preview = await app.inject({
      method: 'GET',
      url: `/api/convertor/voices/preview?voice=${encodeURIComponent(id)}`,
    });
    expect(preview.statusCode).toBe(404);

    // Shown again: listed and converting.
    const showing = await admin('PUT', '/api/admin/voices/voice', { voice_id: id, hidden: false });
    expect(showing.statusCode).toBe(200);
    expect(voiceIds(await siteVoices())).toContain(id);
    const spoken = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ voice_id: id }),
    });
    expect(spoken.json(), spoken.body).toMatchObject({ success: true });
    const wav = (await app.inject({ method: 'GET', url: spoken.json().path })).rawPayload;
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    const samples = new Int16Array(
      wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length),
    );
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(1000);
  }, 60_000);

  it('hides a whole language, then shows it again', async () => {
    expect(languageCodes(await siteVoices())).toContain('fr-fr');
    const hiding = await admin('PUT', '/api/admin/voices/language', {
      language_code: 'fr-FR',
      hidden: true,
    });
    expect(hiding.statusCode, hiding.body).toBe(200);
    const french = AdminVoiceCatalogueSchema.parse(hiding.json()).languages.find(
      (l) => l.language_code === 'fr-fr',
    );
    expect(french).toMatchObject({ hidden: true, default_voice_id: null });
    expect(await latestAudit()).toMatchObject({
      action: 'language.settings',
      target_id: 'fr-fr',
      before: { hidden: false, default_voice_id: null },
      after: { hidden: true, default_voice_id: null },
    });
    expect(languageCodes(await siteVoices())).not.toContain('fr-fr');
    expect(languageCodes(await siteVoices(app, '?language=fr'))).not.toContain('fr-fr');
    const voice = french?.voices[0]?.id ?? '';
    const convert = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ voice_id: voice, language_code: 'fr-fr', text: 'Bonjour.' }),
    });
    expect(convert.statusCode).toBe(400);
    expect(convert.json().message).toBe(ADMIN_VOICE_MESSAGES.hiddenVoice(voice));
    const api = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization },
      payload: { text: 'Bonjour.', voice },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json().errors[0].path).toBe('voice');

    expect(
      (await admin('PUT', '/api/admin/voices/language', { language_code: 'fr-fr', hidden: false }))
        .statusCode,
    ).toBe(200);
    expect(languageCodes(await siteVoices())).toContain('fr-fr');
  }, 60_000);

  it('sets the voice a language starts on: first in the site’s list and the API’s default', async () => {
    const standard = await englishVoices();
    const last = standard.at(-1)?.id ?? '';
    expect(voiceIds(await siteVoices(app, '?language=en-US&engine=standard'))[0]).not.toBe(last);
    const setting = await admin('PUT', '/api/admin/voices/language', {
      language_code: 'en-us',
      default_voice_id: last,
    });
    expect(setting.statusCode, setting.body).toBe(200);
    const english = (await siteVoices(app, '?engine=standard')).find(
      (l) => l.language_code === 'en-us',
    );
    expect(english?.voices[0]?.id).toBe(last);
    // The API's voice when a language but no voice is named: the default's audio, not the first's.
    const speak = async (payload: object) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/speech',
        headers: { authorization },
        payload: { text: 'Hello there.', engine: 'standard', format: 'wav', ...payload },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.rawPayload.subarray(0, 4).toString('ascii')).toBe('RIFF');
      // The samples after the header (a first rendering, streamed, has no sizes in it).
      return response.rawPayload.subarray(44);
    };
    const byDefault = await speak({ language: 'en-US' });
    expect(byDefault.equals(await speak({ voice: last }))).toBe(true);
    expect(byDefault.equals(await speak({ voice: standard[0]?.id }))).toBe(false);

    // A hidden voice cannot become the default; one of another language neither.
    await admin('PUT', '/api/admin/voices/voice', { voice_id: standard[0]?.id, hidden: true });
    const hidden = await admin('PUT', '/api/admin/voices/language', {
      language_code: 'en-us',
      default_voice_id: standard[0]?.id,
    });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().errors[0].path).toBe('default_voice_id');
    await admin('PUT', '/api/admin/voices/voice', { voice_id: standard[0]?.id, hidden: false });
    const elsewhere = await admin('PUT', '/api/admin/voices/language', {
      language_code: 'fr-fr',
      default_voice_id: last,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toBe(ADMIN_VOICE_MESSAGES.defaultNotOfLanguage(last, 'fr-fr'));

    // Back to the catalogue's order.
    await admin('PUT', '/api/admin/voices/language', {
      language_code: 'en-us',
      default_voice_id: null,
    });
    expect(voiceIds(await siteVoices(app, '?language=en-US&engine=standard'))[0]).not.toBe(last);
  }, 60_000);

  it('refuses malformed bodies with a 400 naming the field', async () => {
    const cases: [Method, string, object, string][] = [
      ['PUT', '/api/admin/voices/voice', { voice_id: '', hidden: true }, 'voice_id'],
      ['PUT', '/api/admin/voices/voice', { voice_id: 'standard:en-us', hidden: 'yes' }, 'hidden'],
      [
        'PUT',
        '/api/admin/voices/voice',
        { voice_id: 'standard:nowhere', hidden: true },
        'voice_id',
      ],
      [
        'PUT',
        '/api/admin/voices/language',
        { language_code: 'not a code', hidden: true },
        'language_code',
      ],
      [
        'PUT',
        '/api/admin/voices/language',
        { language_code: 'xx-yy', hidden: true },
        'language_code',
      ],
      ['PUT', '/api/admin/voices/language', { language_code: 'en-us' }, 'hidden'],
      [
        'PUT',
        '/api/admin/voices/language',
        { language_code: 'en-us', default_voice_id: 3 },
        'default_voice_id',
      ],
      ['POST', '/api/admin/voices/install', { name: '../etc' }, 'name'],
      ['POST', '/api/admin/voices/install', {}, 'name'],
      ['POST', '/api/admin/voices/install', { name: 'de_DE-nobody-low' }, 'name'],
    ];
    for (const [method, url, body, field] of cases) {
      const response = await admin(method, url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(
        response.json().errors?.[0]?.path,
        `${url} ${JSON.stringify(body)}: ${response.body}`,
      ).toBe(field);
    }
    const missing = await admin('DELETE', '/api/admin/voices/installed/nothing-here');
    expect(missing.statusCode).toBe(404);
  });

  it('installs a Piper voice from its catalogue with progress, lists it with size and licence, and removes it', async () => {
    const available = AdminAvailableVoicesSchema.parse(
      (await admin('GET', '/api/admin/voices/available')).json(),
    );
    expect(available.problem).toBeNull();
    const piper = available.voices.find((voice) => voice.name === 'en_US-test-x_low');
    expect(piper).toMatchObject({ architecture: 'piper', installed: false, language: 'en_US' });
    expect(available.voices.some((voice) => voice.architecture === 'kokoro')).toBe(true);

    hosts.slow(20);
    try {
      const started = await admin('POST', '/api/admin/voices/install', {
        name: 'en_US-test-x_low',
      });
      expect(started.statusCode, started.body).toBe(202);
      expect(AdminVoiceInstallStateSchema.parse(started.json())).toMatchObject({
        state: 'installing',
        name: 'en_US-test-x_low',
      });
      // One at a time on a server.
      const second = await admin('POST', '/api/admin/voices/install', {
        name: 'kokoro-int8-multi-lang-v1_0',
      });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(ADMIN_VOICE_MESSAGES.installBusy('en_US-test-x_low'));
      let seen = 0;
      await until(async () => {
        const state = AdminVoiceInstallStateSchema.parse(
          (await admin('GET', '/api/admin/voices/install')).json(),
        );
        if (state.state === 'installing') seen = Math.max(seen, state.bytes);
        expect(state.state).not.toBe('failed');
        return state.state === 'installed';
      }, 60_000);
      expect(seen).toBeGreaterThan(0);
    } finally {
      hosts.slow(0);
    }
    const catalogue = await adminCatalogue();
    const installed = catalogue.installed.find((voice) => voice.name === 'en_US-test-x_low');
    expect(installed?.bytes).toBeGreaterThan(1000);
    expect(installed?.license).toEqual(expect.any(String));
    const neural = catalogue.languages.flatMap((l) => l.voices).filter((v) => v.installed);
    expect(neural.length).toBeGreaterThan(0);
    expect(neural.every((voice) => voice.installed === 'en_US-test-x_low')).toBe(true);
    await until(
      async () => voiceIds(await siteVoices()).some((id) => id.includes('en_US-test-x_low')),
      10_000,
    );
    expect(await latestAudit()).toMatchObject({
      action: 'voice.install',
      target_id: 'en_US-test-x_low',
    });

    const again = await admin('POST', '/api/admin/voices/install', { name: 'en_US-test-x_low' });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].path).toBe('name');

    const removed = await admin('DELETE', '/api/admin/voices/installed/en_US-test-x_low');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(AdminVoiceCatalogueSchema.parse(removed.json()).installed).toEqual([]);
    expect((await readdir(voicesDir)).filter((name) => !name.startsWith('.'))).toEqual([]);
    await until(
      async () => !voiceIds(await siteVoices()).some((id) => id.includes('en_US-test-x_low')),
      10_000,
    );
    expect(await latestAudit()).toMatchObject({
      action: 'voice.remove',
      target_id: 'en_US-test-x_low',
      before: { name: 'en_US-test-x_low' },
      after: null,
    });
  }, 90_000);

  it('cancels an install: nothing is installed', async () => {
    hosts.slow(200);
    try {
      const started = await admin('POST', '/api/admin/voices/install', {
        name: 'kokoro-int8-multi-lang-v1_0',
      });
      expect(started.statusCode, started.body).toBe(202);
      const cancelled = await admin('DELETE', '/api/admin/voices/install');
      expect(cancelled.statusCode).toBe(200);
      await until(async () => {
        const state = AdminVoiceInstallStateSchema.parse(
          (await admin('GET', '/api/admin/voices/install')).json(),
        );
        return state.state === 'cancelled';
      }, 20_000);
    } finally {
      hosts.slow(0);
    }
    expect((await adminCatalogue()).installed).toEqual([]);
  }, 30_000);
});

const redis = await testRedis('the voice settings message');
describe.skipIf(!redis.reachable)('with Redis', () => {
  it('tells the other servers at once', async () => {
    const shared = {
      ...env,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redis.prefix,
    };
    const first = await createTestApp({ config: testConfig(shared) });
    const second = await createTestApp({ config: testConfig(shared) });
    await Promise.all([first.ready(), second.ready()]);
    try {
      const [, voice] = await englishVoices();
      const id = voice?.id ?? '';
      // Each test server has its own token secret: an administrator signed in on `first`.
      const operator = await signedInUser(first);
      expect((await setRole(first.db, { id: operator.user.id }, 'ADMIN', null)).ok).toBe(true);
      const hide = (hidden: boolean) =>
        first.inject({
          method: 'PUT',
          url: '/api/admin/voices/voice',
          headers: { authorization: operator.authorization },
          payload: { voice_id: id, hidden },
        });
      expect(voiceIds(await siteVoices(second))).toContain(id);
      expect((await hide(true)).statusCode).toBe(200);
      // Well within the time to live: the message, not the expiry, made it visible.
      const waited = await until(
        async () => !voiceIds(await siteVoices(second)).includes(id),
        VOICE_SETTINGS_TTL_MS - 1000,
      );
      expect(waited).toBeLessThan(VOICE_SETTINGS_TTL_MS - 1000);
      expect((await hide(false)).statusCode).toBe(200);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});
