import { Redis } from 'ioredis';

/** Where Redis's state changes are said: pino's shape (the app's logger), else JSON lines. */
export interface RedisLog {
  error(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** A JSON line on standard error, as pino writes one, for processes without a logger. */
function jsonLine(level: number, fields: object, message: string) {
  const line = Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      value instanceof Error ? { type: value.name, message: value.message } : value,
    ]),
  );
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...line, msg: message })}\n`);
}

const jsonLines: RedisLog = {
  error: (fields, message) => jsonLine(50, fields, message),
  info: (fields, message) => jsonLine(30, fields, message),
};

/** Something that reports Redis errors: an ioredis client, or a BullMQ queue, worker or events. */
interface ErrorSource {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * One process's view of its Redis. Every client and BullMQ object is watched, so that nothing
 * prints ioredis's "Unhandled error event" or BullMQ's own lines: an unreachable Redis is
 * logged once when it goes away (with the error) and once when it is back, as JSON, however
 * many clients retry meanwhile (issue 27 item 7: 3,752 raw lines in 12 s before).
 */
export class RedisClients {
  #failing = false;

  constructor(
    readonly url: string,
    private readonly log: RedisLog = jsonLines,
  ) {}

  /**
   * A new client (BullMQ's blocking commands need maxRetriesPerRequest: null and no command
   * timeout). A client serving requests passes `commandTimeout`: a hung Redis (SIGSTOP, a
   * network partition) then fails its commands after that long instead of holding requests
   * forever (issue 28 item 8).
   */
  connection(
    options: { maxRetriesPerRequest?: number | null; commandTimeout?: number } = {},
  ): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: null, ...options });
    client.on('ready', () => this.#reachable());
    return this.watch(client);
  }

  /** Sends the errors of a client or a BullMQ object to this view, and answers it. */
  watch<T extends ErrorSource>(source: T): T {
    source.on('error', (error) => this.#unreachable(error));
    return source;
  }

  #unreachable(error: Error) {
    if (this.#failing) return;
    this.#failing = true;
    this.log.error(
      { err: error, redis: redactedUrl(this.url) },
      'Redis is unreachable: retrying; limits, queues and schedules wait for it',
    );
  }

  #reachable() {
    if (!this.#failing) return;
    this.#failing = false;
    this.log.info({ redis: redactedUrl(this.url) }, 'Redis is reachable again');
  }
}

/**
 * How long a command of a client that serves requests may take (the limits', the speech
 * queue's producer): a healthy Redis answers in a millisecond; past this it is unavailable.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** Whether an error says Redis cannot be reached now (down, hung, or reconnecting). */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return true;
  return /^(Command timed out|Connection is closed\.?|Stream isn't writeable)/.test(error.message);
}

/** The address without its password, for the logs. */
function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
