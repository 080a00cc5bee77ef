import { randomBytes } from 'node:crypto';

export const VISITOR_COOKIE = 'parla_visitor';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** What the visitor's id needs of a request: its signed cookies (@fastify/cookie's shape). */
export interface VisitorRequest {
  cookies: Record<string, string | undefined>;
  unsignCookie(value: string): { valid: boolean; value: string | null };
  protocol: string;
}

/** What setting the visitor's cookie needs of a reply. */
export interface VisitorReply {
  setCookie(
    name: string,
    value: string,
    options: {
      signed: boolean;
      httpOnly: boolean;
      sameSite: 'lax';
      secure: boolean;
      path: string;
      maxAge: number;
    },
  ): unknown;
}

/**
 * The anonymous visitor's id, from a signed cookie (so it cannot be forged to borrow another
 * visitor's allowance); a new one is set when missing or tampered with.
 */
export function visitorId(request: VisitorRequest, reply: VisitorReply): string {
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
function knownVisitorId(request: VisitorRequest): string | undefined {
  const raw = request.cookies[VISITOR_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}
