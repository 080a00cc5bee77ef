import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, medianF0 } from '../../../test/audio.js';
import { request } from '../../../test/request.js';
import {
  TEST_VOICE_BASE_HZ,
  testKokoroModel,
  testKokoroStyles,
  testVoiceModel,
  testVoicePiperConfig,
  testVoiceTokens,
} from '../../../test/test-voice.js';
import { synthesize } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import { main } from '../../voices-cli.js';
import { installLocalVoice, installVoice, removeVoice } from './install.js';
import { readMetadata } from './onnx-metadata.js';

/**
 * A catalogue in Piper's real layout (rhasspy/piper-voices: voices.json, and each voice's
 * files under language/locale/name/quality/) served on loopback, with the test voice in it
 * as Piper publishes models: without sherpa-onnx's metadata, settings in .onnx.json.
 */

const files = new Map<string, Uint8Array>();
let server: Server;
let base: string;
let voicesDir: string;

function entry(key: string, paths: Record<string, Uint8Array>, extra: Record<string, unknown>) {
  const listed: Record<string, { size_bytes: number; md5_digest: string }> = {};
  for (const [path, bytes] of Object.entries(paths)) {
    files.set(path, bytes);
    listed[path] = {
      size_bytes: bytes.length,
      md5_digest: createHash('md5').update(bytes).digest('hex'),
    };
  }
  return { key, files: listed, aliases: [], ...extra };
}

beforeAll(async () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const single = 'en/en_US/test/x_low/en_US-test-x_low';
  const multi = 'de/de_DE/duo/x_low/de_DE-duo-x_low';
  const catalogue = {
    'en_US-test-x_low': entry(
      'en_US-test-x_low',
      {
        [`${single}.onnx`]: testVoiceModel({ bare: true }),
        [`${single}.onnx.json`]: text(JSON.stringify(testVoicePiperConfig())),
        'en/en_US/test/x_low/MODEL_CARD': text(
          '# Model card for test (x_low)\n\n* License: CC0-1.0\n',
        ),
      },
      {
        name: 'test',
        language: { code: 'en_US', family: 'en', region: 'US', name_english: 'English' },
        quality: 'x_low',
        num_speakers: 1,
        speaker_id_map: {},
      },
    ),
    'de_DE-duo-x_low': entry(
      'de_DE-duo-x_low',
      {
        [`${multi}.onnx`]: testVoiceModel({ bare: true, speakers: 2, sampleRate: 16000 }),
        [`${multi}.onnx.json`]: text(
          JSON.stringify(
            testVoicePiperConfig({
              speakers: 2,
              sampleRate: 16000,
              espeakVoice: 'de',
              language: 'de_DE',
            }),
          ),
        ),
      },
      {
        name: 'duo',
        language: { code: 'de_DE', family: 'de', region: 'DE', name_english: 'German' },
        quality: 'x_low',
        num_speakers: 2,
        speaker_id_map: { speaker_1: 0, speaker_2: 1 },
      },
    ),
    // Listed with a wrong checksum: the install must refuse it.
    'en_US-tampered-x_low': {
      ...entry(
        'en_US-tampered-x_low',
        { 'en/en_US/tampered/x_low/t.onnx': testVoiceModel({ bare: true }) },
        {},
      ),
      name: 'tampered',
      language: { code: 'en_US' },
      quality: 'x_low',
      num_speakers: 1,
      speaker_id_map: {},
    },
  };
  const tampered = catalogue['en_US-tampered-x_low'];
  const listed = tampered.files['en/en_US/tampered/x_low/t.onnx'];
  if (listed) listed.md5_digest = '0'.repeat(32);
  tampered.files['en/en_US/tampered/x_low/t.onnx.json'] = {
    size_bytes: 2,
    md5_digest: '0'.repeat(32),
  };
  files.set('voices.json', text(JSON.stringify(catalogue)));
  server = createServer((req, res) => {
    const path = decodeURIComponent(
      new URL(req.url ?? '/', 'http://x').pathname.slice('/piper/'.length),
    );
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/piper/`;
  voicesDir = await mkdtemp(join(tmpdir(), 'parla-install-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(voicesDir, { recursive: true, force: true });
});

describe('installing voices from a Piper catalogue', () => {
  it('installs a voice that then speaks, with sherpa-onnx metadata added to the model', async () => {
    const installed = await installVoice('en_US-test-x_low', { voicesDir, base, gender: 'female' });
    expect(installed.manifest).toMatchObject({
      language: 'en-us',
      sample_rate: 22050,
      license: 'CC0-1.0',
      speakers: [{ id: 0, name: 'Test', gender: 'female' }],
    });
    const metadata = readMetadata(new Uint8Array(await readFile(installed.modelPath)));
    expect(metadata.get('comment')).toBe('piper');
    expect(metadata.get('sample_rate')).toBe('22050');
    const result = await synthesize(
      request({ engine: 'neural', voice_id: 'neural:en_US-test-x_low', text: 'Hello there.' }),
      { piper: { voicesDir } },
    );
    const { samples, sampleRate } = decodeWav(result.audio);
    expect(medianF0(samples, sampleRate)).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
  });

  it('makes each speaker of a multi-speaker model a voice', async () => {
    await installVoice('de_DE-duo-x_low', { voicesDir, base });
    const languages = await listVoices({ piper: { voicesDir } });
    const german = languages.find((l) => l.language_code === 'de-de');
    expect(
      german?.voices.filter((v) => v.engine === 'neural').map((v) => [v.id, v.name, v.gender]),
    ).toEqual([
      ['neural:de_DE-duo-x_low#0', 'Duo (x_low) (Speaker 1)', 'neutral'],
      ['neural:de_DE-duo-x_low#1', 'Duo (x_low) (Speaker 2)', 'neutral'],
    ]);
  });

  it('refuses a file whose checksum does not match, and leaves nothing behind', async () => {
    await expect(installVoice('en_US-tampered-x_low', { voicesDir, base })).rejects.toThrow(
      'does not match',
    );
    await expect(installVoice('nope', { voicesDir, base })).rejects.toThrow('has no voice "nope"');
    const languages = await listVoices({ piper: { voicesDir } });
    const ids = languages.flatMap((l) =>
      l.voices.filter((v) => v.engine === 'neural').map((v) => v.id),
    );
    expect(ids.some((id) => id.includes('tampered'))).toBe(false);
  });

  it('refuses to install twice without --force, and removes', async () => {
    await expect(installVoice('en_US-test-x_low', { voicesDir, base })).rejects.toThrow(
      'already installed',
    );
    await installVoice('en_US-test-x_low', { voicesDir, base, force: true });
    await removeVoice(voicesDir, 'en_US-test-x_low');
    const languages = await listVoices({ piper: { voicesDir } });
    expect(languages.flatMap((l) => l.voices).some((v) => v.id === 'neural:en_US-test-x_low')).toBe(
      false,
    );
  });

  it('runs as `npm run voices`', async () => {
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      expect(await main(['available', '--base-url', base, '--dir', voicesDir])).toBe(0);
      expect(
        await main(['install', 'en_US-test-x_low', '--base-url', base, '--dir', voicesDir]),
      ).toBe(0);
      expect(await main(['list', '--dir', voicesDir])).toBe(0);
      expect(await main(['remove', 'en_US-test-x_low', '--dir', voicesDir])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const output = written.join('');
    expect(output).toContain('de_DE-duo-x_low\tpiper\tde_DE\tx_low, 2 speakers');
    expect(output).toContain('Installed en_US-test-x_low (en-us, 22050 Hz, 1 speaker)');
    expect(output).toMatch(/en_US-test-x_low\ten-us\t22050 Hz/);
    expect(output).toContain('Removed en_US-test-x_low');
  });

  it('installs offline: from a folder, a .tar.gz, and a catalogue copied to disk', async () => {
    const offline = await mkdtemp(join(tmpdir(), 'parla-offline-'));
    try {
      // A folder as downloaded by hand: the .onnx, its .onnx.json and the MODEL_CARD.
      const folder = join(offline, 'en_US-test-x_low');
      await mkdir(folder);
      for (const name of ['en_US-test-x_low.onnx', 'en_US-test-x_low.onnx.json', 'MODEL_CARD']) {
        const path = [...files.keys()].find((p) => p.endsWith(`/${name}`) && p.includes('/test/'));
        await writeFile(join(folder, name), files.get(path ?? '') ?? new Uint8Array());
      }
      const own = join(offline, 'voices');
      const installed = await installLocalVoice(folder, { voicesDir: own, gender: 'male' });
      expect(installed.manifest).toMatchObject({
        language: 'en-us',
        license: 'CC0-1.0',
        speakers: [{ gender: 'male' }],
      });
      const result = await synthesize(
        request({ engine: 'neural', voice_id: 'neural:en_US-test-x_low', text: 'Offline.' }),
        { piper: { voicesDir: own } },
      );
      expect(decodeWav(result.audio).samples.length).toBeGreaterThan(1000);

      // The same folder as an archive, through the command.
      const archive = join(offline, 'voice.tar.gz');
      await create({ gzip: true, file: archive, cwd: offline }, ['en_US-test-x_low']);
      const written: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string) => {
        written.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
      try {
        expect(await main(['install', archive, '--dir', join(offline, 'other')])).toBe(0);
      } finally {
        process.stdout.write = write;
      }
      expect(written.join('')).toContain('Installed en_US-test-x_low (en-us');

      // A copy of the catalogue on disk: checksums are still checked.
      const mirror = join(offline, 'mirror');
      for (const [path, bytes] of files) {
        await mkdir(dirname(join(mirror, path)), { recursive: true });
        await writeFile(join(mirror, path), bytes);
      }
      const fromMirror = await installVoice('de_DE-duo-x_low', {
        voicesDir: join(offline, 'mirrored'),
        base: mirror,
      });
      expect(fromMirror.manifest.speakers).toHaveLength(2);
      await expect(
        installVoice('en_US-tampered-x_low', {
          voicesDir: join(offline, 'mirrored'),
          base: mirror,
        }),
      ).rejects.toThrow('does not match');

      // Something that is not a voice is refused, saying why.
      await expect(installLocalVoice(join(offline, 'nowhere'), { voicesDir: own })).rejects.toThrow(
        'does not exist',
      );
      await writeFile(join(offline, 'notes.tar.gz'), 'not an archive');
      await expect(
        installLocalVoice(join(offline, 'notes.tar.gz'), { voicesDir: own }),
      ).rejects.toThrow('not a readable archive');
      await expect(installLocalVoice(mirror, { voicesDir: own })).rejects.toThrow(
        'holds no Piper voice',
      );
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  }, 60_000);

  it('installs a Kokoro model as sherpa-onnx publishes it, each speaker a voice', async () => {
    const offline = await mkdtemp(join(tmpdir(), 'parla-kokoro-'));
    try {
      const release = join(offline, 'kokoro-en-v0_19');
      await mkdir(join(release, 'espeak-ng-data'), { recursive: true });
      await writeFile(join(release, 'model.onnx'), testKokoroModel({ speakers: 2 }));
      await writeFile(join(release, 'voices.bin'), testKokoroStyles(2));
      await writeFile(join(release, 'tokens.txt'), testVoiceTokens());
      const own = join(offline, 'voices');
      const installed = await installLocalVoice(release, { voicesDir: own });
      expect(installed.manifest).toMatchObject({
        architecture: 'kokoro',
        language: 'en-us',
        sample_rate: 24000,
        speakers: [
          { id: 0, name: 'Test0', gender: 'female' },
          { id: 1, name: 'Test1', gender: 'male' },
        ],
      });
      const english = (await listVoices({ piper: { voicesDir: own } })).find(
        (l) => l.language_code === 'en-us',
      );
      expect(english?.voices.filter((v) => v.engine === 'neural').map((v) => v.id)).toEqual([
        'neural:kokoro-en-v0_19#0',
        'neural:kokoro-en-v0_19#1',
      ]);
      const f0 = async (voice: string) => {
        const result = await synthesize(
          request({ engine: 'neural', voice_id: voice, text: 'Kokoro speaks here, for a while.' }),
          { piper: { voicesDir: own } },
        );
        const { samples, sampleRate } = decodeWav(result.audio);
        return medianF0(samples, sampleRate);
      };
      expect(await f0('neural:kokoro-en-v0_19#0')).toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
      expect(await f0('neural:kokoro-en-v0_19#1')).not.toBeCloseTo(TEST_VOICE_BASE_HZ, -1);
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  }, 60_000);
  it('installs a multi-language Kokoro model (v1.0): each speaker in its language, Chinese through its lexicon', async () => {
    const offline = await mkdtemp(join(tmpdir(), 'parla-kokoro-multi-'));
    try {
      const release = join(offline, 'kokoro-multi-lang-v1_0');
      await mkdir(join(release, 'espeak-ng-data'), { recursive: true });
      const names = ['af_heart', 'ff_siwis', 'zf_xiaobei'];
      await writeFile(
        join(release, 'model.onnx'),
        testKokoroModel({ version: 2, speakerNames: names }),
      );
      await writeFile(join(release, 'voices.bin'), testKokoroStyles(names.length));
      await writeFile(join(release, 'tokens.txt'), testVoiceTokens());
      const own = join(offline, 'voices');

      // Its Chinese speaker cannot speak without the Chinese lexicon: left out, the others kept.
      const partial = await installLocalVoice(release, { voicesDir: own });
      expect(partial.manifest.speakers.map((s) => s.language)).toEqual(['en-us', 'fr-fr']);
      // Only a model none of whose speakers could speak is refused, saying why.
      const chineseOnly = join(offline, 'kokoro-zh-only');
      await mkdir(chineseOnly);
      await writeFile(
        join(chineseOnly, 'model.onnx'),
        testKokoroModel({ version: 2, speakerNames: ['zf_xiaobei'] }),
      );
      await writeFile(join(chineseOnly, 'voices.bin'), testKokoroStyles(1));
      await writeFile(join(chineseOnly, 'tokens.txt'), testVoiceTokens());
      await expect(installLocalVoice(chineseOnly, { voicesDir: own })).rejects.toThrow(
        'its cmn speakers need lexicon-zh.txt',
      );
      // Two characters, each spelled with the model's tokens ("n i", "h a o").
      await writeFile(join(release, 'lexicon-zh.txt'), '你 n i\n好 h a o\n');
      const installed = await installLocalVoice(release, { voicesDir: own, force: true });
      expect(installed.manifest).toMatchObject({
        language: 'en-us',
        lexicons: ['lexicon-zh.txt'],
        speakers: [
          { id: 0, name: 'Heart', gender: 'female', language: 'en-us' },
          { id: 1, name: 'Siwis', gender: 'female', language: 'fr-fr' },
          { id: 2, name: 'Xiaobei', gender: 'female', language: 'cmn' },
        ],
      });

      // Each speaker is listed under its own language.
      const listed = await listVoices({ piper: { voicesDir: own } });
      const neuralOf = (code: string) =>
        listed
          .find((l) => l.language_code === code)
          ?.voices.filter((v) => v.engine === 'neural')
          .map((v) => v.id);
      expect(neuralOf('en-us')).toEqual(['neural:kokoro-multi-lang-v1_0#0']);
      expect(neuralOf('fr-fr')).toEqual(['neural:kokoro-multi-lang-v1_0#1']);
      expect(neuralOf('cmn')).toEqual(['neural:kokoro-multi-lang-v1_0#2']);

      // The test model answers TEST_VOICE_HOP samples per token: the French speaker reads
      // French phonemes (espeak-ng's "fr"), fewer than English ones for the same sentence.
      const say = async (voice: string, text: string) => {
        const result = await synthesize(
          request({ engine: 'neural', voice_id: voice, text, sample_rate: 24000 }),
          { piper: { voicesDir: own } },
        );
        return decodeWav(result.audio).samples.length;
      };
      const sentence = 'Bonjour tout le monde, je suis content.';
      const french = await say('neural:kokoro-multi-lang-v1_0#1', sentence);
      const english = await say('neural:kokoro-multi-lang-v1_0#0', sentence);
      expect(french).toBeGreaterThan(0);
      expect(french).toBeLessThan(english * 0.85);

      // Chinese through the lexicon: 你好 is five tokens between two boundaries; a character
      // the lexicon does not list is left out rather than crashing the engine.
      const chinese = await say('neural:kokoro-multi-lang-v1_0#2', '你好');
      const withUnknown = await say('neural:kokoro-multi-lang-v1_0#2', '你好猫');
      expect(chinese).toBeGreaterThan(0);
      expect(withUnknown).toBe(chinese);
      expect(await say('neural:kokoro-multi-lang-v1_0#2', '猫')).toBe(0);
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  }, 60_000);
});
