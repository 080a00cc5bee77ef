import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const VISITOR_COOKIE = 'parla_visitor';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The anonymous visitor's id, from a signed cookie (so it cannot be forged to borrow another
 * visitor's allowance); a new one is set when missing or tampered with.
 */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const known = knownVisitorId(request);
  if (known) return known;
  const id = randomBytes(16).toString('base64url');
  reply.setCookie(VISITOR_COOKIE, id, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/api',
    maxAge: ONE_YEAR_SECONDS,
  });
  return id;
}

/** The visitor id of a validly signed cookie, or undefined. */
export function knownVisitorId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[VISITOR_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}
