import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, innerSilences } from '../test/audio.js';
import { nativeAvailable } from './engines/espeak/backends.js';

const native = await nativeAvailable();

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const RUN_MAIN = fileURLToPath(new URL('../../../scripts/run-main.mjs', import.meta.url));

/** Runs the CLI from source, as `parla-say` runs it from dist. */
function run(args: string[], input?: string | Buffer, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--conditions=@parla/source', RUN_MAIN, CLI, ...args],
      { encoding: 'buffer', env: { ...process.env, PARLA_SPEECH_BACKEND: 'wasm', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: stderr.toString() });
      },
    );
    child.stdin?.end(input ?? '');
  });
}

describe('parla-say', { timeout: 30_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parla-say-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('speaks SSML from stdin into a file, with the options applied', async () => {
    const out = join(dir, 'hello.ogg');
    const result = await run(
      ['-o', out, '--rate', '16000', '--speed', '20', '--voice', 'standard:en-us+f2'],
      'Hello <break time="800ms"/> world.',
    );
    expect(result.stderr).toMatch(/16000 Hz ogg \(standard:en-us\+f2\)/);
    expect(result.code).toBe(0);
    const decoded = await decode('ogg', await readFile(out));
    expect(decoded.sampleRate).toBe(16000);
    expect(Math.max(...innerSilences(decoded.samples, 16000))).toBeGreaterThan(0.68);
  });

  it.skipIf(!native)(
    'renders a short text with an effect natively and leaves nothing in the temporary folder',
    async () => {
      const temporary = await mkdtemp(join(dir, 'tmp-'));
      const out = join(dir, 'soft.wav');
      const result = await run(['-o', out, '--effect', 'soft'], 'Soft and low.', {
        PARLA_SPEECH_BACKEND: 'native',
        TMPDIR: temporary,
      });
      expect(result.stderr).toMatch(/16000 Hz wav/);
      expect(result.code).toBe(0);
      expect((await decode('wav', await readFile(out))).samples.length).toBeGreaterThan(8000);
      // The effect's voice variant lived in a folder of its own there (a mirror of espeak-ng's
      // data), removed when the command ended (tsx keeps its cache there too).
      expect((await readdir(temporary)).filter((entry) => entry.startsWith('parla-'))).toEqual([]);
    },
  );

  it('reads a file and writes WAV to stdout', async () => {
    const file = join(dir, 'text.txt');
    await writeFile(file, 'Plain text, 1 < 2.');
    const result = await run([file, '--format', 'wav']);
    expect(result.code).toBe(0);
    expect((await decode('wav', result.stdout)).sampleRate).toBe(16000);
  });

  it('says what the voice could not do as asked, and speaks the rest', async () => {
    const result = await run(
      ['-o', join(dir, 'warned.wav'), '--backend', 'wasm'],
      '<speak xmlns:my="urn:example">Say <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> <my:thing>bar</my:thing>.</speak>',
    );
    expect(result.code).toBe(0);
    const warnings = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('parla-say: warning: '));
    expect(warnings).toEqual([
      'parla-say: warning: 1:91: <my:thing> is not supported; it is ignored and its text is read',
      'parla-say: warning: 1:35: <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">: the WebAssembly build of espeak-ng cannot read phonemes; "tomato" is read instead',
    ]);
    expect(result.stderr).toMatch(/\d+\.\d\d s, 16000 Hz wav/);
  });

  it('names the input file, or <stdin>, at the SSML position of an error', async () => {
    const bad = '<speak>\n<emphasis level="loud">x</emphasis></speak>';
    const reason = 'emphasis level "loud" is not one of strong, moderate, reduced';
    const file = join(dir, 'bad.ssml');
    await writeFile(file, bad);
    // The output file comes first: it is not the one named.
    const fromFile = await run(['-o', join(dir, 'bad.wav'), file]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toBe(`parla-say: ${file}:2:1: ${reason}\n`);
    const fromStdin = await run(['-o', join(dir, 'bad.wav')], bad);
    expect(fromStdin.code).toBe(1);
    expect(fromStdin.stderr).toBe(`parla-say: <stdin>:2:1: ${reason}\n`);
  });

  it('names an input it cannot read and an output it cannot write', async () => {
    const missing = join(dir, 'missing.txt');
    const unread = await run([missing]);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toBe(`parla-say: cannot read ${missing}: no such file or directory\n`);
    const out = join(dir, 'no-such-folder', 'x.wav');
    const unwritten = await run(['-o', out], 'Hi');
    expect(unwritten.code).toBe(2);
    expect(unwritten.stderr).toBe(`parla-say: cannot write ${out}: no such file or directory\n`);
  });

  it('refuses invalid UTF-8, unknown options and illegal rate/format pairs', async () => {
    const invalid = await run(['-o', join(dir, 'x.wav')], Buffer.from([0x48, 0xff, 0xfe, 0x21]));
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe('parla-say: <stdin> is not valid UTF-8 text\n');
    const unknown = await run(['--loud'], 'Hi');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^parla-say: Unknown option '--loud'[\s\S]*Usage: parla-say/);
    const rate = await run(['--format', 'wav', '--rate', '48000'], 'Hi');
    expect(rate.code).toBe(1);
    expect(rate.stderr).toBe('parla-say: WAV output is 16000 Hz only.\n');
  });

  it('lists voices', async () => {
    const result = await run(['--list-voices']);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toMatch(
      /^standard:fr-fr\+f2\tFrench \(France\)\tFrench \(France\) – Female 2\tfemale$/m,
    );
  });
});
