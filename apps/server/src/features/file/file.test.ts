import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  FILE_SNIPPET_LENGTH,
  FileListSchema,
  FileSchema,
  fileMediaQuery,
  maxAudioBytes,
  maxConversionSeconds,
  PLAN_STORAGE_QUOTA_BYTES,
  StorageUsageSchema,
  type VoiceSettings,
} from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { multipart } from '../../../test/multipart.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { createLocalStorage } from '../../lib/storage/local.js';
import { type ObjectStorage, within } from '../../lib/storage/storage.js';
import { AUDIO_CHECK_MESSAGES } from '../../services/files/audio-probe.js';
import {
  createFileRepository,
  ORPHAN_GRACE_MS,
  RETENTION_MS,
  snippetOf,
} from '../../services/files/repository.js';
import { FILE_MESSAGES } from './routes.js';

const DAY = 24 * 60 * 60 * 1000;
const config = testConfig();
const disk = createLocalStorage(path.join(config.dataDir, 'files'));
const savedDir = path.join(config.dataDir, 'files', 'saved');
/** The real disk storage; a test may make the next write "crash" right after the bytes land. */
let crashAfterNextPut = false;
const storage: ObjectStorage = {
  ...disk,
  async put(key, bytes) {
    await disk.put(key, bytes);
    if (crashAfterNextPut) {
      crashAfterNextPut = false;
      throw new Error('simulated crash between bytes and metadata');
    }
  },
};
let clock = new Date();
const now = () => clock;
const app = await createTestApp({ config, storage, now, conversionsPerMinute: 1000 });
const files = createFileRepository(app.db, within(storage, 'saved'), now);

const settings = (change: Partial<VoiceSettings> = {}) =>
  voiceSettings({
    text: '<speak>Saved by Parla.</speak>',
    output_format: 'mp3',
    sample_rate: 24000,
    ...change,
  });

/** A genuine PCM WAV: mono 16-bit (16 kHz unless said), `seconds` of a 440 Hz tone. */
function wav(seconds: number, rate = 16000): Buffer {
  const samples = Math.round(rate * seconds);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVEfmt ', 8, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) {
    buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return buffer;
}

const query = (change: Partial<VoiceSettings> = {}) =>
  new URLSearchParams(fileMediaQuery(settings(change))).toString();

async function upload(
  authorization: string,
  bytes: Buffer,
  options: { method?: 'POST' | 'PUT'; id?: string; change?: Partial<VoiceSettings> } = {},
) {
  const body = multipart('media', bytes, 'audio.bin', 'application/octet-stream');
  return app.inject({
    method: options.method ?? 'POST',
    url: `/api/file/media${options.id ? `/${options.id}` : ''}?${query(options.change)}`,
    headers: { authorization, 'x-requested-with': 'parla', ...body.headers },
    payload: body.payload,
  });
}

async function saveSsml(authorization: string, id: string, ssml: string) {
  const body = multipart('ssml', Buffer.from(ssml), 'text.ssml', 'application/ssml+xml');
  return app.inject({
    method: 'POST',
    url: `/api/file/ssml/${id}`,
    headers: { authorization, 'x-requested-with': 'parla', ...body.headers },
    payload: body.payload,
  });
}

const get = (authorization: string, url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization } });

/** Real MP3 from the convertor, as the Save button sends it. */
async function convertedMp3(authorization: string): Promise<{ bytes: Buffer; duration: number }> {
  const converted = await app.inject({
    method: 'POST',
    url: '/api/convertor',
    headers: { authorization },
    payload: settings(),
  });
  const result = converted.json() as { path: string; duration: number };
  const audio = await app.inject({ method: 'GET', url: result.path });
  return { bytes: audio.rawPayload, duration: result.duration };
}

const storedKeys = async () => (await within(disk, 'saved').list('')).map((entry) => entry.key);

describe(`saved files (${TEST_DATABASE_KIND})`, () => {
  it('are saved on paid plans: a FREE user gets an empty list and 403 on saving', async () => {
    const { authorization } = await signedInUser(app, { plan: 'FREE' });
    const list = await get(authorization, '/api/file');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    const saved = await upload(authorization, wav(0.2), {
      change: { output_format: 'wav', sample_rate: 16000 },
    });
    expect(saved.statusCode).toBe(403);
    expect(saved.json().message).toBe(FILE_MESSAGES.paidPlanNeeded);
    expect((await app.inject({ method: 'GET', url: '/api/file' })).statusCode).toBe(401);
  });

  it('saves converted audio and its SSML, lists it and serves both back', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const mp3 = await convertedMp3(authorization);
    const saved = await upload(authorization, mp3.bytes);
    expect(saved.statusCode).toBe(200);
    const file = FileSchema.parse(saved.json());
    expect(file).toMatchObject({
      size: mp3.bytes.byteLength,
      voice_id: 'standard:en-us',
      language_code: 'en-us',
      audio_format: 'mp3',
      audio_sample_rate: 24000,
      engine: 'standard',
    });
    expect(file.length).toBeCloseTo(mp3.duration, 0);
    // Display names come from the voice catalogue, not the codes.
    expect(file.language).not.toBe('en-us');
    expect(file.language).toMatch(/English/);

    const ssml = '<speak>Saved by <emphasis>Parla</emphasis>.</speak>';
    expect((await saveSsml(authorization, file._id, ssml)).statusCode).toBe(200);
    const text = await get(authorization, `/api/file/ssml/${file._id}`);
    expect(text.body).toBe(ssml);
    const media = await get(authorization, `/api/file/media/${file._id}`);
    expect(media.headers['content-type']).toBe('audio/mpeg');
    expect(media.rawPayload.equals(mp3.bytes)).toBe(true);
    // Streamed from the storage with Range support, as converted audio is.
    const tail = await app.inject({
      method: 'GET',
      url: `/api/file/media/${file._id}`,
      headers: { authorization, range: 'bytes=100-' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(
      `bytes 100-${mp3.bytes.length - 1}/${mp3.bytes.length}`,
    );
    expect(tail.rawPayload.equals(mp3.bytes.subarray(100))).toBe(true);
    const list = FileListSchema.parse((await get(authorization, '/api/file')).json());
    expect(list.map((entry) => entry._id)).toEqual([file._id]);
    // The listing tells files apart by the start of their text, without the markup.
    expect(list[0]?.snippet).toBe('Saved by Parla.');
    expect(FileSchema.parse((await get(authorization, `/api/file/${file._id}`)).json())._id).toBe(
      file._id,
    );
  });

  it('checks uploads by their bytes, not their name or declared format', async () => {
    const { authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const text = await upload(authorization, Buffer.from('ID3 this is not audio at all'));
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe(FILE_MESSAGES.notAudio);
    const mismatch = await upload(authorization, wav(0.2));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(FILE_MESSAGES.formatMismatch('wav', 'mp3'));
    const empty = await app.inject({
      method: 'POST',
      url: `/api/file/media?${query()}`,
      headers: { authorization, 'x-requested-with': 'parla' },
      payload: { media: 'nope' },
    });
    expect(empty.statusCode).toBe(400);
    expect(FileListSchema.parse((await get(authorization, '/api/file')).json())).toEqual([]);
  });

  it('refuses audio that does not decode as the format and rate it claims', async () => {
    const { authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const headerOnly = await upload(authorization, wav(0), { change: wavChange });
    expect(headerOnly.statusCode).toBe(400);
    expect(headerOnly.json().message).toBe(FILE_MESSAGES.notAudio);
    const otherRate = await upload(authorization, wav(0.5, 22050), { change: wavChange });
    expect(otherRate.statusCode).toBe(400);
    expect(otherRate.json().message).toBe(AUDIO_CHECK_MESSAGES.rateMismatch(22050, 16000));
    expect(FileListSchema.parse((await get(authorization, '/api/file')).json())).toEqual([]);
  });

  it('refuses audio bigger than the longest conversion of the plan can make (413)', async () => {
    const { authorization, user } = await signedInUser(app, { plan: 'BASIC' });
    // A plan of 0 characters per conversion: only its breaks (10 minutes) can make audio.
    await app.db
      .updateTable('users')
      .set({ count_characters_per_convert: 0 })
      .where('id', '=', user.id)
      .execute();
    const limit = maxAudioBytes('wav', 16000, maxConversionSeconds(0));
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const tooBig = await upload(authorization, wav(limit / 32000 + 1), { change: wavChange });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(
      AUDIO_CHECK_MESSAGES.tooLarge((limit / 1024 / 1024).toFixed(1)),
    );
    expect((await upload(authorization, wav(1), { change: wavChange })).statusCode).toBe(200);
  });

  it("keeps each plan's storage quota, shown by /api/file/usage, with a clear 413 when full", async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const quota = PLAN_STORAGE_QUOTA_BYTES.BASIC;
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const first = FileSchema.parse(
      (await upload(authorization, wav(0.5), { change: wavChange })).json(),
    );
    const usage = StorageUsageSchema.parse((await get(authorization, '/api/file/usage')).json());
    expect(usage).toEqual({ used_bytes: first.size, quota_bytes: quota });
    // The saved files now nearly fill the quota (the size of the first is what counts).
    await app.db
      .updateTable('files')
      .set({ size: quota - 1000 })
      .where('id', '=', first._id)
      .execute();
    const full = await upload(authorization, wav(0.5), { change: wavChange });
    expect(full.statusCode).toBe(413);
    expect(full.json().message).toBe(FILE_MESSAGES.quotaFull(quota - 1000 + first.size, quota));
    // Replacing the big file frees its bytes: that fits.
    const replaced = await upload(authorization, wav(0.5), {
      method: 'PUT',
      id: first._id,
      change: wavChange,
    });
    expect(replaced.statusCode).toBe(200);
    expect(FileListSchema.parse((await get(authorization, '/api/file')).json())).toHaveLength(1);

    const free = await signedInUser(app, { plan: 'FREE' });
    expect(
      StorageUsageSchema.parse((await get(free.authorization, '/api/file/usage')).json()),
    ).toEqual({ used_bytes: 0, quota_bytes: 0 });
    expect((await app.inject({ method: 'GET', url: '/api/file/usage' })).statusCode).toBe(401);
  });

  it("never shows or touches another user's file: 404 for every call", async () => {
    const owner = await signedInUser(app, { plan: 'BASIC' });
    const other = await signedInUser(app, { plan: 'BUSINESS' });
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const file = FileSchema.parse(
      (await upload(owner.authorization, wav(0.5), { change: wavChange })).json(),
    );
    await saveSsml(owner.authorization, file._id, '<speak>Mine.</speak>');

    expect(FileListSchema.parse((await get(other.authorization, '/api/file')).json())).toEqual([]);
    for (const url of [
      `/api/file/${file._id}`,
      `/api/file/media/${file._id}`,
      `/api/file/ssml/${file._id}`,
    ]) {
      expect((await get(other.authorization, url)).statusCode).toBe(404);
    }
    const overwrite = await upload(other.authorization, wav(0.3), {
      method: 'PUT',
      id: file._id,
      change: wavChange,
    });
    expect(overwrite.statusCode).toBe(404);
    expect(
      (await saveSsml(other.authorization, file._id, '<speak>Yours.</speak>')).statusCode,
    ).toBe(404);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/file/${file._id}`,
      headers: { authorization: other.authorization, 'x-requested-with': 'parla' },
    });
    expect(removed.statusCode).toBe(404);

    const still = FileSchema.parse(
      (await get(owner.authorization, `/api/file/${file._id}`)).json(),
    );
    expect(still.size).toBe(file.size);
    expect((await get(owner.authorization, `/api/file/ssml/${file._id}`)).body).toBe(
      '<speak>Mine.</speak>',
    );
  });

  it('overwrites with PUT (new bytes, old ones removed) and deletes row and bytes', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const file = FileSchema.parse(
      (await upload(authorization, wav(0.5), { change: wavChange })).json(),
    );
    const before = await storedKeys();
    const replaced = await upload(authorization, wav(1), {
      method: 'PUT',
      id: file._id,
      change: { ...wavChange, master_speed: 20 },
    });
    expect(replaced.statusCode).toBe(200);
    const after = FileSchema.parse(replaced.json());
    expect(after._id).toBe(file._id);
    expect(after.size).toBe(wav(1).byteLength);
    expect(after.length).toBeCloseTo(1, 2);
    expect(after.master_speed).toBe(20);
    const keys = await storedKeys();
    expect(keys.length).toBe(before.length);
    expect(
      (await get(authorization, `/api/file/media/${file._id}`)).rawPayload.equals(wav(1)),
    ).toBe(true);

    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/file/${file._id}`,
      headers: { authorization, 'x-requested-with': 'parla' },
    });
    expect(removed.statusCode).toBe(200);
    expect((await get(authorization, `/api/file/${file._id}`)).statusCode).toBe(404);
    expect((await storedKeys()).length).toBe(before.length - 1);
  });

  it('a crash between storing the bytes and writing the row lists nothing; the sweep removes the bytes', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const keysBefore = await storedKeys();
    crashAfterNextPut = true;
    const response = await upload(authorization, wav(0.2), {
      change: { output_format: 'wav', sample_rate: 16000 },
    });
    expect(response.statusCode).toBe(500);
    expect(FileListSchema.parse((await get(authorization, '/api/file')).json())).toEqual([]);
    const orphans = (await storedKeys()).filter((key) => !keysBefore.includes(key));
    expect(orphans).toHaveLength(1);

    clock = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000);
    try {
      await files.purge();
    } finally {
      clock = new Date();
    }
    expect(await storedKeys()).not.toContain(orphans[0]);
  });

  it('purges files 30 days after their last save, at start and on the purge run', async () => {
    const { authorization, user } = await signedInUser(app, { plan: 'PREMIUM' });
    const wavChange = { output_format: 'wav' as const, sample_rate: 16000 as const };
    const start = new Date();
    clock = start;
    const old = FileSchema.parse(
      (await upload(authorization, wav(0.2), { change: wavChange })).json(),
    );
    clock = new Date(start.getTime() + 20 * DAY);
    const recent = FileSchema.parse(
      (await upload(authorization, wav(0.2), { change: wavChange })).json(),
    );
    try {
      clock = new Date(start.getTime() + 29 * DAY);
      await files.purge();
      expect((await files.list(user.id)).map((f) => f.id).sort()).toEqual(
        [old._id, recent._id].sort(),
      );

      clock = new Date(start.getTime() + RETENTION_MS + 60_000);
      await files.purge();
      const left = await files.list(user.id);
      expect(left.map((f) => f.id)).toEqual([recent._id]);
      expect((await storedKeys()).some((key) => key.includes(old._id))).toBe(false);
      expect((await storedKeys()).some((key) => key.includes(recent._id))).toBe(true);

      // A server starting 31 days after the second save purges it before serving anything.
      const later = new Date(start.getTime() + 20 * DAY + RETENTION_MS + 60_000);
      const restarted = await createTestApp({ config, storage, now: () => later });
      await restarted.ready();
      expect(await files.list(user.id)).toEqual([]);
      expect((await storedKeys()).some((key) => key.includes(recent._id))).toBe(false);
    } finally {
      clock = new Date();
    }
  });

  it('deleting the account removes the files and their bytes at once', async () => {
    const { authorization, user } = await signedInUser(app, { plan: 'BASIC' });
    const file = FileSchema.parse(
      (
        await upload(authorization, wav(0.2), {
          change: { output_format: 'wav', sample_rate: 16000 },
        })
      ).json(),
    );
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/account/delete',
      headers: { authorization, 'x-requested-with': 'parla' },
    });
    expect(deleted.statusCode).toBe(200);
    const rows = await app.db
      .selectFrom('files')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await storedKeys()).some((key) => key.includes(file._id))).toBe(false);
    expect(
      existsSync(path.join(savedDir, user.id)) ? readdirSync(path.join(savedDir, user.id)) : [],
    ).toEqual([]);
  });
});

describe('the snippet of a saved file', () => {
  it('is the start of the spoken text: markup gone, entities decoded, long texts cut', () => {
    expect(snippetOf(null)).toBe('');
    expect(snippetOf('<speak>One<break time="1s"/>two &amp; <say-as>3</say-as></speak>')).toBe(
      'One two & 3',
    );
    const long = snippetOf(`<speak>${'word '.repeat(100)}</speak>`);
    expect(long).toHaveLength(FILE_SNIPPET_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});
