import type { FastifyReply, FastifyRequest } from 'fastify';

export interface AbuseLimits {
  /** Requests one IP address may make per window. */
  perIp: number;
  /** Requests naming one email address (body.email, or body.from for contact) per window. */
  perAddress: number;
  timeWindowMs: number;
}

/** Login, register, forgotten password and contact (issue 5 §4): generous for people, not bots. */
export const DEFAULT_ABUSE_LIMITS: AbuseLimits = {
  perIp: 60,
  perAddress: 10,
  timeWindowMs: 15 * 60 * 1000,
};

function addressOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown; from?: unknown } | undefined;
  const address = body?.email ?? body?.from;
  return typeof address === 'string' ? address.trim().toLowerCase() : '';
}

/**
 * Fixed-window counters for the routes bots target, by client IP and by the email address a
 * request names, so neither many addresses from one IP nor one address from many IPs gets
 * through. (@fastify/rate-limit runs one limiter per request, so it cannot hold both keys.)
 * The counters live in this process; with several servers each enforces its own share.
 */
export class AbuseLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #limits: AbuseLimits;

  constructor(limits: AbuseLimits) {
    this.#limits = limits;
  }

  /** Counts one request for the key; answers the seconds to wait when over the limit. */
  #hit(key: string, max: number, now: number): number | undefined {
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.#limits.timeWindowMs };
      this.#windows.set(key, window);
      if (this.#windows.size > 50_000) this.#sweep(now);
    }
    window.count += 1;
    return window.count > max ? Math.ceil((window.resetAt - now) / 1000) : undefined;
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }

  /**
   * A preHandler (the body is parsed by then) for the named route. `byAddress: false` counts by
   * IP only (login: its own progressive delay per address must not turn into a lock-out).
   */
  hook(route: string, { byAddress = true }: { byAddress?: boolean } = {}) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const now = Date.now();
      const address = byAddress ? addressOf(request) : '';
      const waits = [
        this.#hit(`${route}:ip:${request.ip}`, this.#limits.perIp, now),
        address
          ? this.#hit(`${route}:address:${address}`, this.#limits.perAddress, now)
          : undefined,
      ].filter((wait): wait is number => wait !== undefined);
      if (waits.length > 0) {
        const seconds = Math.max(...waits);
        return reply
          .code(429)
          .header('retry-after', String(seconds))
          .send({ message: `Too many requests. Please try again in ${seconds} seconds.` });
      }
    };
  }
}
