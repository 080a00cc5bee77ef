import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../../test/s3.js';
import { createTestApp, testConfig } from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import { type ObjectStorage, within } from './storage.js';

const s3 = await startS3();
afterAll(() => s3.close());
const localDir = mkdtempSync(path.join(tmpdir(), 'parla-storage-'));
afterAll(() => rmSync(localDir, { recursive: true, force: true }));

const bytesOf = async (stream: Readable | undefined) => stream && buffer(stream);

const implementations: Array<[string, () => ObjectStorage]> = [
  ['local disk', () => createLocalStorage(localDir)],
  ['S3 (s3rver through the AWS SDK)', () => createS3Storage(s3.options)],
];

describe.each(implementations)('object storage on %s', (_name, create) => {
  const storage = create();
  afterAll(() => storage.close());
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  it('stores, describes, streams whole or by range, lists and removes objects', async () => {
    await storage.check();
    await storage.put('audio/one.wav', bytes, 'audio/wav');
    await storage.put('saved/user-1/two.mp3', bytes.subarray(0, 10), 'audio/mpeg');

    const info = await storage.stat('audio/one.wav');
    expect(info?.size).toBe(1000);
    expect(Math.abs((info?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect((await bytesOf(await storage.read('audio/one.wav')))?.equals(bytes)).toBe(true);
    const range = await bytesOf(await storage.read('audio/one.wav', { start: 10, end: 19 }));
    expect(range?.equals(bytes.subarray(10, 20))).toBe(true);

    expect((await storage.list('audio')).map((entry) => entry.key)).toEqual(['audio/one.wav']);
    const saved = within(storage, 'saved');
    expect((await saved.list('')).map((entry) => entry.key)).toEqual(['user-1/two.mp3']);
    expect(await saved.stat('user-1/two.mp3')).toMatchObject({ size: 10 });

    await storage.remove('audio/one.wav');
    await saved.remove('user-1/two.mp3');
    // Removing what is gone is not an error.
    await storage.remove('audio/one.wav');
    expect(await storage.stat('audio/one.wav')).toBeUndefined();
    expect(await storage.read('audio/one.wav')).toBeUndefined();
    expect(await storage.list('audio')).toEqual([]);
  });

  it('stores a stream of a known length without a partial object on a short one', async () => {
    async function* pieces(count: number) {
      for (let i = 0; i < count; i++) yield bytes.subarray(i * 100, (i + 1) * 100);
    }
    await storage.putStream('jobs/j1/book.mp3', Readable.from(pieces(10)), 1000, 'audio/mpeg');
    expect((await bytesOf(await storage.read('jobs/j1/book.mp3')))?.equals(bytes)).toBe(true);
    // Fewer bytes than announced: refused, and nothing is left under the key.
    await expect(
      storage.putStream('jobs/j1/short.mp3', Readable.from(pieces(3)), 1000),
    ).rejects.toThrow();
    expect(await storage.stat('jobs/j1/short.mp3')).toBeUndefined();
    await storage.remove('jobs/j1/book.mp3');
  });

  it('overwrites a key whole', async () => {
    await storage.put('audio/again.ogg', bytes);
    await storage.put('audio/again.ogg', bytes.subarray(0, 3));
    expect((await bytesOf(await storage.read('audio/again.ogg')))?.length).toBe(3);
    await storage.remove('audio/again.ogg');
  });

  it('refuses keys that could leave their folder', async () => {
    for (const key of ['../secrets.json', 'audio/../../x', '/etc/passwd', 'audio//x', '']) {
      await expect(storage.put(key, bytes)).rejects.toThrow(/Bad storage key/);
    }
  });
});

describe('S3 storage', () => {
  it('fails its check on a bucket that does not exist', async () => {
    const missing = createS3Storage({ ...s3.options, bucket: 'no-such-bucket' });
    try {
      await expect(missing.check()).rejects.toThrow();
    } finally {
      missing.close();
    }
  });

  it('is refused with a wrong secret (the S3 stand-in checks signatures as S3 does)', async () => {
    const wrong = createS3Storage({
      ...s3.options,
      credentials: { ...s3.options.credentials, secretAccessKey: 'not-the-secret' },
    });
    const right = createS3Storage(s3.options);
    try {
      await expect(wrong.check()).rejects.toThrow();
      await expect(wrong.put('audio/forged.wav', Buffer.from('forged'))).rejects.toThrow(
        /signature/i,
      );
      expect(await right.stat('audio/forged.wav')).toBeUndefined();
    } finally {
      wrong.close();
      right.close();
    }
  });

  it('serves a whole installation from the bucket: converted audio, whole and by range', async () => {
    const config = testConfig({ ...s3.env, JWT_SECRET: 'x'.repeat(40) });
    const app = await createTestApp({ config });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.json()).toEqual({ status: 'ready', database: true, storage: true });

    const converted = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ text: 'Stored in a bucket.' }),
    });
    expect(converted.statusCode).toBe(200);
    const { path: audioPath } = converted.json() as { path: string };
    const file = audioPath.split('/').pop() ?? '';
    const bucket = createS3Storage(s3.options);
    try {
      const stored = await bucket.stat(`audio/${file}`);
      expect(stored?.size).toBeGreaterThan(1000);

      const whole = await app.inject({ method: 'GET', url: audioPath });
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.length).toBe(stored?.size);
      expect(whole.rawPayload.toString('latin1', 0, 4)).toBe('RIFF');
      const tail = await app.inject({
        method: 'GET',
        url: audioPath,
        headers: { range: 'bytes=-100' },
      });
      expect(tail.statusCode).toBe(206);
      expect(tail.headers['content-range']).toBe(
        `bytes ${(stored?.size ?? 0) - 100}-${(stored?.size ?? 0) - 1}/${stored?.size}`,
      );
      expect(tail.rawPayload.equals(whole.rawPayload.subarray(-100))).toBe(true);
      // Nothing of it on the local disk.
      expect(await createLocalStorage(path.join(config.dataDir, 'files')).list('audio')).toEqual(
        [],
      );
    } finally {
      bucket.close();
    }
  });
});
