import type { PlanType } from '@parla/contract';
import ipaddr from 'ipaddr.js';

/*
 * Every rate limit and capacity bound of the server, in one place. Why each number is what it
 * is: docs/decisions/012-limits-keyed-on-the-caller.md and 037. A caller is the verified user,
 * else its address (an IPv6 address by its /64; plugins/rate-limit.ts): the visitor cookie,
 * which anyone can drop for a new one, does not make a new caller.
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
 * change_email (issue 28: 40 of 40 calls sent mail to any address): per signed-in user, and
 * per target address (and per client address) as login's abuse limits count them.
 */
export const CHANGE_EMAIL_LIMITS = {
  perUser: { max: 5, timeWindowMs: 60 * 60 * 1000 },
  abuse: { perIp: 20, perAddress: 3, timeWindowMs: 60 * 60 * 1000 } satisfies AbuseLimits,
};

/**
 * Password hashes computed at once, and hashes waiting for a turn; beyond that a login is
 * answered 503 with Retry-After (lib/password.ts). Two of libuv's four threads stay free for
 * files and DNS, so pages keep loading while logins hash. `reserved` more places wait for the
 * logins of a device that signed in to that address before (features/auth): a flood of bad
 * logins cannot turn their owners away (issue 28 item 7).
 */
export const PASSWORD_HASHING = { concurrency: 2, queued: 22, reserved: 8 };

/**
 * The address an anonymous limit counts (docs/decisions/037): an IPv4 address as it is, an
 * IPv6 one by its /64. One IPv6 subscriber is given a whole /64 (RFC 6177), so counting single
 * IPv6 addresses gave one caller 2^64 allowances. An IPv4-mapped IPv6 address is its IPv4.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':');
  return `${network}::/64`;
}
