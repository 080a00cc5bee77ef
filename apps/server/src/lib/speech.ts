import type { Language } from '@parla/contract';
import {
  deserializeError,
  type SerializedSpeechError,
  SpeechError,
  SpeechPool,
  type SynthesisRequest,
  type SynthesisResult,
  serializeError,
} from '@parla/speech';
import { Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';

/** What the server needs of the speech engine; one instance per process. */
export interface SpeechService {
  listVoices(): Promise<Language[]>;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  close(): Promise<void>;
}

export interface SpeechServiceOptions {
  /** Content-addressed cache of rendered audio: a repeated request is not synthesised again. */
  cacheDir: string;
  /** Worker threads of this process; default: one per available core. */
  workers?: number;
  /**
   * With a Redis URL, requests go through a BullMQ queue that this process and any number of
   * `parla worker` processes on other machines consume (ARCHITECTURE.md "when one machine is
   * not enough"). Without it, the worker-thread pool of this process answers directly.
   */
  redisUrl?: string | undefined;
  /** Key prefix of the queue in Redis (tests use their own). */
  queuePrefix?: string;
  /** The neural engine's installed voices (config VOICES_DIR, default DATA_DIR/voices). */
  voicesDir?: string;
}

/** The BullMQ queue every Parla process of one installation shares. */
export const SPEECH_QUEUE = 'parla-synthesis';
const DEFAULT_PREFIX = 'parla';
/** A request that no worker finished in this time fails instead of hanging the page. */
const QUEUE_TIMEOUT_MS = 150_000;
const VOICES_TTL_MS = 60_000;

type SpeechJob = { kind: 'synthesize'; request: SynthesisRequest } | { kind: 'voices' };
/** A synthesis result as it crosses Redis: JSON, so the audio travels as base64. */
type WireResult = Omit<SynthesisResult, 'audio'> & { audio: string };

function redis(url: string): Redis {
  // BullMQ's blocking commands need maxRetriesPerRequest: null (BullMQ "Connections").
  return new Redis(url, { maxRetriesPerRequest: null });
}

/**
 * Synthesis off the event loop (issue 3, item 8): the worker-thread pool renders every request
 * and loads the voice catalogue, so the HTTP server answers other requests meanwhile.
 */
export function createSpeechService(options: SpeechServiceOptions): SpeechService {
  const pool = new SpeechPool({
    cacheDir: options.cacheDir,
    voicesDir: options.voicesDir,
    ...(options.workers !== undefined && { size: options.workers }),
  });
  if (!options.redisUrl) {
    return {
      listVoices: () => pool.listVoices(),
      synthesize: (request) => pool.synthesize(request),
      close: () => pool.close(),
    };
  }
  const prefix = options.queuePrefix ?? DEFAULT_PREFIX;
  // This process consumes the queue too, so one server with Redis works on its own.
  const consumer = startSpeechWorker({ redisUrl: options.redisUrl, pool, prefix });
  const queued = createQueueClient({ redisUrl: options.redisUrl, prefix });
  return {
    ...queued,
    close: async () => {
      await queued.close();
      await consumer.close();
    },
  };
}

/** The producing side: enqueues requests and waits for whichever worker renders them. */
export function createQueueClient({
  redisUrl,
  prefix = DEFAULT_PREFIX,
  timeoutMs = QUEUE_TIMEOUT_MS,
}: {
  redisUrl: string;
  prefix?: string;
  timeoutMs?: number;
}): SpeechService {
  const connection = redis(redisUrl);
  const queue = new Queue<SpeechJob>(SPEECH_QUEUE, { connection, prefix });
  const events = new QueueEvents(SPEECH_QUEUE, { connection: redis(redisUrl), prefix });
  let voices: { at: number; list: Promise<Language[]> } | undefined;

  async function run<T>(data: SpeechJob): Promise<T> {
    // Finished jobs stay a minute (the waiter reads their state), then Redis forgets them.
    const job = await queue.add(data.kind, data, {
      removeOnComplete: { age: 60 },
      removeOnFail: { age: 60 },
    });
    try {
      return (await job.waitUntilFinished(events, timeoutMs)) as T;
    } catch (error) {
      throw speechErrorOf(error);
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
    async synthesize(request) {
      const wire = await run<WireResult>({ kind: 'synthesize', request });
      return { ...wire, audio: new Uint8Array(Buffer.from(wire.audio, 'base64')) };
    },
    async close() {
      await events.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

/**
 * The consuming side: renders queued requests in a local worker-thread pool. `parla worker`
 * runs one on its own; every server with REDIS_URL runs one beside its HTTP routes.
 */
export function startSpeechWorker({
  redisUrl,
  pool,
  prefix = DEFAULT_PREFIX,
}: {
  redisUrl: string;
  pool: SpeechPool;
  prefix?: string;
}): { close(): Promise<void> } {
  const connection = redis(redisUrl);
  const worker = new Worker<SpeechJob>(
    SPEECH_QUEUE,
    async (job) => {
      try {
        if (job.data.kind === 'voices') return await pool.listVoices();
        const result = await pool.synthesize(job.data.request);
        const { cached: _cached, ...rest } = result;
        return {
          ...rest,
          audio: Buffer.from(result.audio).toString('base64'),
        } satisfies WireResult;
      } catch (error) {
        // Bad SSML or an unknown voice fails the same way every time: no retry, and the
        // caller gets the error's code and position back.
        throw new UnrecoverableError(JSON.stringify(serializeError(error)));
      }
    },
    { connection, prefix, concurrency: pool.size },
  );
  return {
    async close() {
      await worker.close();
      // BullMQ leaves a connection it was given open.
      connection.disconnect();
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
  return new SpeechError('engine', `The speech service failed: ${message}`);
}
