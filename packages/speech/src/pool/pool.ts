import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Language } from '@parla/contract';
import { type BackendChoice, defaultBackendChoice, nativeAvailable } from '../engine/backends.js';
import { deserializeError, SpeechError } from '../errors.js';
import { voiceFingerprint } from '../neural/manifest.js';
import { resolveNeuralVoice } from '../neural/voices.js';
import type { SynthesisChunk, SynthesisRequest, SynthesisResult } from '../synthesize.js';
import { cacheKey, DiskCache } from './cache.js';
import type { WorkerJob, WorkerReply } from './protocol.js';

export interface SpeechPoolOptions {
  /** Number of worker threads; default: the number of CPUs available to the process. */
  size?: number;
  /** espeak-ng backend for every job; default from PARLA_SPEECH_BACKEND, else `auto`. */
  backend?: BackendChoice;
  /** Directory of the content-addressed cache; no cache when omitted. */
  cacheDir?: string;
  /** A job running longer than this is stopped and its worker replaced (default 120 s). */
  timeoutMs?: number;
  /** The neural engine's voices directory; default from VOICES_DIR (none: standard only). */
  voicesDir?: string | undefined;
}

/** A result as the pool answers it: also says whether it came from the cache. */
export type PooledResult = SynthesisResult & { cached: boolean };

type Job = WorkerJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

interface Pending {
  job: Job;
  onReply: (reply: WorkerReply) => boolean; // true when the job is finished
  onFail: (error: SpeechError) => void;
}

interface Slot {
  worker: Worker;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout };
}

/**
 * Synthesis off the event loop: a fixed set of worker threads, each running one request at a
 * time, fed from a FIFO queue. Create one per process and `await pool.close()` on shutdown.
 * A worker that dies (or overruns the timeout) fails its request with code `worker-crashed`
 * and is replaced; the other requests carry on.
 */
export class SpeechPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly cache: DiskCache | undefined;
  private readonly backend: BackendChoice;
  private readonly timeoutMs: number;
  private nextId = 1;
  private closed = false;
  private voices: { stamp: string; list: Promise<Language[]> } | undefined;
  private readonly voicesDir: string | undefined;

  constructor(options: SpeechPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.backend = options.backend ?? defaultBackendChoice();
    this.cache = options.cacheDir ? new DiskCache(options.cacheDir) : undefined;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.voicesDir = options.voicesDir ?? (process.env.VOICES_DIR || undefined);
    for (let i = 0; i < this.size; i++) this.slots.push({ worker: this.spawn() });
  }

  /** Renders a request, or answers it from the cache. */
  async synthesize(request: SynthesisRequest): Promise<PooledResult> {
    const key = await this.key(request);
    const hit = key ? await this.cache?.get(key) : undefined;
    if (hit) return { ...hit, cached: true };
    const result = await new Promise<SynthesisResult>((resolve, reject) => {
      this.submit({
        job: { kind: 'synthesize', request, backend: this.backend, voicesDir: this.voicesDir },
        onReply: (reply) => {
          if (reply.kind === 'result') resolve(reply.result);
          else if (reply.kind === 'error') reject(deserializeError(reply.error));
          return true;
        },
        onFail: reject,
      });
    });
    if (key) await this.cache?.set(key, result);
    return { ...result, cached: false };
  }

  /**
   * Renders a request sentence by sentence: the first chunk arrives as soon as the first
   * sentence is ready. A cached request is answered in one chunk.
   */
  async *stream(request: SynthesisRequest): AsyncGenerator<SynthesisChunk> {
    const key = await this.key(request);
    const hit = key ? await this.cache?.get(key) : undefined;
    if (hit) {
      yield {
        audio: hit.audio,
        start: 0,
        duration: hit.duration,
        marks: hit.marks,
        mimeType: hit.mimeType,
        sampleRate: hit.sampleRate,
        last: true,
        warnings: hit.warnings,
      };
      return;
    }
    const channel = new Channel<SynthesisChunk>();
    this.submit({
      job: { kind: 'stream', request, backend: this.backend, voicesDir: this.voicesDir },
      onReply: (reply) => {
        if (reply.kind === 'chunk') {
          channel.push(reply.chunk);
          return false;
        }
        if (reply.kind === 'error') channel.fail(deserializeError(reply.error));
        else channel.end();
        return true;
      },
      onFail: (error) => channel.fail(error),
    });
    const chunks: SynthesisChunk[] = [];
    for await (const chunk of channel) {
      chunks.push(chunk);
      yield chunk;
    }
    if (key && this.cache && chunks.length > 0) {
      const backend = request.engine === 'neural' ? 'neural' : (this.backendName ?? 'wasm');
      await this.cache.set(key, resultFromChunks(request, chunks, backend));
    }
  }

  /**
   * The voice catalogue, loaded in a worker (the main thread never loads espeak-ng) and kept
   * until the voices directory changes (a voice installed or removed).
   */
  async listVoices(): Promise<Language[]> {
    const stamp = await directoryStamp(this.voicesDir);
    if (this.voices?.stamp !== stamp) {
      const list = this.loadVoices();
      list.catch(() => {
        if (this.voices?.list === list) this.voices = undefined;
      });
      this.voices = { stamp, list };
    }
    return this.voices.list;
  }

  private loadVoices(): Promise<Language[]> {
    return new Promise<Language[]>((resolve, reject) => {
      this.submit({
        job: { kind: 'voices', voicesDir: this.voicesDir },
        onReply: (reply) => {
          if (reply.kind === 'voices') resolve(reply.voices);
          else if (reply.kind === 'error') reject(deserializeError(reply.error));
          return true;
        },
        onFail: reject,
      });
    });
  }

  /** Requests waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Stops accepting work, fails what is still queued, lets running requests finish and ends
   * the threads.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.queue.splice(0)) {
      pending.onFail(new SpeechError('pool-closed', 'The speech service is shutting down.'));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        while (slot.busy) await new Promise((r) => setTimeout(r, 20));
        await slot.worker.terminate();
      }),
    );
  }

  /**
   * Ends a busy worker the way a crash would. For tests and failure drills only: it shows that
   * the request fails cleanly and that the pool replaces the worker. Answers false if no
   * worker was busy.
   */
  async crashBusyWorkerForTesting(): Promise<boolean> {
    const slot = this.slots.find((s) => s.busy);
    if (!slot) return false;
    await slot.worker.terminate();
    return true;
  }

  private backendName: 'wasm' | 'native' | undefined;

  private async key(request: SynthesisRequest): Promise<string | undefined> {
    if (!this.cache) return undefined;
    if (!this.backendName) {
      this.backendName =
        this.backend === 'wasm' ? 'wasm' : (await nativeAvailable()) ? 'native' : 'wasm';
    }
    try {
      if (request.engine === 'neural') {
        // The audio depends on the installed model: a reinstalled voice is not served stale.
        const voice = await resolveNeuralVoice(request.voice_id, this.voicesDir);
        if (!voice) return undefined;
        return cacheKey(request, `neural|${await voiceFingerprint(voice.installed)}`);
      }
      return cacheKey(request, this.backendName);
    } catch {
      return undefined; // An invalid request is not cached; the worker explains what is wrong.
    }
  }

  private submit(pending: Pending): void {
    if (this.closed) {
      pending.onFail(new SpeechError('pool-closed', 'The speech service is shutting down.'));
      return;
    }
    this.queue.push(pending);
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const pending = this.queue.shift();
      if (!pending) return;
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.fail(slot, `The request took longer than ${this.timeoutMs / 1000} s and was stopped.`);
      }, this.timeoutMs);
      slot.busy = { id, pending, timer };
      slot.worker.postMessage({ id, ...pending.job } as WorkerJob);
    }
  }

  private spawn(): Worker {
    // From source (tests, tsx) the worker needs tsx to load TypeScript; from dist it does not.
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = fromSource
      ? new Worker(new URL('./worker-source.mjs', import.meta.url), {
          execArgv: ['--conditions=@parla/source'],
        })
      : new Worker(new URL('./worker.js', import.meta.url));
    worker.on('message', (reply: WorkerReply) => {
      const slot = this.slots.find((s) => s.worker === worker);
      if (!slot?.busy || slot.busy.id !== reply.id) return;
      const finished = slot.busy.pending.onReply(reply);
      if (finished) {
        clearTimeout(slot.busy.timer);
        slot.busy = undefined;
        this.dispatch();
      }
    });
    worker.on('error', (error) => {
      const slot = this.slots.find((s) => s.worker === worker);
      if (slot) this.fail(slot, `The speech worker failed: ${error.message}`);
    });
    worker.on('exit', () => {
      const slot = this.slots.find((s) => s.worker === worker);
      if (slot && !this.closed) this.fail(slot, 'The speech worker stopped unexpectedly.');
    });
    return worker;
  }

  /** Fails the slot's request, replaces its worker and carries on with the queue. */
  private fail(slot: Slot, message: string): void {
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      clearTimeout(busy.timer);
      busy.pending.onFail(new SpeechError('worker-crashed', `${message} Please try again.`));
    }
    const old = slot.worker;
    old.removeAllListeners();
    old.on('error', () => {});
    void old.terminate();
    if (!this.closed) {
      slot.worker = this.spawn();
      this.dispatch();
    }
  }
}

/** An async queue: the worker pushes chunks, the caller iterates them. */
class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;
  private done = false;
  private error: Error | undefined;

  push(item: T) {
    this.items.push(item);
    this.wake();
  }
  end() {
    this.done = true;
    this.wake();
  }
  fail(error: Error) {
    this.error = error;
    this.done = true;
    this.wake();
  }
  private wake() {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.error) throw this.error;
      if (this.done) return;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }
}

/** The whole-file result of a stream, for the cache (a streamed WAV gets its real sizes). */
function resultFromChunks(
  request: SynthesisRequest,
  chunks: SynthesisChunk[],
  backend: SynthesisResult['backend'],
): SynthesisResult {
  const length = chunks.reduce((sum, c) => sum + c.audio.length, 0);
  const audio = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    audio.set(chunk.audio, at);
    at += chunk.audio.length;
  }
  if (request.output_format === 'wav' && audio.length >= 44) {
    const view = new DataView(audio.buffer);
    view.setUint32(4, audio.length - 8, true);
    view.setUint32(40, audio.length - 44, true);
  }
  const first = chunks[0];
  return {
    audio,
    mimeType: first?.mimeType ?? '',
    format: request.output_format,
    duration: chunks.reduce((sum, c) => sum + c.duration, 0),
    sampleRate: first?.sampleRate ?? request.sample_rate,
    marks: chunks.flatMap((c) => c.marks),
    backend,
    warnings: chunks.flatMap((c) => c.warnings),
  };
}

/** Changes when a folder is added to or removed from the voices directory. */
async function directoryStamp(directory: string | undefined): Promise<string> {
  if (!directory) return 'none';
  try {
    return String((await stat(directory)).mtimeMs);
  } catch {
    return 'missing';
  }
}
