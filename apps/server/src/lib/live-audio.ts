import type { SpeechMark } from '@parla/contract';
import type { SpeechWarning } from '@parla/speech';
import type { Redis } from 'ioredis';
import type { RedisClients } from './redis.js';

/**
 * The bytes of a rendering while it is being rendered (issue 14, item 1;
 * docs/decisions/018-streamed-conversions.md): the renderer publishes each chunk of the file
 * as the pipeline encodes it, and any number of readers (the player's GET, a download, the
 * waveform) get every chunk from the first, then the next ones as they come, until the end.
 * The speech marks of the words heard so far travel beside the chunks (issue 33 item 5: the
 * read-along highlights words while the audio streams). Without Redis the channel lives in this process; with Redis it is a Redis stream, so that a
 * rendering by `parla worker` on another machine plays through whichever server the player
 * asks.
 */
export interface LiveAudio {
  /** What of the text will not be rendered as written: said before the first chunk. */
  warn(id: string, warnings: readonly SpeechWarning[]): Promise<void>;
  publish(id: string, chunk: Uint8Array): Promise<void>;
  /** The speech marks of the words a chunk made heard (after those given before). */
  mark(id: string, marks: readonly SpeechMark[]): Promise<void>;
  /**
   * The speech marks given so far of a live rendering, or of one that ended a moment ago;
   * undefined when none is here (never was, failed, or ended long enough ago).
   */
  marks(id: string): Promise<SpeechMark[] | undefined>;
  /** The last chunk was published: readers finish. */
  end(id: string): Promise<void>;
  /** The rendering failed: readers stop with this error. */
  fail(id: string, message: string): Promise<void>;
  /**
   * Every chunk of a live rendering from its first; undefined when none is live (never was, or
   * ended long enough ago that the stored file answers instead). Stopping the iteration early
   * (a client gone) is fine.
   */
  read(id: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /** Where a rendering is: still live, ended (its file stored), failed, or unknown here. */
  state(id: string): Promise<'live' | 'ended' | 'failed' | undefined>;
  /**
   * Settles once the rendering under `id` has its first bytes out (or has ended), with its
   * warnings: rejects with its failure (`LiveAudioError`) when that came first, or when
   * nothing came in `timeoutMs`.
   */
  started(id: string, timeoutMs: number): Promise<SpeechWarning[]>;
  /** A reader starts (counted across every server of the installation). */
  attach(id: string): Promise<void>;
  /** A reader left; answers how many are left. */
  detach(id: string): Promise<number>;
  /** How many read it now. */
  readers(id: string): Promise<number>;
  /** Nobody reads the rendering any more: its renderer stops at its next chunk. */
  abandon(id: string): Promise<void>;
  abandoned(id: string): Promise<boolean>;
  close(): Promise<void>;
}

/** How long an ended rendering stays readable here, for readers that come a little late. */
const KEEP_AFTER_END_MS = 60_000;
/** A Redis stream's lifetime: far longer than any rendering (the queue gives up at 150 s). */
const REDIS_TTL_SECONDS = 600;

/** A live rendering failed after its first bytes were sent. */
export class LiveAudioError extends Error {}

interface Channel {
  warnings: SpeechWarning[];
  chunks: Uint8Array[];
  marks: SpeechMark[];
  state: 'live' | 'ended' | 'failed';
  message: string;
  wake: Set<() => void>;
  readers: number;
  abandoned: boolean;
}

/** The channel of one process: renderer and readers share memory. */
export function memoryLiveAudio(): LiveAudio {
  const channels = new Map<string, Channel>();
  const channel = (id: string): Channel => {
    let found = channels.get(id);
    if (!found) {
      found = {
        warnings: [],
        chunks: [],
        marks: [],
        state: 'live',
        message: '',
        wake: new Set(),
        readers: 0,
        abandoned: false,
      };
      channels.set(id, found);
    }
    return found;
  };
  const settle = (id: string, state: 'ended' | 'failed', message = '') => {
    const found = channel(id);
    found.state = state;
    found.message = message;
    for (const wake of found.wake) wake();
    setTimeout(() => channels.delete(id), KEEP_AFTER_END_MS).unref();
  };
  return {
    async warn(id, warnings) {
      channel(id).warnings.push(...warnings);
    },
    async publish(id, chunk) {
      const found = channel(id);
      found.chunks.push(chunk);
      for (const wake of found.wake) wake();
    },
    async mark(id, marks) {
      channel(id).marks.push(...marks);
    },
    async marks(id) {
      const found = channels.get(id);
      return found && found.state !== 'failed' ? [...found.marks] : undefined;
    },
    end: async (id) => settle(id, 'ended'),
    fail: async (id, message) => settle(id, 'failed', message),
    state: async (id) => channels.get(id)?.state,
    async read(id) {
      const found = channels.get(id);
      if (!found) return undefined;
      return (async function* () {
        let next = 0;
        for (;;) {
          // A failed rendering is not played further (nor from its start by a late reader).
          if (found.state === 'failed') throw new LiveAudioError(found.message);
          while (next < found.chunks.length) yield found.chunks[next++] as Uint8Array;
          if (found.state === 'ended') return;
          await new Promise<void>((resolve) => {
            const wake = () => {
              found.wake.delete(wake);
              resolve();
            };
            found.wake.add(wake);
          });
        }
      })();
    },
    started(id, timeoutMs) {
      const found = channel(id);
      return new Promise<SpeechWarning[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          found.wake.delete(check);
          reject(new LiveAudioError('No audio came in time.'));
        }, timeoutMs);
        const check = () => {
          if (found.chunks.length === 0 && found.state === 'live') return;
          clearTimeout(timer);
          found.wake.delete(check);
          if (found.chunks.length === 0 && found.state === 'failed') {
            reject(new LiveAudioError(found.message));
          } else {
            resolve(found.warnings);
          }
        };
        found.wake.add(check);
        check();
      });
    },
    async attach(id) {
      channel(id).readers += 1;
    },
    async detach(id) {
      const found = channel(id);
      found.readers = Math.max(0, found.readers - 1);
      return found.readers;
    },
    readers: async (id) => channels.get(id)?.readers ?? 0,
    async abandon(id) {
      channel(id).abandoned = true;
    },
    abandoned: async (id) => channels.get(id)?.abandoned === true,
    async close() {
      channels.clear();
    },
  };
}

/** A reader blocks on XREAD for seconds: no command timeout of the client it is made from. */
const BLOCKING = { commandTimeout: undefined };

/**
 * The channel of an installation: a Redis stream per rendering, `{prefix}:live:{id}`, whose
 * entries are the warnings (`w`, JSON, before the first chunk), a chunk (`d`), the end
 * (`end`) or a failure (`error`). Readers block on XREAD
 * with a connection of their own, so a slow reader holds nothing of anyone else's. The speech
 * marks are a list beside it, `{prefix}:live:{id}:marks`, an entry (JSON) per chunk: the
 * stream's readers never see them.
 */
export function redisLiveAudio(clients: RedisClients, redis: Redis, prefix: string): LiveAudio {
  const keyOf = (id: string) => `${prefix}:live:${id}`;
  const marksOf = (id: string) => `${keyOf(id)}:marks`;
  const state = async (id: string): Promise<'live' | 'ended' | 'failed' | undefined> => {
    const [last] = await redis.xrevrangeBuffer(keyOf(id), '+', '-', 'COUNT', 1);
    if (!last) return undefined;
    const field = last[1][0]?.toString();
    return field === 'end' ? 'ended' : field === 'error' ? 'failed' : 'live';
  };
  const add = async (id: string, field: string, value: Uint8Array | string) => {
    const key = keyOf(id);
    await redis
      .multi()
      .xadd(key, '*', field, Buffer.from(value))
      .expire(key, REDIS_TTL_SECONDS)
      .exec();
  };
  return {
    warn: (id, warnings) => add(id, 'w', JSON.stringify(warnings)),
    publish: (id, chunk) => add(id, 'd', chunk),
    async mark(id, marks) {
      if (marks.length === 0) return;
      const key = marksOf(id);
      await redis.multi().rpush(key, JSON.stringify(marks)).expire(key, REDIS_TTL_SECONDS).exec();
    },
    async marks(id) {
      const now = await state(id);
      if (now === undefined || now === 'failed') return undefined;
      const entries = await redis.lrange(marksOf(id), 0, -1);
      return entries.flatMap((entry) => JSON.parse(entry) as SpeechMark[]);
    },
    async end(id) {
      await add(id, 'end', '1');
      // Late readers have a minute; then the stored file answers.
      await redis
        .multi()
        .expire(keyOf(id), KEEP_AFTER_END_MS / 1000)
        .expire(marksOf(id), KEEP_AFTER_END_MS / 1000)
        .exec();
    },
    fail: (id, message) => add(id, 'error', message),
    state,
    async read(id) {
      const key = keyOf(id);
      if ((await redis.exists(key)) === 0) return undefined;
      return (async function* () {
        const reader = clients.watch(redis.duplicate(BLOCKING));
        try {
          let last = '0';
          for (;;) {
            const answer = await reader.xreadBuffer('BLOCK', 15_000, 'STREAMS', key, last);
            if (!answer) {
              // Nothing for a while: the stream is gone (expired) or its renderer died.
              if ((await reader.exists(key)) === 0) {
                throw new LiveAudioError('The rendering stopped.');
              }
              continue;
            }
            for (const [, entries] of answer) {
              for (const [entryId, fields] of entries) {
                last = entryId.toString();
                const field = fields[0]?.toString();
                const value = fields[1] ?? Buffer.alloc(0);
                if (field === 'end') return;
                if (field === 'error') throw new LiveAudioError(value.toString());
                if (field === 'w') continue;
                yield new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
              }
            }
          }
        } finally {
          reader.disconnect();
        }
      })();
    },
    async started(id, timeoutMs) {
      const reader = clients.watch(redis.duplicate(BLOCKING));
      const deadline = Date.now() + timeoutMs;
      const warnings: SpeechWarning[] = [];
      try {
        // The warnings come first, then the first chunk (or the end, or the failure).
        for (let last = '0'; ; ) {
          const wait = Math.max(1, deadline - Date.now());
          const answer = await reader.xreadBuffer(
            'COUNT',
            1,
            'BLOCK',
            wait,
            'STREAMS',
            keyOf(id),
            last,
          );
          const entry = answer?.[0]?.[1][0];
          if (!entry) throw new LiveAudioError('No audio came in time.');
          last = entry[0].toString();
          const [field, value = Buffer.alloc(0)] = entry[1];
          if (field?.toString() === 'error') throw new LiveAudioError(value.toString());
          if (field?.toString() !== 'w') return warnings;
          warnings.push(...(JSON.parse(value.toString()) as SpeechWarning[]));
        }
      } finally {
        reader.disconnect();
      }
    },
    async attach(id) {
      const readers = `${keyOf(id)}:readers`;
      await redis.multi().incr(readers).expire(readers, REDIS_TTL_SECONDS).exec();
    },
    async detach(id) {
      return Math.max(0, await redis.decr(`${keyOf(id)}:readers`));
    },
    readers: async (id) => Math.max(0, Number(await redis.get(`${keyOf(id)}:readers`))),
    async abandon(id) {
      await redis.set(`${keyOf(id)}:abandoned`, '1', 'EX', REDIS_TTL_SECONDS);
    },
    abandoned: async (id) => (await redis.exists(`${keyOf(id)}:abandoned`)) === 1,
    async close() {},
  };
}
