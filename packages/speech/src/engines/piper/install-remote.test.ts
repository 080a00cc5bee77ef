import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, medianF0 } from '../../../test/audio.js';
import {
  kokoroArchive,
  startVoiceHosts,
  unreachableUrl,
  type VoiceHosts,
} from '../../../test/providers/voice-hosts.js';
import { request } from '../../../test/request.js';
import { TEST_VOICE_BASE_HZ } from '../../../test/test-voice.js';
import { synthesize } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import { main } from '../../voices-cli.js';
import { UnreachableError } from './download.js';
import { installAny, installFromUrl, installLocalVoice } from './install.js';
import { scanVoices } from './manifest.js';

/**
 * Installs from the web, against a loopback server that answers as Hugging Face, GitHub's
 * release downloads and their content hosts do (test/providers/voice-hosts.ts): redirects,
 * X-Linked-Etag, Range, cut connections, wrong checksums, truncated archives.
 */

const KOKORO = 'kokoro-int8-multi-lang-v1_0';
const PIPER = 'en_US-test-x_low';
let hosts: VoiceHosts;
const folders: string[] = [];

async function voicesDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parla-remote-'));
  folders.push(dir);
  return dir;
}

/** What a voices directory holds besides voices (nothing once an install is over). */
async function leftovers(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const downloads = await readdir(join(dir, '.downloads')).catch(() => [] as string[]);
  return [
    ...names.filter((n) => n.startsWith('.') && n !== '.downloads' && n !== '.cache'),
    ...downloads,
  ];
}

const fast = { retries: 3, backoffMs: 5 };

beforeAll(async () => {
  hosts = await startVoiceHosts();
});

afterAll(async () => {
  await hosts.close();
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

describe('installing from the hosts models are published on', () => {
  it('installs a Kokoro model by its sherpa-onnx name: release 302, .tar.bz2, each speaker in its language', async () => {
    const dir = await voicesDir();
    const progress: number[] = [];
    const installed = await installAny(KOKORO, {
      voicesDir: dir,
      kokoroBase: hosts.kokoroBase,
      onProgress: (bytes) => progress.push(bytes),
      ...fast,
    });
    const archive = hosts.bytes(`${KOKORO}.tar.bz2`) ?? new Uint8Array();
    expect(installed.folder).toBe(KOKORO);
    expect(installed.manifest).toMatchObject({
      architecture: 'kokoro',
      license: 'Apache-2.0 (Kokoro-82M)',
      lexicons: ['lexicon-us-en.txt', 'lexicon-zh.txt'],
      source: {
        url: `${hosts.kokoroBase}${KOKORO}.tar.bz2`,
        sha256: createHash('sha256').update(archive).digest('hex'),
        checked: ['size'],
      },
    });
    // jf_alpha (Japanese) needs lexicon-ja.txt, which sherpa-onnx's v1.0 archive lacks.
    expect(installed.manifest.speakers.map((s) => [s.id, s.language])).toEqual([
      [0, 'en-us'],
      [1, 'en-gb'],
      [2, 'fr-fr'],
      [4, 'cmn'],
    ]);
    expect(progress.at(-1)).toBe(archive.length);
    const hops = hosts.requests.filter(
      (r) => r.path.includes(KOKORO) || r.path.startsWith('/objects/'),
    );
    expect(hops.map((r) => r.status)).toEqual([302, 200]);
    expect(await leftovers(dir)).toEqual([]);

    // It speaks: the test model's tone, at the speaker's pitch, decoded from the WAV.
    const say = async (voice: string) => {
      const result = await synthesize(
        request({ engine: 'neural', voice_id: voice, text: 'Bonjour à tous, voici Parla.' }),
        { piper: { voicesDir: dir } },
      );
      const { samples, sampleRate } = decodeWav(result.audio);
      expect(samples.length).toBeGreaterThan(sampleRate / 10);
      return medianF0(samples, sampleRate);
    };
    expect(await say(`neural:${KOKORO}#0`)).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
    expect(await say(`neural:${KOKORO}#2`)).toBeGreaterThan(TEST_VOICE_BASE_HZ / 2);
    const french = (await listVoices({ piper: { voicesDir: dir } })).find(
      (l) => l.language_code === 'fr-fr',
    );
    expect(french?.voices.filter((v) => v.engine === 'neural').map((v) => v.id)).toEqual([
      `neural:${KOKORO}#2`,
    ]);
  }, 60_000);

  it("installs a Piper voice through Hugging Face's resolve/ 302, checking size, MD5 and the X-Linked-Etag SHA-256", async () => {
    const dir = await voicesDir();
    const before = hosts.requests.length;
    const installed = await installAny(PIPER, { voicesDir: dir, base: hosts.piperBase, ...fast });
    expect(installed.manifest).toMatchObject({ license: 'CC0-1.0', language: 'en-us' });
    const model = hosts.requests
      .slice(before)
      .filter((r) => r.path.endsWith('.onnx') || r.path.startsWith('/cdn/'));
    expect(model.map((r) => r.status)).toEqual([302, 200]);
    expect(await leftovers(dir)).toEqual([]);
  }, 60_000);

  it('resumes a download cut in the middle with a Range request, and in a later run too', async () => {
    const dir = await voicesDir();
    const archive = hosts.bytes(`${KOKORO}.tar.bz2`) ?? new Uint8Array();
    // Cut once: the same install retries and asks for the rest.
    hosts.cut('/objects/', 40_000);
    let before = hosts.requests.length;
    await installAny(KOKORO, { voicesDir: dir, kokoroBase: hosts.kokoroBase, ...fast });
    let objects = hosts.requests.slice(before).filter((r) => r.path.startsWith('/objects/'));
    expect(objects.map((r) => [r.status, r.range])).toEqual([
      [200, undefined],
      [206, 'bytes=40000-'],
    ]);
    expect(objects[1]?.ifRange).toMatch(/^"0x8DD45F/);
    expect((await scanVoices(dir)).voices.map((v) => v.folder)).toEqual([KOKORO]);

    // Cut with no retry left: nothing is listed, the part waits; the next run resumes it.
    const other = await voicesDir();
    hosts.cut('/objects/', 50_000);
    await expect(
      installAny(KOKORO, { voicesDir: other, kokoroBase: hosts.kokoroBase, retries: 0 }),
    ).rejects.toThrow('cut at 50000 bytes');
    expect((await scanVoices(other)).voices).toEqual([]);
    expect(await readdir(join(other, '.downloads'))).toContain(`${KOKORO}.tar.bz2.part`);
    before = hosts.requests.length;
    await installAny(KOKORO, { voicesDir: other, kokoroBase: hosts.kokoroBase, ...fast });
    objects = hosts.requests.slice(before).filter((r) => r.path.startsWith('/objects/'));
    expect(objects.map((r) => [r.status, r.range])).toEqual([[206, 'bytes=50000-']]);
    const installed = await readFile(join(other, KOKORO, 'voices.bin'));
    expect(installed.length).toBeGreaterThan(0);
    expect(archive.length).toBeGreaterThan(50_000);
    expect(await leftovers(other)).toEqual([]);
  }, 60_000);

  it('refuses a file whose checksum does not match what the host published, listing nothing', async () => {
    const tampered = await startVoiceHosts({ kokoro: {} });
    try {
      const model = tampered.bytes('en_US-test-x_low.onnx') ?? new Uint8Array();
      const changed = new Uint8Array(model);
      changed[changed.length - 1] = (changed.at(-1) ?? 0) ^ 0xff;
      tampered.replace('en_US-test-x_low.onnx', changed);
      const dir = await voicesDir();
      await expect(
        installAny(PIPER, { voicesDir: dir, base: tampered.piperBase, ...fast }),
      ).rejects.toThrow(/checksum \(SHA-256\) [0-9a-f]{64} does not match/);
      expect((await scanVoices(dir)).voices).toEqual([]);
      expect(await leftovers(dir)).toEqual([]);
    } finally {
      await tampered.close();
    }
  });

  it('refuses a truncated archive (the host announcing the truncated size), listing nothing', async () => {
    const truncated = await startVoiceHosts();
    try {
      const whole = truncated.bytes(`${KOKORO}.tar.bz2`) ?? new Uint8Array();
      truncated.replace(`${KOKORO}.tar.bz2`, whole.subarray(0, Math.floor(whole.length / 2)));
      const dir = await voicesDir();
      await expect(
        installAny(KOKORO, { voicesDir: dir, kokoroBase: truncated.kokoroBase, ...fast }),
      ).rejects.toThrow('is not a readable archive (tar.bz2)');
      expect((await scanVoices(dir)).voices).toEqual([]);
      expect(await leftovers(dir)).toEqual([]);
    } finally {
      await truncated.close();
    }
  }, 60_000);

  it('lets two installers share a voices directory: one downloads, the other waits and finds the voice', async () => {
    const dir = await voicesDir();
    hosts.slow(2);
    const before = hosts.requests.length;
    try {
      const both = await Promise.all([
        installAny(KOKORO, { voicesDir: dir, kokoroBase: hosts.kokoroBase, keepInstalled: true }),
        installAny(KOKORO, { voicesDir: dir, kokoroBase: hosts.kokoroBase, keepInstalled: true }),
      ]);
      expect(both.map((v) => v.folder)).toEqual([KOKORO, KOKORO]);
    } finally {
      hosts.slow(0);
    }
    const downloads = hosts.requests.slice(before).filter((r) => r.path.startsWith('/objects/'));
    expect(downloads).toHaveLength(1);
    expect((await scanVoices(dir)).voices.map((v) => v.folder)).toEqual([KOKORO]);
    expect(await leftovers(dir)).toEqual([]);
  }, 60_000);

  it('says when the host cannot be reached at all', async () => {
    const dir = await voicesDir();
    const error = await installAny(KOKORO, {
      voicesDir: dir,
      kokoroBase: await unreachableUrl(),
      retries: 2,
      backoffMs: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(String(error)).toContain('ECONNREFUSED');
    expect((await scanVoices(dir)).voices).toEqual([]);
  });

  it('installs .zip and .tar.gz archives, from the web and from disk; refuses a bomb and other files', async () => {
    const dir = await voicesDir();
    const work = await voicesDir();
    const zip = join(work, 'kokoro-zipped.zip');
    await writeFile(zip, await kokoroArchive('kokoro-zipped', ['af_heart', 'am_adam'], 'zip'));
    const fromZip = await installLocalVoice(zip, { voicesDir: dir });
    expect(fromZip.manifest.speakers.map((s) => s.gender)).toEqual(['female', 'male']);
    const gz = join(work, 'kokoro-gz.tar.gz');
    await writeFile(gz, await kokoroArchive('kokoro-gz', ['bf_emma'], 'tar.gz'));
    expect((await installLocalVoice(gz, { voicesDir: dir })).folder).toBe('kokoro-gz');
    expect((await scanVoices(dir)).voices.map((v) => v.folder)).toEqual([
      'kokoro-gz',
      'kokoro-zipped',
    ]);

    // An archive that unpacks past the limit is stopped while unpacking.
    const bomb = join(work, 'bomb.zip');
    const { zipSync } = await import('fflate');
    await writeFile(bomb, zipSync({ 'big.bin': new Uint8Array(8 * 1024 * 1024) }, { level: 9 }));
    expect((await readFile(bomb)).length).toBeLessThan(100_000);
    await expect(
      installLocalVoice(bomb, { voicesDir: dir, maxUnpackedBytes: 1024 * 1024 }),
    ).rejects.toThrow('unpacks to more than 1 MB');
    // The same as a .tar.gz: stopped while the stream unpacks.
    const { create } = await import('tar');
    await mkdir(join(work, 'bomb'), { recursive: true });
    await writeFile(join(work, 'bomb', 'big.bin'), new Uint8Array(8 * 1024 * 1024));
    await create({ gzip: true, file: join(work, 'bomb.tar.gz'), cwd: work }, ['bomb']);
    expect((await readFile(join(work, 'bomb.tar.gz'))).length).toBeLessThan(100_000);
    await expect(
      installLocalVoice(join(work, 'bomb.tar.gz'), {
        voicesDir: dir,
        maxUnpackedBytes: 1024 * 1024,
      }),
    ).rejects.toThrow('unpacks to more than 1 MB');
    await writeFile(join(work, 'notes.zip'), 'not an archive');
    await expect(installLocalVoice(join(work, 'notes.zip'), { voicesDir: dir })).rejects.toThrow(
      'not a .tar, .tar.gz, .tar.bz2 or .zip',
    );
    await expect(
      installFromUrl(`${hosts.origin}/nothing-here.tar.bz2`, { voicesDir: dir, ...fast }),
    ).rejects.toThrow('answered 404');
    expect(await leftovers(dir)).toEqual([]);
  }, 60_000);

  it('runs as `npm run voices`: install by name and URL, available with engine and language, list with licence and source', async () => {
    const dir = await voicesDir();
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    const capture = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    process.stdout.write = capture;
    process.stderr.write = capture;
    const common = ['--dir', dir, '--base-url', hosts.piperBase, '--kokoro-url', hosts.kokoroBase];
    try {
      expect(await main(['install', KOKORO, ...common])).toBe(0);
      expect(await main(['install', KOKORO, ...common])).toBe(1);
      expect(await main(['available', '--engine', 'kokoro', '--language', 'fr', ...common])).toBe(
        0,
      );
      expect(await main(['available', '--engine', 'piper', ...common])).toBe(0);
      expect(await main(['list', ...common])).toBe(0);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    const output = written.join('');
    expect(output).toContain(
      `Installed ${KOKORO} (en-us, en-gb, fr-fr, cmn, 24000 Hz, 4 speakers)`,
    );
    expect(output).toContain('already installed (--force replaces it)');
    expect(output).toMatch(
      new RegExp(
        `${KOKORO}\\tkokoro\\ten-us,en-gb,es,fr-fr,hi,it,pt-br,cmn\\tint8, 53 speakers\\t~132\\.0 MB\\tApache-2\\.0\\tinstalled`,
      ),
    );
    expect(output).not.toContain('kokoro-int8-multi-lang-v1_1\tkokoro');
    expect(output).toMatch(/en_US-test-x_low\tpiper\ten_US\tx_low\t[\d.]+ MB\tsee MODEL_CARD\t-/);
    expect(output).toContain(
      `${KOKORO}\ten-us,en-gb,fr-fr,cmn\t24000 Hz\t4 speaker(s)\tApache-2.0 (Kokoro-82M)\t${hosts.kokoroBase}${KOKORO}.tar.bz2`,
    );
  }, 60_000);
});

describe('the best voice first', () => {
  it("lists a language's voices by the model's own grades, so the default voice is the best", async () => {
    const dir = await voicesDir();
    const work = await voicesDir();
    const archive = join(work, 'kokoro-graded.tar.gz');
    await writeFile(
      archive,
      await kokoroArchive(
        'kokoro-graded',
        ['am_adam', 'af_alloy', 'af_heart', 'af_bella'],
        'tar.gz',
      ),
    );
    const installed = await installLocalVoice(archive, { voicesDir: dir });
    expect(installed.manifest.speakers.map((s) => s.grade)).toEqual(['F+', 'C', 'A', 'A-']);
    const english = (await listVoices({ piper: { voicesDir: dir } })).find(
      (l) => l.language_code === 'en-us',
    );
    expect(english?.voices.filter((v) => v.engine === 'neural').map((v) => v.id)).toEqual([
      'neural:kokoro-graded#2',
      'neural:kokoro-graded#3',
      'neural:kokoro-graded#1',
      'neural:kokoro-graded#0',
    ]);
    // A <voice language> switch to English picks the best graded voice of the gender asked.
    const { neuralVoiceForLanguage } = await import('./voices.js');
    expect((await neuralVoiceForLanguage('en-us', 'female', dir))?.id).toBe(
      'neural:kokoro-graded#2',
    );
    expect((await neuralVoiceForLanguage('en-us', 'male', dir))?.id).toBe('neural:kokoro-graded#0');
  }, 60_000);
});
