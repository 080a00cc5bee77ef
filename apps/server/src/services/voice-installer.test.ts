import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startVoiceHosts, unreachableUrl, type VoiceHosts } from '@parla/speech/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig } from '../../test/test-app.js';
import { voiceSettings } from '../../test/voice-settings.js';
import { createVoiceInstaller } from './voice-installer.js';

/**
 * DEFAULT_VOICES at start, against a loopback server that answers as GitHub's release
 * downloads and Hugging Face do (@parla/speech/testing): never the real hosts.
 */

const KOKORO = 'kokoro-int8-multi-lang-v1_0';
let hosts: VoiceHosts;

beforeAll(async () => {
  hosts = await startVoiceHosts();
});
afterAll(() => hosts.close());

function voicesDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parla-default-voices-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

type Ready = {
  status: string;
  voices?: { installing: { name: string; bytes: number; total: number | null }[] };
};

interface Language {
  language_code: string;
  voices: { id: string; engine: string }[];
}

async function neuralIds(app: Awaited<ReturnType<typeof createTestApp>>): Promise<string[]> {
  const response = await app.inject({ method: 'GET', url: '/api/convertor/voices?engine=neural' });
  return (response.json() as Language[]).flatMap((l) => l.voices.map((v) => v.id));
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A collecting log, as pino's methods are called. */
function collectingLog() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (_data: object, message: string) => {
    lines.push({ level, message });
  };
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('default voices at start', () => {
  it('installs in the background: ready at once, espeak-ng answering, progress in /api/ready, the voice listed when done', async () => {
    hosts.slow(20);
    hosts.cut('/objects/', 100_000);
    const before = hosts.requests.length;
    const dir = voicesDir();
    const app = await createTestApp({
      config: testConfig({
        VOICES_DIR: dir,
        DEFAULT_VOICES: KOKORO,
        KOKORO_MODELS_URL: hosts.kokoroBase,
      }),
      conversionsPerMinute: 1000,
    });
    try {
      // The first requests are answered while the download runs.
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      const body = ready.json() as Ready;
      expect(body.status).toBe('ready');
      expect(body.voices?.installing).toEqual([
        { name: KOKORO, bytes: expect.any(Number), total: expect.any(Number) },
      ]);
      expect(await neuralIds(app)).toEqual([]);
      const plain = (
        await app.inject({ method: 'GET', url: '/api/content/pages/default/convertor' })
      ).body;
      expect(plain).toContain('Turn your text into speech');
      expect(plain).not.toContain('natural');
      const standard = await app.inject({
        method: 'POST',
        url: '/api/convertor',
        payload: voiceSettings({ text: 'espeak-ng speaks meanwhile.' }),
      });
      expect(standard.json()).toMatchObject({ success: true });
      const audio = await app.inject({ method: 'GET', url: standard.json().path });
      expect(audio.rawPayload.subarray(0, 4).toString('ascii')).toBe('RIFF');

      // Progress moves, then the voice joins the catalogue without a restart.
      let seen = 0;
      await until(async () => {
        const installing = (
          (await app.inject({ method: 'GET', url: '/api/ready' })).json() as Ready
        ).voices?.installing;
        seen = Math.max(seen, installing?.[0]?.bytes ?? 0);
        return installing?.length === 0;
      });
      expect(seen).toBeGreaterThan(0);
      await until(async () => (await neuralIds(app)).includes(`neural:${KOKORO}#2`));
      const french = await app.inject({
        method: 'POST',
        url: '/api/convertor',
        payload: voiceSettings({
          engine: 'neural',
          voice_id: `neural:${KOKORO}#2`,
          language_code: 'fr-fr',
          text: 'Une voix naturelle.',
        }),
      });
      expect(french.json(), french.body).toMatchObject({ success: true });
      const wav = (await app.inject({ method: 'GET', url: french.json().path })).rawPayload;
      // 16-bit mono at 24 kHz after a 44-byte header: the test model's tone, not silence.
      const samples = new Int16Array(
        wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length),
      );
      expect(samples.length).toBeGreaterThan(2400);
      expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(1000);

      // Now, and only now, the site speaks of natural speech.
      const page = (
        await app.inject({ method: 'GET', url: '/api/content/pages/default/convertor' })
      ).body;
      expect(page).toContain('Turn your text into natural speech');

      // The cut download was resumed, not started over.
      const objects = hosts.requests.slice(before).filter((r) => r.path.startsWith('/objects/'));
      expect(objects.map((r) => [r.status, r.range])).toEqual([
        [200, undefined],
        [206, 'bytes=100000-'],
      ]);
    } finally {
      hosts.slow(0);
      await app.close();
    }
  }, 90_000);

  it('lets two servers sharing VOICES_DIR start together: one download, both list the voice', async () => {
    const dir = voicesDir();
    hosts.slow(5);
    const before = hosts.requests.length;
    const env = { VOICES_DIR: dir, DEFAULT_VOICES: KOKORO, KOKORO_MODELS_URL: hosts.kokoroBase };
    const [first, second] = await Promise.all([
      createTestApp({ config: testConfig(env) }),
      createTestApp({ config: testConfig(env) }),
    ]);
    try {
      await Promise.all([first.ready(), second.ready()]);
      await until(async () => (await neuralIds(first)).length > 0);
      await until(async () => (await neuralIds(second)).length > 0);
      expect(await neuralIds(second)).toEqual(await neuralIds(first));
      const downloads = hosts.requests.slice(before).filter((r) => r.path.startsWith('/objects/'));
      expect(downloads).toHaveLength(1);
      expect((await readdir(dir)).filter((name) => !name.startsWith('.'))).toEqual([KOKORO]);
    } finally {
      hosts.slow(0);
      await first.close();
      await second.close();
    }
  }, 90_000);

  it('DEFAULT_VOICES=none installs nothing and says nothing in /api/ready', async () => {
    const before = hosts.requests.length;
    const app = await createTestApp({
      config: testConfig({
        VOICES_DIR: voicesDir(),
        DEFAULT_VOICES: 'none',
        KOKORO_MODELS_URL: hosts.kokoroBase,
      }),
    });
    const ready = (await app.inject({ method: 'GET', url: '/api/ready' })).json() as Ready;
    expect(ready).toEqual({ status: 'ready', database: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hosts.requests.length).toBe(before);
    expect(await neuralIds(app)).toEqual([]);
  });

  it('without network, says so once with the command that installs from a file, and goes on', async () => {
    const { lines, log } = collectingLog();
    const installer = createVoiceInstaller({
      voicesDir: voicesDir(),
      names: [KOKORO, 'en_US-test-x_low'],
      kokoroBase: await unreachableUrl(),
      piperBase: await unreachableUrl(),
      log,
      retries: 2,
      backoffMs: 1,
    });
    installer.start();
    await installer.settled;
    expect(installer.installing()).toEqual([]);
    expect(lines.filter((l) => l.level !== 'info')).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          /^No network: the natural voices kokoro-int8-multi-lang-v1_0, en_US-test-x_low could not be downloaded \(Cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED\); espeak-ng serves meanwhile\. To install from a file fetched elsewhere: npm run voices -- install \.\/kokoro-int8-multi-lang-v1_0\.tar\.bz2; npm run voices -- install \.\/en_US-test-x_low \(a folder/,
        ),
      },
    ]);
    await installer.close();
  });

  it('refuses a bad DEFAULT_VOICES, naming the variable', () => {
    expect(() => testConfig({ DEFAULT_VOICES: 'kokoro, ../etc' })).toThrow(
      /DEFAULT_VOICES: must be none or a comma-separated list of voice names/,
    );
    expect(testConfig({ DEFAULT_VOICES: 'a-1, b_2' }).defaultVoices.names).toEqual(['a-1', 'b_2']);
    expect(testConfig({ DEFAULT_VOICES: 'none' }).defaultVoices.names).toEqual([]);
  });
});
