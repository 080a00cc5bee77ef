import { type ChildProcess, execFile, fork } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SpeechError } from '../../errors.js';
import {
  ESPEAK_SAMPLE_RATE,
  type EspeakBackend,
  type EspeakRequest,
  type EspeakResult,
  type EspeakWord,
} from './backend.js';
import type { EspeakVoiceFile } from './catalogue.js';
import type { LaunchReply, LaunchRequest } from './launcher.js';
import type { EspeakLibrary } from './library.js';
import { type ProgramOutput, runProgram } from './run-program.js';

const run = promisify(execFile);

/**
 * Native espeak-ng (Debian: apt-get install espeak-ng), used when the program is on PATH. It
 * renders through libespeak-ng in this thread's launcher process when the library is there
 * (audio and word events from one rendering: docs/decisions/041-espeak-ng-library-in-its-host-
 * process.md), else by starting the program, which writes audio only (no word events).
 * Custom variants (the soft and breathing effects) need a data directory we can write to, so
 * the first one installed creates a mirror of the system data made of symbolic links. Either
 * way espeak-ng runs in the launcher process or its own (launcher.ts explains why).
 */
export class NativeBackend implements EspeakBackend {
  readonly name = 'native' as const;
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  /** The program reads `[[…]]` as phonemes (espeak-ng sets espeakPHONEMES). */
  readonly phonemeInput = true;
  private mirror: Promise<string> | undefined;
  private readonly languages: Set<string>;
  /** Launchers started beside the first for renderings at once (`renderer`). */
  private readonly helpers: Launcher[] = [];

  private constructor(
    private readonly program: string,
    private readonly dataDir: string,
    /** The program's voice files, as `espeak-ng --voices` lists them. */
    readonly voiceFiles: readonly EspeakVoiceFile[],
    private readonly launcher: Launcher | undefined,
    /** Whether libespeak-ng renders (in the launcher process), with its word events. */
    readonly wordEvents: boolean,
    /** `prlimit` options the program runs under, when util-linux's prlimit is installed. */
    private readonly limits: readonly string[] | undefined,
    /** libespeak-ng opened in this process (`direct`), rendering here instead of a launcher. */
    private readonly own?: EspeakLibrary,
  ) {
    this.languages = new Set(
      voiceFiles.map((v) => (v.identifier.split('/').at(-1) ?? '').toLowerCase()),
    );
  }

  /**
   * Answers undefined when the program is missing or does not run. `library`: render through
   * libespeak-ng where it is installed (the default), or always start the program. `spawn`
   * : through this thread's launcher process (the default, for processes that hold much
   * memory or render while they encode), or `direct` in this process (a small one with a short
   * text, such as a command run once: no second process to start). `direct` opens the library
   * here, or starts the program from here; it is for a process with one thread rendering (the
   * library is not reentrant) that a fault in libespeak-ng may end.
   */
  static async create(
    named = 'espeak-ng',
    spawn: NativeSpawn = 'launcher',
    library = true,
  ): Promise<NativeBackend | undefined> {
    // The program must be there, as without the library (found without starting it), and is
    // run by its path: it runs with no environment, so with no PATH to look it up on.
    const program = which(named);
    if (!program) return undefined;
    if (spawn === 'direct' && library) {
      const own = (await import('./library.js').catch(() => undefined))?.openEspeakLibrary();
      if (own) {
        return new NativeBackend(
          program,
          own.dataPath,
          own.voiceFiles,
          undefined,
          true,
          undefined,
          own,
        );
      }
    }
    const launcher = spawn === 'launcher' || library ? new Launcher() : undefined;
    try {
      // libespeak-ng names its data directory and voices itself: no program starts (three
      // runs of it cost a short command a fifth of its time).
      const opened = library && launcher ? await launcher.open() : undefined;
      if (opened) {
        return new NativeBackend(
          program,
          opened.dataPath,
          opened.voiceFiles,
          launcher,
          true,
          undefined,
        );
      }
      const [version, voices, limited] = await Promise.all([
        run(program, ['--version'], { timeout: 5000 }),
        run(program, ['--voices'], { timeout: 5000 }),
        PRLIMIT
          ? run(PRLIMIT, [...PROGRAM_LIMITS, '--', program, '--version'], { timeout: 5000 }).then(
              () => true,
              () => false,
            )
          : false,
      ]);
      const dataDir = /Data at:\s*(\S+)/.exec(version.stdout)?.[1];
      if (!dataDir) throw new Error('espeak-ng names no data directory');
      const kept = spawn === 'launcher' ? launcher : undefined;
      if (!kept) launcher?.close();
      const limits = limited ? PROGRAM_LIMITS : undefined;
      return new NativeBackend(program, dataDir, voiceFilesOf(voices.stdout), kept, false, limits);
    } catch {
      launcher?.close();
      return undefined;
    }
  }

  hasLanguage(espeakName: string): boolean {
    return this.languages.has(espeakName.toLowerCase());
  }

  async render(request: EspeakRequest): Promise<EspeakResult> {
    if (this.own) return this.own.render(request, this.mirror ? await this.mirror : undefined);
    if (this.wordEvents && this.launcher) {
      const dataPath = this.mirror ? await this.mirror : undefined;
      const launcher = this.renderer(this.launcher);
      // A crash is tried once more in a new launcher, as the program's is (below).
      try {
        return await launcher.render(request, dataPath);
      } catch (error) {
        if (!(error instanceof LauncherCrash)) throw error;
      }
      try {
        return await launcher.render(request, dataPath);
      } catch (error) {
        throw error instanceof LauncherCrash ? crashedTwice(error.signal) : error;
      }
    }
    const args = [
      '-m',
      '--stdin',
      '--stdout',
      '-v',
      request.voice,
      '-s',
      String(Math.round(request.rate)),
      '-p',
      String(Math.round(request.pitch)),
    ];
    if (this.mirror) args.unshift(`--path=${await this.mirror}`);
    let done = await this.run(args, request.ssml);
    // A crash (libespeak-ng has input it dies on) is tried once more, in case it was not the
    // input's fault; a second crash on the same input is the input's: the caller's to change.
    if (done.signal) done = await this.run(args, request.ssml);
    if (done.signal) throw crashedTwice(done.signal);
    if (done.code !== 0) {
      throw new Error(`espeak-ng exited with ${done.code}: ${done.stderr.trim()}`);
    }
    const wav = Buffer.from(done.stdout.buffer, done.stdout.byteOffset, done.stdout.byteLength);
    return { samples: pcmFromWav(wav), words: [] };
  }

  /**
   * The launcher a rendering goes to: an idle one, else a second one started beside the first,
   * so that the groups of sentences a long request renders ahead (synthesize.ts) are rendered
   * on two cores at once (docs/decisions/058-two-launchers-for-a-long-request.md); with both
   * busy, the one with fewer renderings waiting.
   */
  private renderer(first: Launcher): Launcher {
    const all = [first, ...this.helpers];
    const least = all.reduce((a, b) => (b.renderings < a.renderings ? b : a));
    if (least.renderings === 0 || all.length >= RENDERING_LAUNCHERS) return least;
    const helper = new Launcher();
    this.helpers.push(helper);
    return helper;
  }

  /** One run of the program, under its resource limits when `prlimit` is there. */
  private run(args: string[], input: string): Promise<ProgramOutput> {
    const [program, all] =
      this.limits && PRLIMIT
        ? [PRLIMIT, [...this.limits, '--', this.program, ...args]]
        : [this.program, args];
    return (
      this.launcher ? this.launcher.run(program, all, input) : runProgram(program, all, input)
    ).catch((error: Error) => {
      throw new Error(`espeak-ng did not start: ${error.message}`);
    });
  }

  async installVariant(name: string, contents: string): Promise<void> {
    this.mirror ??= this.createMirror();
    const root = await this.mirror;
    await writeFile(join(root, 'espeak-ng-data', 'voices', '!v', name), contents);
  }

  async readVariant(name: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.dataDir, 'voices', '!v', name), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** A writable espeak-ng-data whose entries link to the system's, except voices/!v. */
  private async createMirror(): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'parla-espeak-'));
    // Gone with the process too (a command run once never closes its backend).
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    const data = join(root, 'espeak-ng-data');
    await mkdir(join(data, 'voices', '!v'), { recursive: true });
    for (const entry of await readdir(this.dataDir)) {
      if (entry !== 'voices') await symlink(join(this.dataDir, entry), join(data, entry));
    }
    for (const entry of await readdir(join(this.dataDir, 'voices'))) {
      if (entry !== '!v') {
        await symlink(join(this.dataDir, 'voices', entry), join(data, 'voices', entry));
      }
    }
    for (const entry of await readdir(join(this.dataDir, 'voices', '!v'))) {
      await symlink(join(this.dataDir, 'voices', '!v', entry), join(data, 'voices', '!v', entry));
    }
    return root;
  }

  async close(): Promise<void> {
    this.launcher?.close();
    for (const helper of this.helpers.splice(0)) helper.close();
    if (this.mirror) await rm(await this.mirror, { recursive: true, force: true });
  }
}

/**
 * The least the program needs (docs/decisions/034-cost-queues-and-crashes.md): 256 MiB of
 * address space (it uses about 20), 60 s of CPU (the pool stops a request at 120 s of wall
 * time), no core file, 64 open files; it already runs with no
 * environment, in the temporary directory (run-program.ts).
 */
const PROGRAM_LIMITS = [
  `--as=${256 * 1024 * 1024}`,
  '--cpu=60',
  '--core=0',
  '--nofile=64',
] as const;

/** The answer to an input espeak-ng stopped on twice (a fault signal): the caller's to change. */
function crashedTwice(signal: string): SpeechError {
  return new SpeechError(
    'bad_input',
    `espeak-ng stopped (${signal}) twice on this text, so it cannot be said: change or remove its unusual parts (a long <phoneme>, rare characters) and try again.`,
  );
}

/** Signals of a fault inside the process, as opposed to one sent to stop it. */
const FAULTS = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGABRT', 'SIGTRAP', 'SIGSYS']);

/** The launcher died of a fault while renderings were in it. */
class LauncherCrash extends Error {
  constructor(readonly signal: string) {
    super(`the espeak-ng launcher stopped (${signal})`);
  }
}

/**
 * Where each launcher's folder for samples is made (launcher.ts, SAMPLES_DIR): Linux's shared
 * memory file system where it can be written, so that the samples are never on a disk.
 */
const SAMPLES_ROOT = (() => {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
})();

/** The path of `program` (a path, or a name looked up on PATH) where it is an executable file. */
function which(program: string): string | undefined {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '')
        .split(':')
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/** util-linux's prlimit, where it is installed: the program and the launcher run under it. */
const PRLIMIT = which('prlimit');

/**
 * Launcher processes one thread renders libespeak-ng in at once (decision 058): a request of
 * several groups renders the next one in a second process while the first renders, so a lone
 * long request has two cores, as the program piped into an encoder has. Under full load every
 * core is busy either way.
 */
const RENDERING_LAUNCHERS = 2;

/** prlimit's options for the launcher process: no core file, 256 open files. */
const LAUNCHER_LIMITS = ['--core=0', '--nofile=256'];

/** How the native program is started: see NativeBackend.create. */
export type NativeSpawn = 'launcher' | 'direct';

/**
 * `espeak-ng --voices` prints a header, then a line per voice file in the columns Pty,
 * Language, Age/Gender, VoiceName, File and Other Languages (names have no spaces).
 */
export function voiceFilesOf(listing: string): EspeakVoiceFile[] {
  return listing
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5)
    .map(([, language, , name = '', identifier = '']) => ({ identifier, name, language }));
}

type Answer = Exclude<LaunchReply, { error: string }>;
type Launched = Extract<Answer, { code: number | null }>;
type Rendered = Extract<Answer, { words: EspeakWord[] }>;
/** A request without its id, which the launcher gives. */
type Asked = LaunchRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/** One of this thread's launcher processes, forked on first use and again if it ever stops. */
class Launcher {
  private child: ChildProcess | undefined;
  /** The running launcher's folder of samples (launcher.ts, SAMPLES_DIR). */
  private samplesDir: string | undefined;
  private nextId = 1;
  /** Renderings asked of this launcher and not yet answered. */
  renderings = 0;
  private readonly pending = new Map<
    number,
    { resolve: (reply: Answer) => void; reject: (error: Error) => void }
  >();

  async run(program: string, args: string[], input: string): Promise<Launched> {
    return (await this.ask({ kind: 'program', program, args, input })) as Launched;
  }

  /** libespeak-ng's data directory and voices, where it opened in the launcher process. */
  async open(): Promise<{ dataPath: string; voiceFiles: EspeakVoiceFile[] } | undefined> {
    const reply = await this.ask({ kind: 'open' }).catch(() => undefined);
    if (!reply || !('sampleRate' in reply) || reply.sampleRate !== ESPEAK_SAMPLE_RATE) return;
    const { dataPath, voiceFiles } = reply;
    return dataPath && voiceFiles ? { dataPath, voiceFiles } : undefined;
  }

  async render(
    request: EspeakRequest,
    dataPath: string | undefined,
  ): Promise<{ samples: Int16Array; words: EspeakWord[] }> {
    this.renderings++;
    let rendered: Rendered;
    try {
      rendered = (await this.ask({ kind: 'render', request, dataPath })) as Rendered;
    } finally {
      this.renderings--;
    }
    if ('samples' in rendered) return rendered;
    const { file, words } = rendered;
    const bytes = readFileSync(file);
    unlinkSync(file);
    // A file's own buffer starts at offset 0 (read whole, not from Node's small-buffer pool);
    // the check keeps the view aligned whatever Node does.
    const samples =
      bytes.byteOffset % 2 === 0
        ? new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1)
        : new Int16Array(new Uint8Array(bytes).buffer, 0, bytes.byteLength >> 1);
    return { samples, words };
  }

  private ask(message: Asked): Promise<Answer> {
    const child = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // While a request is out, the launcher keeps this thread alive (a CLI awaiting it).
      if (this.pending.size === 1) setRef(child, true);
      child.send({ id, ...message } satisfies LaunchRequest);
    });
  }

  close(): void {
    this.child?.kill();
    this.child = undefined;
    if (this.samplesDir) rmSync(this.samplesDir, { recursive: true, force: true });
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    // From source (tests, tsx) it needs tsx to load TypeScript; from dist it does not. Never
    // the parent's own flags (a profiler's, say).
    const fromSource = import.meta.url.endsWith('.ts');
    let script = new URL(fromSource ? './launcher.ts' : './launcher.js', import.meta.url);
    // From parla-say's one-file bundle (dist/parla-say.mjs), the compiled one beside it.
    if (!existsSync(script)) script = new URL('./engines/espeak/launcher.js', import.meta.url);
    const samplesDir = mkdtempSync(join(SAMPLES_ROOT, 'parla-espeak-'));
    this.samplesDir = samplesDir;
    const execArgv = fromSource ? ['--import', import.meta.resolve('tsx')] : [];
    // The least it needs: none of the server's environment (its secrets), the temporary folder
    // as its working one, and through prlimit where it is installed, no core file (a crash would
    // write the texts it held) and few open files. No memory or CPU limit: V8 reserves far more
    // address space than it uses, and the process lives for many renderings.
    const child = fork(fileURLToPath(script), [samplesDir], {
      execPath: PRLIMIT ?? process.execPath,
      execArgv: PRLIMIT ? [...LAUNCHER_LIMITS, '--', process.execPath, ...execArgv] : execArgv,
      env: {},
      cwd: tmpdir(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (reply: LaunchReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) {
        if ('file' in reply) rmSync(reply.file, { force: true });
        return;
      }
      this.pending.delete(reply.id);
      if (this.pending.size === 0) setRef(child, false);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply);
    });
    const stopped = (why: Error) => {
      if (this.child === child) this.child = undefined;
      rmSync(samplesDir, { recursive: true, force: true });
      for (const waiting of this.pending.values()) waiting.reject(why);
      this.pending.clear();
    };
    child.on('error', (error) => {
      stopped(new Error(`the espeak-ng launcher failed: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      stopped(
        signal && FAULTS.has(signal)
          ? new LauncherCrash(signal)
          : new Error(`the espeak-ng launcher stopped (${signal ?? code})`),
      );
    });
    setRef(child, false);
    this.child = child;
    return child;
  }
}

function setRef(child: ChildProcess, keepAlive: boolean): void {
  if (keepAlive) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/** espeak-ng writes a 16-bit mono WAV whose sizes are placeholders when it goes to stdout. */
export function pcmFromWav(wav: Buffer): Int16Array {
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('latin1', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'data') {
      const start = offset + 8;
      const count = Math.floor((wav.length - start) / 2);
      // Copy into an aligned buffer, then read it as 16-bit little-endian (x86 and ARM are).
      const pcm = new Int16Array(count);
      new Uint8Array(pcm.buffer).set(wav.subarray(start, start + count * 2));
      return pcm;
    }
    offset += 8 + size + (size % 2);
  }
  return new Int16Array(0);
}
