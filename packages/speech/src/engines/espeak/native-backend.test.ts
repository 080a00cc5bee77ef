import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NativeBackend, voiceFilesOf } from './native-backend.js';

/** libespeak-ng where it is installed (in the launcher process), else the program. */
const backend = await NativeBackend.create();
/** The program, always (each rendering its own process). */
const programBackend = await NativeBackend.create('espeak-ng', 'launcher', false);

/** Processes a process has started, with their command lines (Linux's /proc). */
async function children(parent = process.pid): Promise<{ pid: number; command: string }[]> {
  const found: { pid: number; command: string }[] = [];
  for (const task of await readdir(`/proc/${parent}/task`)) {
    const list = await readFile(`/proc/${parent}/task/${task}/children`, 'utf8');
    for (const pid of list.split(' ').filter(Boolean).map(Number)) {
      // A zombie (ended, not yet reaped) has no command line: it is not counted.
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (command) found.push({ pid, command: command.replaceAll('\0', ' ') });
    }
  }
  return found;
}

const launchers = async () =>
  (await children()).filter((child) => /launcher\.[jt]s/.test(child.command));

const request = (text: string) => ({
  voice: 'en-us',
  ssml: `<speak>${text}</speak>`,
  rate: 175,
  pitch: 50,
});

/** Whether a process still runs (a zombie waiting to be reaped does not). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) [ZX] /.test(stat);
}

describe.skipIf(!backend?.wordEvents || process.platform !== 'linux')('libespeak-ng', () => {
  const library = backend as NativeBackend;
  const program = programBackend as NativeBackend;
  // Closed before the program's tests, which count launcher processes.
  afterAll(() => library.close());

  it('names the data directory and voices the program names, and starts no program for them', async () => {
    const before = await children();
    const fresh = (await NativeBackend.create()) as NativeBackend;
    try {
      const started = (await children()).filter(
        (child) => !before.some((old) => old.pid === child.pid),
      );
      // Only its launcher: no `espeak-ng --version`, `--voices` or prlimit run was started.
      expect(started.map((child) => /launcher\.[jt]s/.test(child.command))).toEqual([true]);
      expect(fresh.voiceFiles).toEqual(program.voiceFiles);
      expect(fresh.voiceFiles.find((file) => file.language === 'en-us')).toEqual({
        identifier: 'gmw/en-US',
        name: 'English_(America)',
        language: 'en-us',
      });
      // The data directory: its variants read from the same files.
      const variant = await fresh.readVariant('f2');
      expect(variant).toMatch(/name/);
      expect(variant).toBe(await program.readVariant('f2'));
    } finally {
      await fresh.close();
    }
    // A program the operator names that is not there is no native backend, library or not.
    expect(await NativeBackend.create('/nonexistent/espeak-ng')).toBeUndefined();
    expect(await NativeBackend.create('/nonexistent/espeak-ng', 'direct')).toBeUndefined();
  });

  it('renders in this process when asked to (direct), with no process started', async () => {
    const before = new Set((await children()).map((found) => found.pid));
    const here = (await NativeBackend.create('espeak-ng', 'direct', true)) as NativeBackend;
    const text = request('Rendered right here, with its words.');
    const own = await here.render(text);
    expect((await children()).filter((found) => !before.has(found.pid))).toEqual([]);
    const launched = (await NativeBackend.create()) as NativeBackend;
    try {
      expect(here.wordEvents).toBe(true);
      expect(here.voiceFiles).toEqual(library.voiceFiles);
      // A first rendering of a fresh library, here or in a launcher: the same samples and words.
      const there = await launched.render(text);
      expect(own.samples).toEqual(there.samples);
      expect(own.words).toEqual(there.words);
      expect(own.words).toHaveLength(6);
    } finally {
      await here.close();
      await launched.close();
    }
  });

  it("renders the program's audio and its word events in one rendering", async () => {
    const fresh = (await NativeBackend.create()) as NativeBackend;
    try {
      const text = 'Hello there, how are you today?';
      const own = await fresh.render(request(text));
      const programs = await program.render(request(text));
      // A first rendering of a fresh library is the program's, sample for sample.
      expect(own.samples).toEqual(programs.samples);
      expect(programs.words).toEqual([]);
      const ssml = request(text).ssml;
      expect(own.words.map((word) => ssml.slice(word.offset, word.offset + word.length))).toEqual([
        'Hello',
        'there',
        'how',
        'are',
        'you',
        'today',
      ]);
      const times = own.words.map((word) => word.time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times.at(-1)).toBeLessThan(own.samples.length / 22050);
    } finally {
      await fresh.close();
    }
  });

  it('renders what is asked at once in two launcher processes, never more, with the audio of each alone (decision 058)', async () => {
    const before = new Set((await launchers()).map((found) => found.pid));
    const texts = [
      'The first group of sentences, rendered in one process.',
      'The second group, in another process beside it.',
      'A third one waits for whichever is free first.',
    ];
    const together = (await NativeBackend.create()) as NativeBackend;
    let started: { pid: number; command: string }[] = [];
    let rendered: Awaited<ReturnType<NativeBackend['render']>>[];
    try {
      rendered = await Promise.all(texts.map((text) => together.render(request(text))));
      started = (await launchers()).filter((found) => !before.has(found.pid));
      expect(started).toHaveLength(2);
    } finally {
      await together.close();
    }
    await vi.waitFor(async () => {
      for (const { pid } of started) expect(await alive(pid)).toBe(false);
    });
    // The first two were each the first rendering of a fresh library: as rendered alone.
    for (const [index, text] of texts.slice(0, 2).entries()) {
      const alone = (await NativeBackend.create()) as NativeBackend;
      try {
        const own = await alone.render(request(text));
        expect(rendered[index]?.samples).toEqual(own.samples);
        expect(rendered[index]?.words).toEqual(own.words);
      } finally {
        await alone.close();
      }
    }
    // The third, in whichever was free first. (A library that rendered before reports the end
    // of the text too, as a word of no length: the engine places marks by tokens, index.ts.)
    const third = request(texts[2] as string).ssml;
    const said = (rendered[2]?.words ?? []).filter((word) => word.length > 0);
    expect(said.map((word) => third.slice(word.offset, word.offset + word.length))).toEqual([
      'A',
      'third',
      'one',
      'waits',
      'for',
      'whichever',
      'is',
      'free',
      'first',
    ]);
    // One at a time, one launcher is enough.
    const single = (await NativeBackend.create()) as NativeBackend;
    try {
      for (const text of texts) await single.render(request(text));
      expect((await launchers()).filter((found) => !before.has(found.pid))).toHaveLength(1);
    } finally {
      await single.close();
    }
  });

  it('renders in the launcher process: a fault there is tried again in a new one, not this process', async () => {
    await library.render(request('Warm.'));
    const [launcher] = await launchers();
    expect(launcher).toBeDefined();
    const text = request('This sentence is read again and again. '.repeat(400));
    const long = library.render(text);
    process.kill(launcher?.pid as number, 'SIGSEGV');
    const rendered = await long;
    expect(rendered.words.length).toBe(2800);
    const [next] = await launchers();
    expect(next?.pid).not.toBe(launcher?.pid);
  });

  it('answers a crash on an input as bad input, after one more try, and carries on', async () => {
    // A phoneme word of 400 makes libespeak-ng 1.51 crash (SIGSEGV); the SSML stage never
    // sends one (ssml/phonemes.ts), so only this backend test sends it raw.
    await expect(library.render(request(`[[${'ta'.repeat(200)}]] `))).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/^espeak-ng stopped \(SIGSEGV\) twice on this text/),
    });
    const after = await library.render(request('Still here.'));
    expect(after.words).toHaveLength(2);
  });

  it('runs its launcher with no environment, in the temporary folder, with no core file', async () => {
    await library.render(request('Warm.'));
    const [launcher] = await launchers();
    const pid = launcher?.pid as number;
    const environment = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
    // Only what Node's fork gives the channel.
    expect(environment.filter((entry) => entry && !entry.startsWith('NODE_CHANNEL_'))).toEqual([]);
    expect(await realpath(`/proc/${pid}/cwd`)).toBe(await realpath(tmpdir()));
    const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
    const prlimit = (process.env.PATH ?? '')
      .split(':')
      .some((dir) => existsSync(join(dir, 'prlimit')));
    if (prlimit) {
      expect(limits).toMatch(/^Max core file size\s+0\s+0\s/m);
      expect(limits).toMatch(/^Max open files\s+256\s+256\s/m);
    }
  });

  it('reads a custom variant installed after it started', async () => {
    const plain = await library.render(request('Soft and low.'));
    const base = (await library.readVariant('f3')) as string;
    await library.installVariant('parla-test-low', base.replace(/^pitch.*$/m, 'pitch 40 60'));
    const low = await library.render({
      ...request('Soft and low.'),
      voice: 'en-us+parla-test-low',
    });
    expect(low.samples.length).toBeGreaterThan(0);
    expect(low.samples).not.toEqual(plain.samples);
    expect(low.words).toHaveLength(3);
  });
});

describe.skipIf(!programBackend || process.platform !== 'linux')('native backend', () => {
  const native = programBackend as NativeBackend;
  afterAll(async () => {
    await native.close();
    await backend?.close();
  });

  it('starts espeak-ng through one small launcher process, whatever the number of renders', async () => {
    const results = await Promise.all(
      ['One.', 'Two, three.', 'Four, five, six.'].map((text) => native.render(request(text))),
    );
    for (const result of results) expect(result.samples.length / 22050).toBeGreaterThan(0.3);
    // Longer text, longer audio: each answer is its own request's.
    const [one, two, six] = results.map((result) => result.samples.length);
    expect(one).toBeLessThan(two as number);
    expect(two).toBeLessThan(six as number);
    expect(await launchers()).toHaveLength(1);
  });

  it('fails a render cleanly when the program cannot start, and carries on when it can', async () => {
    // A program that is there when the backend is created, and then is not.
    const dir = await mkdtemp(join(tmpdir(), 'parla-native-'));
    const program = join(dir, 'espeak-ng');
    await writeFile(program, '#!/bin/sh\nexec espeak-ng "$@"\n', { mode: 0o755 });
    const wrapped = (await NativeBackend.create(program, 'launcher', false)) as NativeBackend;
    try {
      await rename(program, `${program}.away`);
      await expect(wrapped.render(request('Hello.'))).rejects.toThrow(
        // Started directly, or through prlimit, which then cannot find it.
        /espeak-ng did not start: spawn .*ENOENT|espeak-ng exited with \d+: prlimit: .*No such file/,
      );
      await rename(`${program}.away`, program);
      const after = await wrapped.render(request('Back again.'));
      expect(after.samples.length).toBeGreaterThan(0);
    } finally {
      await wrapped.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers a crash on an input as bad input, after one more try, and carries on', async () => {
    // A phoneme word of 400 makes libespeak-ng 1.51 crash (SIGSEGV); the SSML stage never
    // sends one (ssml/phonemes.ts), so only this backend test sends it raw.
    await expect(native.render(request(`[[${'ta'.repeat(200)}]] `))).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/^espeak-ng stopped \(SIGSEGV\) twice on this text/),
    });
    const after = await native.render(request('Still here.'));
    expect(after.samples.length / 22050).toBeGreaterThan(0.5);
  });

  it('runs the program with no environment, in the temporary directory, under limits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parla-native-'));
    const program = join(dir, 'espeak-ng');
    const seen = join(dir, 'seen');
    await writeFile(
      program,
      `#!/bin/sh\n{ env; pwd; ulimit -v; ulimit -c; ulimit -n; } > ${seen}\nexec espeak-ng "$@"\n`,
      { mode: 0o755 },
    );
    const wrapped = (await NativeBackend.create(program, 'launcher', false)) as NativeBackend;
    try {
      await wrapped.render(request('Hello.'));
      const lines = (await readFile(seen, 'utf8')).trim().split('\n');
      // The shell sets PWD (and may set SHLVL, _) itself; nothing comes from the server.
      expect(
        lines.filter((line) => /^[A-Z_]+=/.test(line) && !/^(PWD|SHLVL|_|OLDPWD)=/.test(line)),
      ).toEqual([]);
      expect(lines).toContain(tmpdir());
      expect(lines.slice(-3)).toEqual([String(256 * 1024), '0', '64']);
    } finally {
      await wrapped.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops the programs under way when the backend is closed', async () => {
    const before = new Set((await launchers()).map((found) => found.pid));
    const own = (await NativeBackend.create('espeak-ng', 'launcher', false)) as NativeBackend;
    await own.render(request('Warm.'));
    const launcher = (await launchers()).find((found) => !before.has(found.pid));
    expect(launcher).toBeDefined();
    const long = own.render(request('This sentence is read again and again. '.repeat(1500)));
    long.catch(() => {});
    let programs: { pid: number; command: string }[] = [];
    for (let i = 0; i < 200 && programs.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      programs = await children(launcher?.pid);
    }
    expect(programs.map((program) => program.command)).toEqual([
      expect.stringMatching(/espeak-ng/),
    ]);
    await own.close();
    await expect(long).rejects.toThrow(/launcher stopped/);
    // With the launcher gone, espeak-ng dies at its next write (SIGPIPE); give it a moment.
    const running = async () =>
      (await Promise.all(programs.map((program) => alive(program.pid)))).some(Boolean);
    for (let i = 0; i < 100 && (await running()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await running()).toBe(false);
  });

  it('hands the samples over in a file of its own folder (else in the reply), removed once read, the folder when it stops', async () => {
    const before = new Set((await launchers()).map((found) => found.pid));
    const fresh = (await NativeBackend.create()) as NativeBackend;
    const folderOf = async () => {
      const [own] = (await launchers()).filter((found) => !before.has(found.pid));
      return { pid: own?.pid as number, folder: own?.command.trim().split(' ').at(-1) as string };
    };
    try {
      const rendered = await fresh.render(request('Through a file.'));
      expect(rendered.samples.length).toBeGreaterThan(0.5 * 22050);
      const first = await folderOf();
      expect(first.folder).toMatch(/parla-espeak-/);
      expect(await readdir(first.folder)).toEqual([]);
      // Where no file can be written, the samples come in the reply (the same speech: the library
      // keeps state between renderings, so a second one differs by a few samples).
      await rm(first.folder, { recursive: true });
      const inline = (await fresh.render(request('Through a file.'))).samples;
      expect(Math.abs(inline.length - rendered.samples.length)).toBeLessThan(50);
      expect(inline.some((sample) => Math.abs(sample) > 1000)).toBe(true);
      await mkdir(first.folder);
      // A launcher that crashes leaves no folder behind.
      process.kill(first.pid, 'SIGKILL');
      await vi.waitFor(async () => expect(await alive(first.pid)).toBe(false));
      await vi.waitFor(() => expect(existsSync(first.folder)).toBe(false));
      const again = await fresh.render(request('Through a file.'));
      expect(again.samples).toEqual(rendered.samples);
      const second = await folderOf();
      expect(second.folder).not.toBe(first.folder);
      await fresh.close();
      expect(existsSync(second.folder)).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('fails the renders of a launcher that dies, and starts a new one for the next', async () => {
    await native.render(request('Warm.'));
    const [launcher] = await launchers();
    expect(launcher).toBeDefined();
    // A render long enough to be under way when the launcher is killed.
    const long = native.render(request('This sentence is read again and again. '.repeat(200)));
    process.kill(launcher?.pid as number, 'SIGKILL');
    await expect(long).rejects.toThrow(/launcher stopped/);
    const next = await native.render(request('A new launcher.'));
    expect(next.samples.length).toBeGreaterThan(0);
    const now = await launchers();
    expect(now).toHaveLength(1);
    expect(now[0]?.pid).not.toBe(launcher?.pid);
  });
});

describe.skipIf(!programBackend || process.platform !== 'linux')(
  'native backend started directly',
  () => {
    it('renders the same audio as through the launcher, with no launcher process', async () => {
      const before = new Set((await launchers()).map((found) => found.pid));
      const direct = (await NativeBackend.create('espeak-ng', 'direct', false)) as NativeBackend;
      const viaLauncher = (await NativeBackend.create(
        'espeak-ng',
        'launcher',
        false,
      )) as NativeBackend;
      try {
        const own = await direct.render(request('Started by this process.'));
        expect((await launchers()).filter((found) => !before.has(found.pid))).toEqual([]);
        const launched = await viaLauncher.render(request('Started by this process.'));
        expect(own.samples.length).toBeGreaterThan(0.5 * 22050);
        expect(own.samples).toEqual(launched.samples);
      } finally {
        await direct.close();
        await viaLauncher.close();
      }
    });

    it('runs a program found on PATH outside /usr/bin by its path (it runs with no environment)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'parla-native-'));
      await writeFile(join(dir, 'parla-test-espeak'), '#!/bin/sh\nexec espeak-ng "$@"\n', {
        mode: 0o755,
      });
      const path = process.env.PATH;
      process.env.PATH = `${dir}:${path}`;
      try {
        const named = (await NativeBackend.create(
          'parla-test-espeak',
          'launcher',
          false,
        )) as NativeBackend;
        process.env.PATH = path;
        try {
          const rendered = await named.render(request('Found by name.'));
          expect(rendered.samples.length).toBeGreaterThan(0.5 * 22050);
        } finally {
          await named.close();
        }
      } finally {
        process.env.PATH = path;
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('fails a render cleanly when the program cannot start', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'parla-native-'));
      const program = join(dir, 'espeak-ng');
      await writeFile(program, '#!/bin/sh\nexec espeak-ng "$@"\n', { mode: 0o755 });
      const direct = (await NativeBackend.create(program, 'direct', false)) as NativeBackend;
      try {
        await rm(program);
        await expect(direct.render(request('Hello.'))).rejects.toThrow(
          // Started directly, or through prlimit, which then cannot find it.
          /espeak-ng did not start: spawn .*ENOENT|espeak-ng exited with \d+: prlimit: .*No such file/,
        );
      } finally {
        await direct.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('lists its voice files as espeak-ng --voices prints them', () => {
      const files = voiceFilesOf(
        [
          'Pty Language       Age/Gender VoiceName          File                 Other Languages',
          ' 5  af              --/M      Afrikaans          gmw/af               ',
          ' 5  en-us           --/M      English_(America)  gmw/en-US            (en 10)',
          '',
        ].join('\n'),
      );
      expect(files).toEqual([
        { identifier: 'gmw/af', name: 'Afrikaans', language: 'af' },
        { identifier: 'gmw/en-US', name: 'English_(America)', language: 'en-us' },
      ]);
      expect((programBackend as NativeBackend).voiceFiles.length).toBeGreaterThan(100);
    });
  },
);
