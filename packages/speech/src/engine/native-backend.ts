import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ESPEAK_SAMPLE_RATE,
  type EspeakBackend,
  type EspeakRequest,
  type EspeakResult,
} from './backend.js';

const run = promisify(execFile);

/**
 * The native `espeak-ng` program (Debian: apt-get install espeak-ng), used when it is on PATH.
 * It is several times faster than the WebAssembly build but only writes audio: no word events.
 * Custom variants (the soft and breathing effects) need a data directory we can write to, so
 * the first one installed creates a mirror of the system data made of symbolic links.
 */
export class NativeBackend implements EspeakBackend {
  readonly name = 'native' as const;
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  private mirror: Promise<string> | undefined;

  private constructor(
    private readonly program: string,
    private readonly dataDir: string,
    private readonly languages: Set<string>,
  ) {}

  /** Answers undefined when the program is missing or does not run. */
  static async create(program = 'espeak-ng'): Promise<NativeBackend | undefined> {
    try {
      const version = await run(program, ['--version'], { timeout: 5000 });
      const dataDir = /Data at:\s*(\S+)/.exec(version.stdout)?.[1];
      if (!dataDir) return undefined;
      const voices = await run(program, ['--voices'], { timeout: 5000 });
      const languages = new Set(
        voices.stdout
          .split('\n')
          .slice(1)
          // Columns: Pty Language Age/Gender VoiceName File Other; keep the file's name.
          .map((line) => line.trim().split(/\s+/)[4]?.split('/').at(-1)?.toLowerCase())
          .filter((code): code is string => Boolean(code)),
      );
      return new NativeBackend(program, dataDir, languages);
    } catch {
      return undefined;
    }
  }

  hasLanguage(espeakName: string): boolean {
    return this.languages.has(espeakName.toLowerCase());
  }

  async render(request: EspeakRequest): Promise<EspeakResult> {
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
    const wav = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn(this.program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out));
        else reject(new Error(`espeak-ng exited with ${code}: ${err.trim()}`));
      });
      child.stdin.end(request.ssml);
    });
    return { samples: pcmFromWav(wav), words: [] };
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
    if (this.mirror) await rm(await this.mirror, { recursive: true, force: true });
  }
}

/** espeak-ng writes a 16-bit mono WAV whose sizes are placeholders when it goes to stdout. */
export function pcmFromWav(wav: Buffer): Float32Array {
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
      const out = new Float32Array(count);
      for (let i = 0; i < count; i++) out[i] = (pcm[i] as number) * (1 / 32768);
      return out;
    }
    offset += 8 + size + (size % 2);
  }
  return new Float32Array(0);
}
