import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for (mails): the answer never depends on it, so it
 * takes the same time whatever the work is. A failure is logged; `drain` lets shutdown wait
 * for what is in flight.
 */
export function createBackgroundTasks(log: FastifyBaseLogger) {
  const pending = new Set<Promise<void>>();
  return {
    run(name: string, task: () => Promise<void>) {
      const running: Promise<void> = task()
        .catch((error: unknown) => log.error({ err: error, task: name }, 'background task failed'))
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async drain() {
      await Promise.allSettled([...pending]);
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
