import rateLimit from '@fastify/rate-limit';
import type { PlanType } from '@parla/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { type AbuseLimits, addressKey } from '../lib/limits.js';

export interface RateLimitPluginOptions {
  /** With REDIS_URL: every limiter of every server counts in Redis, so N servers share one limit. */
  redis?: Redis;
  /** Key prefix of the counters in Redis. */
  nameSpace?: string;
}

/**
 * Who is calling, for a limit: the verified user, else the client's address (an IPv6 one by
 * its /64). An Authorization header that does not verify counts as its address: junk tokens or
 * spaces in the header cannot make a new caller (issue 13, item 2); nor can visitor cookies,
 * which a script mints at will (five gave 150 conversions a minute, issue 28).
 */
export async function callerKey(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const user = await app.resolveUser(request);
  return user ? `user:${user.id}` : `ip:${addressKey(request.ip)}`;
}

/** The plan of the caller a key names (callerKey), or 'anonymous'. */
export async function callerPlan(
  app: FastifyInstance,
  request: FastifyRequest,
  key: string,
): Promise<'anonymous' | PlanType> {
  if (!key.startsWith('user:')) return 'anonymous';
  return ((await app.resolveUser(request))?.plan_type as PlanType | undefined) ?? 'FREE';
}

export type ConversionsPerMinute = Record<'anonymous' | PlanType, number>;

/**
 * The rate limit of a route that converts (the convertor, the public API, OpenAI's route):
 * conversions per minute by the caller's plan, counted per caller.
 */
export function conversionRateLimit(perMinute: ConversionsPerMinute) {
  return {
    max: async (request: FastifyRequest, key: string) =>
      perMinute[await callerPlan(request.server, request, key)],
    timeWindow: 60_000,
  };
}

const tooMany = (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`;

/**
 * @fastify/rate-limit for the routes that set config.rateLimit (convert, pay, change and reset
 * password), keyed on the caller; its store is Redis when one is configured, else this process.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, options: RateLimitPluginOptions) => {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => callerKey(app, request),
    ...(options.redis && { redis: options.redis }),
    ...(options.nameSpace && { nameSpace: options.nameSpace }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: tooMany(Math.ceil(context.ttl / 1000)),
    }),
  });
});

function addressOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown; from?: unknown } | undefined;
  const address = body?.email ?? body?.from;
  return typeof address === 'string' ? address.trim().toLowerCase() : '';
}

/**
 * A preHandler (the body is parsed by then) for a route bots target: counts the request by
 * client IP and by the email address it names, so neither many addresses from one IP nor one
 * address from many IPs gets through. Both counters are @fastify/rate-limit's, in the same
 * store as every other limit (Redis when configured). `byAddress: false` counts by IP only
 * (login: its own progressive delay per address must not turn into a lock-out).
 */
export function abuseLimit(
  app: FastifyInstance,
  route: string,
  limits: AbuseLimits,
  { byAddress = true }: { byAddress?: boolean } = {},
) {
  const perIp = app.createRateLimit({
    max: limits.perIp,
    timeWindow: limits.timeWindowMs,
    keyGenerator: (request) => `${route}:ip:${addressKey(request.ip)}`,
  });
  const perAddress = app.createRateLimit({
    max: limits.perAddress,
    timeWindow: limits.timeWindowMs,
    keyGenerator: (request) => `${route}:address:${addressOf(request)}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const counted = [
      await perIp(request),
      ...(byAddress && addressOf(request) ? [await perAddress(request)] : []),
    ];
    const waits = counted.flatMap((result) =>
      !result.isAllowed && result.isExceeded ? [result.ttlInSeconds] : [],
    );
    if (waits.length > 0) {
      const seconds = Math.max(...waits);
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send({ message: tooMany(seconds) });
    }
  };
}
