import { createServer, type Server, Socket } from 'node:net';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { redisReachable, TEST_REDIS_URL } from '../../test/redis.js';
import { RedisClients, type RedisLog } from './redis.js';

const redis = await redisReachable('the Redis outage log test');

/** A log that keeps what it was told, as the app's logger would write it. */
function keptLog() {
  const lines: Array<{ level: 'error' | 'info'; message: string; fields: object }> = [];
  const log: RedisLog = {
    error: (fields, message) => lines.push({ level: 'error', message, fields }),
    info: (fields, message) => lines.push({ level: 'info', message, fields }),
  };
  return { log, lines };
}

/** A TCP port that forwards to the test Redis once `open` is called, and refuses before. */
async function gate(): Promise<{ url: string; open(): Promise<void>; close(): void }> {
  const target = new URL(TEST_REDIS_URL);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    url: `redis://127.0.0.1:${port}`,
    async open() {
      server = createServer((socket) => {
        sockets.add(socket);
        const upstream = new Socket();
        upstream.connect(Number(target.port || 6379), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server?.close();
    },
  };
}

describe('an unreachable Redis', () => {
  it.runIf(redis)(
    'is logged once when it goes and once when it is back, however many clients retry',
    async () => {
      const { log, lines } = keptLog();
      const door = await gate();
      const clients = new RedisClients(door.url, log);
      const first = clients.connection();
      const second = clients.connection({ maxRetriesPerRequest: 1 });
      const queue = clients.watch(
        new Queue('parla-outage-test', { connection: clients.connection(), prefix: 'outage' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        ['error', 'Redis is unreachable: retrying; limits, queues and schedules wait for it'],
      ]);
      expect(JSON.stringify(lines[0]?.fields)).toContain(door.url.replace('redis://', ''));

      await door.open();
      await first.ping();
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        ['error', 'Redis is unreachable: retrying; limits, queues and schedules wait for it'],
        ['info', 'Redis is reachable again'],
      ]);
      await queue.close();
      first.disconnect();
      second.disconnect();
      door.close();
    },
  );
});
