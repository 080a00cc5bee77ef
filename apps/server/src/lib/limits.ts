import type { PlanType } from '@parla/contract';

/*
 * Every rate limit and capacity bound of the server, in one place. Why each number is what it
 * is: docs/decisions/012-limits-keyed-on-the-caller.md. A caller is the verified user, else the
 * visitor cookie, else the IP address (plugins/rate-limit.ts).
 */

/** Conversions one caller may start per minute: synthesis is the costly work of the server. */
export const CONVERSIONS_PER_MINUTE: Record<'anonymous' | PlanType, number> = {
  anonymous: 30,
  FREE: 30,
  BASIC: 60,
  PREMIUM: 120,
  BUSINESS: 300,
};

/** Card payments one user may attempt per minute: a person pays a few times at most. */
export const PAYMENTS_PER_MINUTE = 10;

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

/** Each of these hashes a password (about a second of a core and 128 MiB, lib/password.ts). */
export const PASSWORD_ROUTE_LIMITS = {
  /** change_password per signed-in user. */
  change: { max: 5, timeWindowMs: 15 * 60 * 1000 },
  /** reset_password per caller (a visitor or an IP: the person is signed out). */
  reset: { max: 10, timeWindowMs: 15 * 60 * 1000 },
};

/**
 * Password hashes computed at once, and hashes waiting for a turn; beyond that a login is
 * answered 503 with Retry-After (lib/password.ts). Two of libuv's four threads stay free for
 * files and DNS, so pages keep loading while logins hash.
 */
export const PASSWORD_HASHING = { concurrency: 2, queued: 22 };
