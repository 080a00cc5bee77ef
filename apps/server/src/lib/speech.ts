import type { Language, VoiceSettings } from '@parla/contract';
import {
  deserializeError,
  type Mark,
  type PoolCaller,
  type ProviderStatus,
  resultFromChunks,
  type SerializedSpeechError,
  type SpeechConfig,
  SpeechError,
  type SpeechLexicon,
  SpeechPool,
  type SpeechRequest,
  type SpeechWarning,
  type SynthesisChunk,
  type SynthesisResult,
  serializeError,
  speechMarksOf,
  speechRequestFromSettings,
} from '@parla/speech';
import { type Job, Queue, QueueEvents, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { type LiveAudio, memoryLiveAudio, redisLiveAudio } from './live-audio.js';
import { storeMarks } from './marks.js';
import { REDIS_COMMAND_TIMEOUT_MS, type RedisClients } from './redis.js';
import { createSpeechAdmission } from './speech-admission.js';
import type { ObjectStorage } from './storage/storage.js';

/**
 * A rendering stored under the key its caller chose (issue 17): the audio goes to the
 * installation's storage with its speech marks beside it (lib/marks.ts), and
 * only this description crosses Redis.
 */
export type StoredSynthesis = Omit<SynthesisResult, 'audio'> & {
  /** Bytes stored. */
  size: number;
  /** Answered from the speech cache, not rendered. */
  cached: boolean;
  /** Seconds the request waited for a worker (0 without a queue). */
  queuedSeconds: number;
};

/** What the server needs of the speech engine; one instance per process. */
export interface SpeechService {
  listVoices(): Promise<Language[]>;
  /**
   * Renders the product's payload (SPEC §3 "Voice settings", checked where it arrived and
   * mapped to the library's request here) and stores its audio under `key` in the
   * installation's storage. Audio the product makes from other audio (a job's parts, PCM at
   * the rate of the Ogg file they become) passes settings checked as the user sent them.
   * `caller` is who asks, for the queue's fair share and cap
   * (docs/decisions/034-cost-queues-and-crashes.md).
   */
  render(settings: VoiceSettings, key: string, options?: RenderOptions): Promise<StoredSynthesis>;
  /**
   * Renders as a stream (issue 14, docs/decisions/018-streamed-conversions.md): each chunk of
   * the file goes to `live` under `id` as soon as it is encoded, and the whole file is stored
   * under `key` at the end. `first` settles when the first bytes are out, or with the error
   * that stopped the rendering before them; `done` with the stored description. A rendering
   * `live` marks abandoned (nobody listens any more) stops at its next chunk, wherever it runs.
   */
  renderLive(
    settings: VoiceSettings,
    key: string,
    id: string,
    options?: Pick<RenderOptions, 'lexicons' | 'caller'>,
  ): LiveRendering;
  /** The renderings being streamed, for the routes that read them. */
  readonly live: LiveAudio;
  /** Requests waiting for a worker and being rendered (zeros without a queue). */
  queueCounts(): Promise<{ waiting: number; active: number }>;
  /**
   * The processes rendering speech and their worker threads: with Redis, every worker of the
   * installation that said so lately (decision 042); without, this process's pool.
   */
  workers(): Promise<{ processes: number; threads: number }>;
  /** How each remote provider configured here is doing (its calls from this process). */
  providers(): ProviderStatus[];
  /**
   * Shutdown past its grace: requests this process is rendering go back to the queue for
   * another worker instead of being lost with the process.
   */
  handBack(): Promise<void>;
  close(): Promise<void>;
}

export interface RenderOptions {
  /**
   * The pronunciation lexicons the conversion applies, in order, and those its SSML's
   * `<lexicon uri>` may name (services/lexicons/lexicon-repository.ts resolves them).
   */
  lexicons?: { applied: SpeechLexicon[]; library: SpeechLexicon[] };
  /** Who asks, for the queue's fair share and cap (docs/decisions/034). */
  caller?: PoolCaller;
}

export interface SpeechServiceOptions {
  /** Content-addressed cache of rendered audio: a repeated request is not synthesised again. */
  cacheDir: string;
  /** Worker threads of this process; default: one per available core. */
  workers?: number;
  /**
   * With Redis, requests go through a BullMQ queue that this process and any number of
   * `parla worker` processes on other machines consume (ARCHITECTURE.md "when one machine is
   * not enough"). Without it, the worker-thread pool of this process answers directly.
   */
  redis?: RedisClients | undefined;
  /** Key prefix of the queue in Redis (tests use their own). */
  queuePrefix?: string;
  /** The engines' configuration (config.ts: VOICES_DIR, PARLA_SPEECH_BACKEND, …). */
  config?: SpeechConfig;
  /** Where rendered audio is stored (the installation's storage). */
  storage: ObjectStorage;
  /** The time one rendering may take before it is stopped (the pool's default: 120 s). */
  renderTimeoutMs?: number;
}

/**
 * The one place where the server turns the wire payload, checked where it arrived (the routes'
 * `VoiceSettingsSchema`, with the product's rules: SPEC §5 sample rates), into the library's
 * request: `speechRequestFromSettings`, which the CLI uses too.
 */
const toRequest = (settings: VoiceSettings, options: RenderOptions = {}): SpeechRequest => ({
  ...speechRequestFromSettings(settings),
  ...(options.lexicons && {
    lexicons: options.lexicons.applied,
    lexiconLibrary: options.lexicons.library,
  }),
});

/** The BullMQ queue every Parla process of one installation shares. */
export const SPEECH_QUEUE = 'parla-synthesis';
const DEFAULT_PREFIX = 'parla';
/** A request that no worker finished in this time fails instead of hanging the page. */
const QUEUE_TIMEOUT_MS = 150_000;
const VOICES_TTL_MS = 60_000;

export interface LiveRendering {
  /** Settles when the first bytes are out, with the warnings of the text. */
  first: Promise<SpeechWarning[]>;
  done: Promise<StoredSynthesis>;
}

type SpeechJob =
  | { kind: 'synthesize'; request: SpeechRequest; key: string; caller?: PoolCaller | undefined }
  | {
      kind: 'stream';
      request: SpeechRequest;
      key: string;
      id: string;
      caller?: PoolCaller | undefined;
    }
  | { kind: 'voices' };

/** Renders with the pool and stores the audio; the description is what callers get. */
async function renderTo(
  pool: SpeechPool,
  storage: ObjectStorage,
  request: SpeechRequest,
  key: string,
  queuedSeconds = 0,
  caller?: PoolCaller,
): Promise<StoredSynthesis> {
  const { audio, ...result } = await pool.synthesize(request, caller);
  await storage.put(key, audio, result.mimeType);
  await storeMarks(storage, key, request.text, result.marks);
  return { ...result, size: audio.byteLength, queuedSeconds };
}

/**
 * Renders with the pool chunk by chunk, publishing each to `live` after the speech marks of
 * the words it makes heard, then stores the whole file and its marks (the bytes streamed; a
 * WAV's header gets its real sizes), gives the marks not given yet, and ends the channel.
 * A failure, or the rendering abandoned by its listeners, fails the channel and rejects.
 */
async function streamTo(
  pool: SpeechPool,
  storage: ObjectStorage,
  live: LiveAudio,
  job: { request: SpeechRequest; key: string; id: string; caller?: PoolCaller | undefined },
  queuedSeconds = 0,
): Promise<StoredSynthesis> {
  const { request, key, id, caller } = job;
  const chunks: SynthesisChunk[] = [];
  const marksOf = speechMarksOf(request.text);
  const heard: Mark[] = [];
  // How many speech marks the channel has: each chunk's set starts with the one before.
  let given = 0;
  try {
    for await (const chunk of pool.stream(request, caller)) {
      if (chunks.length === 0 && chunk.warnings.length > 0) await live.warn(id, chunk.warnings);
      chunks.push(chunk);
      heard.push(...chunk.marks);
      const soFar = marksOf(heard, true);
      await live.mark(id, soFar.slice(given));
      given = soFar.length;
      await live.publish(id, chunk.audio);
      // Leaving the loop stops the pool's rendering after the sentences already started.
      if (await live.abandoned(id)) {
        throw new SpeechError('internal', 'Nobody listens to this audio any more.');
      }
    }
    const { audio, ...result } = resultFromChunks(request, chunks);
    await storage.put(key, audio, result.mimeType);
    const stored = await storeMarks(storage, key, request.text, result.marks, marksOf);
    await live.mark(id, stored.slice(given));
    await live.end(id);
    return { ...result, size: audio.byteLength, cached: false, queuedSeconds };
  } catch (error) {
    await live.fail(id, JSON.stringify(serializeError(error)));
    throw error;
  }
}

/** A live rendering whose first bytes are awaited on `live` (speechErrorOf: the failure). */
function liveRendering(
  live: LiveAudio,
  id: string,
  start: () => Promise<StoredSynthesis>,
): LiveRendering {
  const done = Promise.resolve().then(start);
  // A request refused before it reaches a renderer (its engine and voice disagree, say) fails
  // `done` without a word on the channel: that failure is the answer too.
  const first = Promise.race([
    live.started(id, QUEUE_TIMEOUT_MS).catch((error: unknown) => {
      throw speechErrorOf(error);
    }),
    done.then((result) => result.warnings),
  ]);
  // Whoever awaits `first` learns of an early failure; `done` is the caller's to handle.
  first.catch(() => undefined);
  return { first, done };
}

/**
 * Synthesis off the event loop (issue 3, item 8): the worker-thread pool renders every request
 * and loads the voice catalogue, so the HTTP server answers other requests meanwhile.
 */
export function createSpeechService(options: SpeechServiceOptions): SpeechService {
  const pool = new SpeechPool({
    cacheDir: options.cacheDir,
    ...(options.config && { config: options.config }),
    ...(options.workers !== undefined && { size: options.workers }),
    ...(options.renderTimeoutMs !== undefined && { timeoutMs: options.renderTimeoutMs }),
  });
  if (!options.redis) {
    const live = memoryLiveAudio();
    return {
      live,
      listVoices: () => pool.listVoices(),
      render: async (settings, key, rules) =>
        renderTo(pool, options.storage, toRequest(settings, rules), key, 0, rules?.caller),
      renderLive: (settings, key, id, rules) =>
        liveRendering(live, id, () =>
          streamTo(pool, options.storage, live, {
            request: toRequest(settings, rules),
            key,
            id,
            caller: rules?.caller,
          }),
        ),
      queueCounts: async () => ({ waiting: 0, active: 0 }),
      workers: async () => ({ processes: 1, threads: pool.size }),
      providers: () => pool.providers(),
      handBack: async () => undefined,
      close: () => pool.close(),
    };
  }
  const prefix = options.queuePrefix ?? DEFAULT_PREFIX;
  // This process consumes the queue too, so one server with Redis works on its own.
  const consumer = startSpeechWorker({
    redis: options.redis,
    pool,
    prefix,
    storage: options.storage,
  });
  const queued = createQueueClient({ redis: options.redis, prefix });
  return {
    ...queued,
    providers: () => pool.providers(),
    handBack: () => consumer.handBack(),
    close: async () => {
      await queued.close();
      await consumer.close();
    },
  };
}

/** The producing side: enqueues requests and waits for whichever worker renders them. */
export function createQueueClient({
  redis,
  prefix = DEFAULT_PREFIX,
  timeoutMs = QUEUE_TIMEOUT_MS,
}: {
  redis: RedisClients;
  prefix?: string;
  timeoutMs?: number;
}): Omit<SpeechService, 'handBack' | 'providers'> {
  // Requests wait on these commands: a hung Redis fails them after the timeout.
  const connection = redis.connection({ commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  const live = redisLiveAudio(redis, connection, prefix);
  const queue = redis.watch(new Queue<SpeechJob>(SPEECH_QUEUE, { connection, prefix }));
  const events = redis.watch(
    new QueueEvents(SPEECH_QUEUE, { connection: redis.connection(), prefix }),
  );
  let voices: { at: number; list: Promise<Language[]> } | undefined;

  const admission = createSpeechAdmission(connection, prefix, { holdMs: timeoutMs });

  async function run<T>(data: SpeechJob): Promise<T> {
    // A conversion's fair place in the cluster's queue, or `busy` (decision 042); listing the
    // voices goes first, unranked.
    const admitted =
      data.kind === 'voices'
        ? undefined
        : await admission.admit(data.caller, data.request.text.length);
    try {
      // Finished jobs stay a minute (the waiter reads their state), then Redis forgets them.
      const job = await queue.add(data.kind, data, {
        removeOnComplete: { age: 60 },
        removeOnFail: { age: 60 },
        ...(admitted && { priority: admitted.priority }),
      });
      return (await job.waitUntilFinished(events, timeoutMs)) as T;
    } catch (error) {
      throw speechErrorOf(error);
    } finally {
      await admitted?.release().catch(() => undefined);
    }
  }

  return {
    listVoices() {
      // Kept a minute: voices installed on the workers show up without a restart.
      if (!voices || Date.now() - voices.at > VOICES_TTL_MS) {
        const list = run<Language[]>({ kind: 'voices' }).catch((error: unknown) => {
          voices = undefined;
          throw error;
        });
        voices = { at: Date.now(), list };
      }
      return voices.list;
    },
    live,
    render: async (settings, key, rules) =>
      run<StoredSynthesis>({
        kind: 'synthesize',
        request: toRequest(settings, rules),
        key,
        caller: rules?.caller,
      }),
    renderLive: (settings, key, id, rules) =>
      liveRendering(live, id, () =>
        run<StoredSynthesis>({
          kind: 'stream',
          request: toRequest(settings, rules),
          key,
          id,
          caller: rules?.caller,
        }),
      ),
    workers: () => admission.capacity(),
    async queueCounts() {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
      return {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
      };
    },
    async close() {
      await events.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

/** A request stopped by handBack(): BullMQ leaves it where handBack() put it, in the queue. */
class HandedBack extends WaitingError {}

/**
 * The consuming side: renders queued requests in a local worker-thread pool and stores the
 * audio. `parla worker` runs one on its own; every server with REDIS_URL runs one beside its
 * HTTP routes.
 */
export function startSpeechWorker({
  redis,
  pool,
  storage,
  prefix = DEFAULT_PREFIX,
}: {
  redis: RedisClients;
  pool: SpeechPool;
  storage: ObjectStorage;
  prefix?: string;
}): { handBack(): Promise<void>; close(): Promise<void> } {
  const connection = redis.connection();
  const liveConnection = redis.connection();
  const live = redisLiveAudio(redis, liveConnection, prefix);
  // Its threads count in the cluster's capacity, for the queue's bound (decision 042).
  const offered = createSpeechAdmission(liveConnection, prefix, {
    holdMs: QUEUE_TIMEOUT_MS,
  }).offer(pool.size);
  const active = new Map<string, { job: Job<SpeechJob>; token: string; stop: () => void }>();
  const worker = new Worker<SpeechJob>(
    SPEECH_QUEUE,
    async (job, token = '') => {
      const stopped = new Promise<never>((_resolve, reject) => {
        active.set(job.id ?? '', { job, token, stop: () => reject(new HandedBack()) });
      });
      try {
        const queuedSeconds = ((job.processedOn ?? Date.now()) - job.timestamp) / 1000;
        const work =
          job.data.kind === 'voices'
            ? pool.listVoices()
            : job.data.kind === 'stream'
              ? streamTo(pool, storage, live, job.data, queuedSeconds)
              : renderTo(
                  pool,
                  storage,
                  job.data.request,
                  job.data.key,
                  queuedSeconds,
                  job.data.caller,
                );
        return await Promise.race([work, stopped]);
      } catch (error) {
        if (error instanceof HandedBack) throw error;
        // Bad SSML or an unknown voice fails the same way every time: no retry, and the
        // caller gets the error's code and position back.
        throw new UnrecoverableError(JSON.stringify(serializeError(error)));
      } finally {
        active.delete(job.id ?? '');
      }
    },
    {
      connection,
      prefix,
      concurrency: pool.size,
      // A worker that vanished (killed, machine lost) is noticed within half a minute and its
      // requests are rendered elsewhere; the same storage key makes a second rendering harmless.
      lockDuration: 20_000,
      stalledInterval: 10_000,
    },
  );
  redis.watch(worker);
  return {
    async handBack() {
      for (const { job, token, stop } of active.values()) {
        await job.moveToWait(token);
        stop();
      }
    },
    async close() {
      // Closing at once: no request is taken from here on, not even one just handed back.
      const closing = worker.close();
      await offered.stop();
      await closing;
      // BullMQ leaves a connection it was given open.
      connection.disconnect();
      liveConnection.disconnect();
      await pool.close();
    },
  };
}

function speechErrorOf(error: unknown): SpeechError {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const data = JSON.parse(message) as SerializedSpeechError;
    if (typeof data.code === 'string' && typeof data.message === 'string') {
      return deserializeError(data);
    }
  } catch {
    // Not one of ours: a time-out or a lost connection.
  }
  return new SpeechError('engine_unavailable', `The speech service failed: ${message}`);
}
