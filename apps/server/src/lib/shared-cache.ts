import type { RedisClients } from './redis.js';

/**
 * A value every server keeps in memory and reads again when it changes (the operator's
 * settings: voice rules, content, plans). Read again after a change on this server at once, on
 * another server by a message on Redis (`{prefix}:{topic}`), and at the latest after `ttlMs`
 * (without Redis, the bound). A failed read is not kept: the next caller tries again.
 */
export interface SharedCacheOptions {
  /** The channel's name after the prefix, e.g. `voice-settings`. */
  topic: string;
  ttlMs: number;
  /** With Redis, a change is announced to the other servers at once. */
  redis?: RedisClients | undefined;
  prefix?: string;
}

export interface SharedCache<T> {
  get(): Promise<T>;
  /** After a change committed here: read again at once here, and on the others by message. */
  changed(): Promise<void>;
  close(): Promise<void>;
}

export function createSharedCache<T>(
  read: () => Promise<T>,
  options: SharedCacheOptions,
): SharedCache<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  const channel = `${options.prefix ?? 'parla'}:${options.topic}`;
  const publisher = options.redis?.connection({ maxRetriesPerRequest: 1 });
  const subscriber = options.redis?.connection();
  if (subscriber) {
    subscriber.subscribe(channel).catch(() => undefined);
    subscriber.on('message', (from) => {
      if (from === channel) cached = undefined;
    });
  }
  return {
    get() {
      if (!cached || Date.now() - cached.at > options.ttlMs) {
        const loaded = read().catch((error: unknown) => {
          cached = undefined;
          throw error;
        });
        cached = { at: Date.now(), value: loaded };
      }
      return cached.value;
    },
    async changed() {
      cached = undefined;
      await publisher?.publish(channel, 'changed').catch(() => undefined);
    },
    async close() {
      await subscriber?.quit().catch(() => undefined);
      await publisher?.quit().catch(() => undefined);
    },
  };
}
