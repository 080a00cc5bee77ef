import { Queue, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisClients } from './redis.js';

/**
 * Periodic housekeeping (the audio expiry, the saved-file purge). With Redis, each task is a
 * BullMQ job scheduler: whichever server's worker takes the job runs it, once per period for
 * the whole installation. Without Redis, a timer of this process.
 */
export interface Scheduler {
  /** Runs `task` once soon after start, then every `everyMs`. Register before start(). */
  every(name: string, everyMs: number, task: () => Promise<void>): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The BullMQ queue of the installation's schedules. */
export const SCHEDULE_QUEUE = 'parla-schedule';

export function createScheduler({
  redis,
  prefix,
  log,
}: {
  redis: RedisClients | undefined;
  prefix: string;
  log: FastifyBaseLogger;
}): Scheduler {
  const tasks = new Map<string, { everyMs: number; task: () => Promise<void> }>();
  const run = async (name: string) => {
    const entry = tasks.get(name);
    if (!entry) return;
    try {
      await entry.task();
    } catch (error) {
      log.error({ err: error, task: name }, 'scheduled task failed');
    }
  };
  const every: Scheduler['every'] = (name, everyMs, task) => {
    tasks.set(name, { everyMs, task });
  };

  if (!redis) {
    const timers: NodeJS.Timeout[] = [];
    return {
      every,
      async start() {
        for (const [name, { everyMs }] of tasks) {
          await run(name);
          const timer = setInterval(() => void run(name), everyMs);
          timer.unref();
          timers.push(timer);
        }
      },
      async close() {
        for (const timer of timers) clearInterval(timer);
      },
    };
  }

  const queueConnection = redis.connection();
  const workerConnection = redis.connection();
  const queue = redis.watch(new Queue(SCHEDULE_QUEUE, { connection: queueConnection, prefix }));
  let worker: Worker | undefined;
  return {
    every,
    async start() {
      // Upserting is idempotent: every server declares the same schedules, Redis keeps one.
      // The first run of a new schedule is immediate. Not awaited: a server starts while Redis
      // is away (and says so in /api/ready) rather than hang.
      Promise.all(
        [...tasks].map(([name, { everyMs }]) =>
          queue.upsertJobScheduler(
            name,
            { every: everyMs },
            { name, opts: { removeOnComplete: true, removeOnFail: 100 } },
          ),
        ),
      ).catch((error: unknown) => log.error({ err: error }, 'schedules could not be declared'));
      worker = redis.watch(
        new Worker(SCHEDULE_QUEUE, (job) => run(job.name), {
          connection: workerConnection,
          prefix,
        }),
      );
    },
    async close() {
      await worker?.close();
      await queue.close();
      queueConnection.disconnect();
      workerConnection.disconnect();
    },
  };
}
