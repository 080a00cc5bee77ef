/**
 * A small process that renders espeak-ng for a Parla thread and hands back what it made
 * (native-backend.ts forks it once per thread): through libespeak-ng when the thread asks for
 * the library (audio and word events of one rendering, docs/decisions/
 * 041-espeak-ng-library-in-its-host-process.md), or by starting the native program.
 *
 * Why not spawn espeak-ng directly: Linux forks a process by copying its page tables and making
 * every page copy-on-write, so the cost of a spawn grows with the spawning process's memory
 * (measured: 1 ms from a fresh Node process, 14 ms from one holding 400 MB), and the threads
 * of that process then fault on every page they write. A server with a few speech workers
 * holds hundreds of megabytes, and starts an espeak-ng process per group of sentences: with
 * two workers, more CPU went to the kernel than to speech. This process stays small.
 *
 * Why not the library in the thread itself: libespeak-ng keeps its state in process globals
 * (two threads rendering at once in one process corrupt each other's audio and abort it), and
 * a fault inside it must not end the server: here it ends this process, whose thread reports
 * the failed request and forks another.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EspeakRequest, EspeakWord } from './backend.js';
import type { EspeakVoiceFile } from './catalogue.js';
import type { EspeakLibrary } from './library.js';
import { type ProgramOutput, runProgram } from './run-program.js';

export type LaunchRequest =
  | {
      id: number;
      kind: 'program';
      program: string;
      args: string[];
      /** Written to the program's standard input, which is then closed. */
      input: string;
    }
  /**
   * Opens libespeak-ng; answered with its sample rate, data directory and voices, or a sample
   * rate of 0 where it is missing.
   */
  | { id: number; kind: 'open' }
  | { id: number; kind: 'render'; request: EspeakRequest; dataPath: string | undefined };

export type LaunchReply =
  | ({ id: number } & ProgramOutput)
  | { id: number; sampleRate: number; dataPath?: string; voiceFiles?: EspeakVoiceFile[] }
  /**
   * A rendering: its samples in `file` (see SAMPLES_DIR), 16-bit, native byte order, or in the
   * message where the file could not be written (a full /dev/shm, say).
   */
  | { id: number; file: string; words: EspeakWord[] }
  | { id: number; samples: Int16Array; words: EspeakWord[] }
  | { id: number; error: string };

/**
 * Where a rendering's samples go (the folder the thread made for this process, on a memory file
 * system where there is one): written in one call, so that the next rendering begins at once.
 * Through the IPC channel the samples were serialised, then written in pieces as fast as the
 * thread read them, and this process waited for that before rendering again (a third of its
 * time: docs/decisions/057-espeak-samples-through-a-file.md). The thread reads the file and
 * removes it.
 */
const SAMPLES_DIR = process.argv[2];

/** Loaded on the first `open`: a process that only starts the program never loads it. */
let library: Promise<EspeakLibrary | undefined> | undefined;
const openLibrary = () => {
  library ??= import('./library.js').then(
    ({ openEspeakLibrary }) => openEspeakLibrary(),
    () => undefined,
  );
  return library;
};

/**
 * Sends a reply; settles once it is written to the thread (or cannot be: the thread may have
 * gone while this rendered, its server closing, and nobody is left to tell).
 */
const reply = (message: LaunchReply) =>
  new Promise<void>((resolve) => {
    // The callback comes in every case, with an error when the channel has closed.
    if (process.send) process.send(message, undefined, {}, () => resolve());
    else resolve();
  });

/** A rendering's reply: its samples in a file where one can be written, else in the reply. */
function handOver(id: number, samples: Int16Array, words: EspeakWord[]): LaunchReply {
  if (!SAMPLES_DIR) return { id, samples, words };
  const file = join(SAMPLES_DIR, `${id}.pcm`);
  try {
    writeFileSync(file, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
    return { id, file, words };
  } catch {
    rmSync(file, { force: true });
    return { id, samples, words };
  }
}

async function answer(message: LaunchRequest): Promise<void> {
  const { id } = message;
  try {
    if (message.kind === 'program') {
      const output = await runProgram(message.program, message.args, message.input);
      await reply({ id, ...output });
    } else if (message.kind === 'open') {
      const opened = await openLibrary();
      await reply(
        opened
          ? {
              id,
              sampleRate: opened.sampleRate,
              dataPath: opened.dataPath,
              voiceFiles: opened.voiceFiles,
            }
          : { id, sampleRate: 0 },
      );
    } else {
      const opened = await openLibrary();
      if (!opened) throw new Error('libespeak-ng is not installed');
      const { samples, words } = opened.render(message.request, message.dataPath);
      await reply(handOver(id, samples, words));
    }
  } catch (error) {
    await reply({ id, error: (error as Error).message });
  }
}

/**
 * Renderings one after another, each begun once the samples of the one before are written to
 * the thread. A rendering holds this process's event loop (the library's call is synchronous),
 * so a reply still being written when the next rendering began waited for that rendering to
 * end: the thread got each group one rendering late, and only then asked for the group after
 * the next, leaving this process idle between groups (docs/decisions/
 * 056-espeak-samples-stay-16-bit.md). Programs run side by side, each in its own process.
 */
let renderings: Promise<void> = Promise.resolve();

process.on('message', (message: LaunchRequest) => {
  if (message.kind === 'render') renderings = renderings.then(() => answer(message));
  else void answer(message);
});

// Its folder of samples goes with it (the thread removes it too, should this process crash).
process.on('exit', () => {
  if (SAMPLES_DIR) rmSync(SAMPLES_DIR, { recursive: true, force: true });
});

// The thread that forked this process has gone: so has the reason to run.
process.on('disconnect', () => process.exit(0));
