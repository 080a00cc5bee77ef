import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Language } from '@parla/contract';
import {
  type EngineRegistry,
  engineRegistry,
  localConfig,
  type SpeechConfig,
} from '../engines/registry.js';
import type { ProviderStatus } from '../engines/remote/provider.js';
import type { SpeechEngine } from '../engines/types.js';
import { deserializeError, SpeechError } from '../errors.js';
import { type CheckedRequest, checkRequest, type SpeechRequest } from '../request.js';
import {
  type SynthesisChunk,
  type SynthesisResult,
  streamChecked,
  synthesizeChecked,
} from '../synthesize.js';
import { engineVoices, mergeCatalogues } from '../voices.js';
import { cacheKey, DiskCache } from './cache.js';
import type { WorkerCommand, WorkerJob, WorkerReply } from './protocol.js';

export interface SpeechPoolOptions {
  /** Number of worker threads; default: the number of CPUs available to the process. */
  size?: number;
  /** The engines' configuration, sent to every worker (the library reads no environment). */
  config?: SpeechConfig;
  /**
   * Engines that do not compute on this machine (`local: false`, e.g. a cloud voice): their
   * requests render on this thread, at most `remoteConcurrency` at a time, and never hold a
   * worker thread.
   */
  remoteEngines?: readonly SpeechEngine[];
  /** Remote requests in flight at once (default 8); the others wait their turn. */
  remoteConcurrency?: number;
  /** Directory of the content-addressed cache; no cache when omitted. */
  cacheDir?: string;
  /**
   * A job running longer than this is stopped, its worker replaced, and the request fails
   * with `limit_exceeded` (default 120 s).
   */
  timeoutMs?: number;
  /**
   * Seconds of estimated work (waiting and rendering, per worker) past which a new request is
   * refused with `busy` and a time to try again (default 30 s): a full queue answers at once
   * rather than making everyone wait.
   */
  maxQueuedSeconds?: number;
}

/**
 * Who asks, for the queue's fair share (docs/decisions/034-cost-queues-and-crashes.md): an
 * opaque key the server chooses (a user, an address), and how many of its requests may wait
 * or render at once.
 */
export interface PoolCaller {
  key: string;
  maxRequests: number;
}

/**
 * CPU seconds of rendering a character of text at most costs (1,000 characters at the bound
 * of ssml/limits.ts: about 2 s, docs/benchmarks.md), for the queue's estimate of its work.
 */
export const WORK_SECONDS_PER_CHARACTER = 0.002;

/**
 * How long a worker asked to end (on close, or after it overran its time) may take to reach
 * its next step and end its thread before it is terminated.
 */
const END_GRACE_MS = 10_000;

/** How long listing the voices may take in a worker, whatever the render budget. */
const VOICES_TIMEOUT_MS = 60_000;

/** `busy`: the queue holds more than `maxQueuedSeconds` of estimated work a worker. */
export function queueFullError(secondsPerWorker: number, maxQueuedSeconds: number): SpeechError {
  return new SpeechError(
    'busy',
    'The speech service is busy right now. Please try again in a few seconds.',
    { retryAfterSeconds: Math.max(1, Math.ceil(secondsPerWorker - maxQueuedSeconds)) },
  );
}

/** `busy`: the caller already has `count` conversions waiting or rendering, its cap. */
export function callerFullError(count: number, secondsPerWorker: number): SpeechError {
  return new SpeechError(
    'busy',
    `You have ${count} conversions waiting or being made, as many as your plan makes at once. Please try again when one has finished.`,
    { retryAfterSeconds: Math.max(1, Math.ceil(secondsPerWorker)) },
  );
}

/** A result as the pool answers it: also says whether it came from the cache. */
export type PooledResult = SynthesisResult & { cached: boolean };

type Job = WorkerJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

interface Pending {
  job: Job;
  /** The caller's key ('' for the pool's own work: the voice catalogue). */
  caller: string;
  /** Estimated seconds of work. */
  work: number;
  onReply: (reply: WorkerReply) => boolean; // true when the job is finished
  onFail: (error: SpeechError) => void;
  /** The pool's own warm-up of a new worker: never queued, so never settled. */
  warmUp?: true;
}

interface Slot {
  worker: Worker;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout };
}

/**
 * Synthesis off the event loop: a fixed set of worker threads, each running one request at a
 * time, fed from one queue per caller taken in turn (round robin), so that one caller's many
 * requests do not hold up another's one. A caller has at most `maxRequests` waiting or
 * rendering, and the pool refuses (`busy`) work past `maxQueuedSeconds` a worker. Create one
 * per process and `await pool.close()` on shutdown.
 * A worker that dies fails its request with code `internal`, one that overruns the time
 * budget with `limit_exceeded`; either is replaced (the new one loads its engines before it
 * takes a request) and the other requests carry on.
 * Requests for remote engines bypass the workers (see `remoteEngines`).
 */
export class SpeechPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  /** Each caller's requests waiting, in the order the callers are served. */
  private readonly queues = new Map<string, Pending[]>();
  /** Requests of each caller waiting or rendering. */
  private readonly perCaller = new Map<string, number>();
  /** Estimated seconds of work waiting or rendering. */
  private work = 0;
  /** When each caller with requests waiting or rendering was last given a worker. */
  private readonly served = new Map<string, number>();
  private turn = 0;
  private readonly maxQueuedSeconds: number;
  private readonly cache: DiskCache | undefined;
  private readonly config: SpeechConfig;
  private readonly workerConfig: SpeechConfig;
  /** The configured engines and the remote ones, on this thread (for voices and keys). */
  private readonly registry: EngineRegistry;
  private readonly remote: readonly SpeechEngine[];
  private readonly remoteSlots: Semaphore;
  private readonly timeoutMs: number;
  private nextId = 1;
  private closed = false;
  /** Each worker's end. */
  private readonly exits = new WeakMap<Worker, Promise<void>>();
  /** Workers asked to end and not yet ended (`end`), replaced ones among them. */
  private readonly ending = new Map<Worker, Promise<void>>();
  private voices: { stamp: string; list: Promise<Language[]> } | undefined;

  constructor(options: SpeechPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.config = options.config ?? {};
    // The workers are given the local engines only: remote ones (and their credentials)
    // stay on this thread.
    this.workerConfig = localConfig(this.config);
    this.registry = engineRegistry(this.config).with(options.remoteEngines ?? []);
    this.remote = this.registry.all().filter((engine) => !engine.local);
    this.remoteSlots = new Semaphore(options.remoteConcurrency ?? 8);
    this.cache = options.cacheDir ? new DiskCache(options.cacheDir) : undefined;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxQueuedSeconds = options.maxQueuedSeconds ?? 30;
    for (let i = 0; i < this.size; i++) this.slots.push({ worker: this.spawn() });
  }

  /** The remote engine of a request's voice, or undefined for a local one. */
  private remoteEngine(request: SpeechRequest): SpeechEngine | undefined {
    const engine = this.registry.forVoice(request.voice);
    return engine && !engine.local ? engine : undefined;
  }

  /** Renders a request, or answers it from the cache; `caller` is who asks (fair share). */
  async synthesize(asked: SpeechRequest, caller?: PoolCaller): Promise<PooledResult> {
    if (this.closed) throw closedError();
    // Checked once, here: a mistake is answered without a worker, and the worker renders the
    // checked request as it is.
    const request = checkRequest(asked);
    const key = await this.key(request);
    const hit = key ? await this.cache?.get(key) : undefined;
    if (hit) return { ...hit, cached: true };
    const result = this.remoteEngine(request)
      ? await this.remoteSlots.run(() =>
          synthesizeChecked(request, { ...this.config, engines: this.remote }),
        )
      : await this.inWorker(request, caller);
    if (key) this.cache?.keep(key, result);
    return { ...result, cached: false };
  }

  private inWorker(request: CheckedRequest, caller?: PoolCaller): Promise<SynthesisResult> {
    return new Promise<SynthesisResult>((resolve, reject) => {
      this.submit({
        job: { kind: 'synthesize', request, config: this.workerConfig },
        ...this.admit(request, caller),
        onReply: (reply) => {
          if (reply.kind === 'result') resolve(reply.result);
          else if (reply.kind === 'error') reject(deserializeError(reply.error));
          return true;
        },
        onFail: reject,
      });
    });
  }

  /**
   * Renders a request sentence by sentence: the first chunk arrives as soon as the first
   * sentence is ready. A cached request is answered in one chunk.
   */
  async *stream(asked: SpeechRequest, caller?: PoolCaller): AsyncGenerator<SynthesisChunk> {
    if (this.closed) throw closedError();
    const request = checkRequest(asked);
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
    const chunks: SynthesisChunk[] = [];
    if (this.remoteEngine(request)) {
      const release = await this.remoteSlots.acquire();
      try {
        for await (const chunk of streamChecked(request, {
          ...this.config,
          engines: this.remote,
        })) {
          chunks.push(chunk);
          yield chunk;
        }
      } finally {
        release();
      }
    } else {
      const { chunks: rendered, cancel } = this.streamInWorker(request, caller);
      let complete = false;
      try {
        for await (const chunk of rendered) {
          chunks.push(chunk);
          yield chunk;
        }
        complete = true;
      } finally {
        // Left early (the listener went away): the worker stops rendering what nobody reads.
        if (!complete) cancel();
      }
    }
    if (key && this.cache && chunks.length > 0) {
      this.cache.keep(key, resultFromChunks(request, chunks));
    }
  }

  private streamInWorker(
    request: CheckedRequest,
    caller?: PoolCaller,
  ): {
    chunks: AsyncIterable<SynthesisChunk>;
    cancel: () => void;
  } {
    const channel = new Channel<SynthesisChunk>();
    const pending: Pending = {
      job: { kind: 'stream', request, config: this.workerConfig },
      ...this.admit(request, caller),
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
    };
    this.submit(pending);
    const cancel = () => {
      const queue = this.queues.get(pending.caller) ?? [];
      const queued = queue.indexOf(pending);
      if (queued >= 0) {
        queue.splice(queued, 1);
        if (queue.length === 0) this.queues.delete(pending.caller);
        this.settle(pending);
      }
      const slot = this.slots.find((s) => s.busy?.pending === pending);
      if (slot) this.fail(slot, new SpeechError('internal', 'The request was cancelled.'));
    };
    return { chunks: channel, cancel };
  }

  /**
   * The voice catalogue, loaded in a worker (the main thread never loads espeak-ng) and kept
   * until the voices directory changes (a voice installed or removed), with the remote
   * engines' voices added on this thread (each engine keeps its provider's list).
   */
  async listVoices(): Promise<Language[]> {
    const [local, ...remote] = await Promise.all([
      this.localVoices(),
      // A provider whose list cannot be had (down, refused) leaves its voices out; its record
      // says why (`providers()`), and the others are listed.
      ...this.remote.map((engine) => engineVoices([engine]).catch(() => [])),
    ]);
    const voices = remote.flat();
    return voices.length === 0 ? local : mergeCatalogues(local, voices);
  }

  /** How each remote engine's provider is doing, once per provider (for /api/ready). */
  providers(): ProviderStatus[] {
    const statuses = new Map<string, ProviderStatus>();
    for (const engine of this.remote) {
      const status = engine.status?.();
      if (status) statuses.set(status.provider, status);
    }
    return [...statuses.values()];
  }

  private async localVoices(): Promise<Language[]> {
    const stamp = await directoryStamp(this.config.piper?.voicesDir);
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
        job: { kind: 'voices', config: this.workerConfig },
        caller: '',
        work: 0,
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
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  /** Workers running a request now. */
  get busy(): number {
    return this.slots.filter((slot) => slot.busy && !slot.busy.pending.warmUp).length;
  }

  /**
   * Stops accepting work, fails what is still queued, lets running requests finish and ends
   * the threads.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const queued = [...this.queues.values()].flat();
    this.queues.clear();
    for (const pending of queued) pending.onFail(closedError());
    await Promise.all(
      this.slots.map(async (slot) => {
        // A new worker loading its engines finishes loading too: its thread ends itself, never
        // terminated in the middle of loading a native library (decision 059). A job that
        // overruns its time still ends through `fail`.
        while (slot.busy) await new Promise((r) => setTimeout(r, 20));
        await this.end(slot.worker);
      }),
    );
    // Workers replaced after a crash or an overrun may still be ending theirs.
    await Promise.all(this.ending.values());
    await this.cache?.written();
  }

  /**
   * Ends a busy worker the way a crash would (an uncaught error in its thread). For tests and
   * failure drills only: it shows that the request fails cleanly and that the pool replaces
   * the worker. Answers false if no worker was busy.
   */
  async crashBusyWorkerForTesting(): Promise<boolean> {
    const slot = this.slots.find((s) => s.busy && !s.busy.pending.warmUp);
    if (!slot) return false;
    const worker = slot.worker;
    worker.postMessage({ kind: 'crash' } satisfies WorkerCommand);
    await this.exits.get(worker);
    return true;
  }

  /**
   * Asks a worker to end its thread (after closing its engines), and answers when it has. One
   * that has not ended within END_GRACE_MS (a job stuck in one step) is terminated.
   */
  private end(worker: Worker): Promise<void> {
    let ended = this.ending.get(worker);
    if (!ended) {
      worker.postMessage({ kind: 'end' } satisfies WorkerCommand);
      const timer = setTimeout(() => void worker.terminate(), END_GRACE_MS);
      ended = (this.exits.get(worker) ?? Promise.resolve()).then(() => {
        clearTimeout(timer);
        this.ending.delete(worker);
      });
      this.ending.set(worker, ended);
    }
    return ended;
  }

  /** The cache key: the request and its engine's fingerprint for the voice. */
  private async key(request: CheckedRequest): Promise<string | undefined> {
    if (!this.cache) return undefined;
    try {
      const engine = this.registry.forVoice(request.voice);
      if (!engine) return undefined;
      return cacheKey(request, await engine.fingerprint(request.voice));
    } catch {
      return undefined; // An unknown voice is not cached; the worker explains what is wrong.
    }
  }

  /**
   * A request's place in the queue: a caller's is refused (`busy`, with when to try again)
   * when it already has `maxRequests` waiting or rendering, or when the pool holds more than
   * `maxQueuedSeconds` of work a worker.
   */
  private admit(request: SpeechRequest, caller?: PoolCaller): { caller: string; work: number } {
    const key = caller?.key ?? '';
    const work = request.text.length * WORK_SECONDS_PER_CHARACTER;
    const perWorker = this.work / this.size;
    // Work without a caller (a job's parts, a voice's sample) has its own bounds upstream:
    // it waits its turn rather than fail.
    if (caller && perWorker > this.maxQueuedSeconds) {
      throw queueFullError(perWorker, this.maxQueuedSeconds);
    }
    const mine = this.perCaller.get(key) ?? 0;
    if (caller && mine >= caller.maxRequests) throw callerFullError(mine, perWorker);
    return { caller: key, work };
  }

  private submit(pending: Pending): void {
    if (this.closed) {
      pending.onFail(closedError());
      return;
    }
    this.perCaller.set(pending.caller, (this.perCaller.get(pending.caller) ?? 0) + 1);
    this.work += pending.work;
    const queue = this.queues.get(pending.caller);
    if (queue) queue.push(pending);
    else this.queues.set(pending.caller, [pending]);
    this.dispatch();
  }

  /** A request no longer waiting or rendering: its caller's count and its work go. */
  private settle(pending: Pending): void {
    const left = (this.perCaller.get(pending.caller) ?? 1) - 1;
    if (left > 0) this.perCaller.set(pending.caller, left);
    else {
      this.perCaller.delete(pending.caller);
      this.served.delete(pending.caller);
    }
    this.work = Math.max(0, this.work - pending.work);
  }

  /**
   * The next request to run: the first of the waiting caller served longest ago (never, for a
   * new one), round robin; among equals, the one that came first.
   */
  private next(): Pending | undefined {
    let chosen: string | undefined;
    for (const caller of this.queues.keys()) {
      const last = this.served.get(caller) ?? -1;
      if (chosen === undefined || last < (this.served.get(chosen) ?? -1)) chosen = caller;
    }
    if (chosen === undefined) return undefined;
    const queue = this.queues.get(chosen) ?? [];
    const pending = queue.shift();
    if (queue.length === 0) this.queues.delete(chosen);
    this.served.set(chosen, this.turn++);
    return pending;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const pending = this.next();
      if (!pending) return;
      this.start(slot, pending);
    }
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++;
    // The render budget is a rendering's: listing the voices (in a worker that may be
    // starting, loading espeak-ng) has a minute, whatever the budget.
    const listing = pending.job.kind === 'voices';
    const timer = setTimeout(
      () => {
        this.fail(
          slot,
          listing
            ? new SpeechError(
                'engine_unavailable',
                'The voices could not be listed in time. Please try again in a moment.',
              )
            : new SpeechError(
                'limit_exceeded',
                `The request needed more than the ${this.timeoutMs / 1000} s of rendering one request may take, and was stopped. Please shorten the text.`,
                { spent: true },
              ),
        );
      },
      listing ? Math.max(this.timeoutMs, VOICES_TIMEOUT_MS) : this.timeoutMs,
    );
    slot.busy = { id, pending, timer };
    slot.worker.postMessage({ id, ...pending.job } as WorkerJob);
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
        if (!slot.busy.pending.warmUp) this.settle(slot.busy.pending);
        slot.busy = undefined;
        this.dispatch();
      }
    });
    worker.on('error', (error) => {
      const slot = this.slots.find((s) => s.worker === worker);
      if (slot) this.fail(slot, crashError(`The speech worker failed: ${error.message}`));
    });
    this.exits.set(
      worker,
      new Promise((resolve) =>
        worker.once('exit', () => {
          const slot = this.slots.find((s) => s.worker === worker);
          if (slot && !this.closed)
            this.fail(slot, crashError('The speech worker stopped unexpectedly.'));
          resolve();
        }),
      ),
    );
    return worker;
  }

  /** Fails the slot's request, replaces its worker and carries on with the queue. */
  private fail(slot: Slot, error: SpeechError): void {
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      clearTimeout(busy.timer);
      if (!busy.pending.warmUp) this.settle(busy.pending);
      busy.pending.onFail(error);
    }
    // The old worker's messages are no longer its slot's (they are ignored), and it ends its
    // thread at its next step: at once if it crashed, after the step in hand if it overran.
    void this.end(slot.worker);
    if (!this.closed) {
      slot.worker = this.spawn();
      // The new worker loads its engines (espeak-ng's catalogue) before it takes a request,
      // so the next request's render budget is spent on rendering, not on the start.
      this.start(slot, {
        job: { kind: 'voices', config: this.workerConfig },
        caller: '',
        work: 0,
        onReply: () => true,
        onFail: () => {},
        warmUp: true,
      });
    }
  }
}

function closedError(): SpeechError {
  return new SpeechError('engine_unavailable', 'The speech service is shutting down.');
}

function crashError(message: string): SpeechError {
  return new SpeechError('internal', `${message} Please try again.`);
}

/** At most `limit` tasks at once; the others wait in order. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
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

/**
 * The whole-file result of a stream, for the cache and for a server storing what it streamed
 * (a streamed WAV gets its real sizes).
 */
export function resultFromChunks(
  request: SpeechRequest,
  chunks: SynthesisChunk[],
): SynthesisResult {
  const length = chunks.reduce((sum, c) => sum + c.audio.length, 0);
  const audio = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    audio.set(chunk.audio, at);
    at += chunk.audio.length;
  }
  if (request.format === 'wav' && audio.length >= 44) {
    const view = new DataView(audio.buffer);
    view.setUint32(4, audio.length - 8, true);
    view.setUint32(40, audio.length - 44, true);
  }
  const first = chunks[0];
  return {
    audio,
    mimeType: first?.mimeType ?? '',
    format: request.format,
    duration: chunks.reduce((sum, c) => sum + c.duration, 0),
    sampleRate: first?.sampleRate ?? request.sampleRate,
    marks: chunks.flatMap((c) => c.marks),
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
