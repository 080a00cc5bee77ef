import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'parla';
const AUDIENCE = 'parla-web';
/** How long a login lasts; the web app keeps the token cookie until the same instant. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export interface IssuedToken {
  token: string;
  /** ISO-8601 instant at which the token expires (SPEC §3 Login response expire_date). */
  expire_date: string;
}

export interface TokenClaims {
  userId: string;
  /** Compared with the user's token_version: an older token is refused. */
  version: number;
  /** The token's own id, which logout revokes (docs/decisions/013-logout-revokes-by-jti.md). */
  jti: string;
  /** When the token expires; a revocation is kept until then. */
  expiresAt: Date;
}

export class TokenService {
  readonly #key: Uint8Array;

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
  }

  async issue(userId: string, version: number, now = new Date()): Promise<IssuedToken> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const exp = issuedAt + TOKEN_LIFETIME_SECONDS;
    const token = await new SignJWT({ ver: version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.#key);
    return { token, expire_date: new Date(exp * 1000).toISOString() };
  }

  /**
   * The claims of a valid, unexpired token signed by us, or undefined. A token without `exp`
   * (or `jti`) is refused: it would never end and could not be revoked.
   */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'jti', 'sub'],
      });
      const { sub, ver, jti, exp } = payload;
      if (typeof sub !== 'string' || typeof ver !== 'number' || typeof jti !== 'string') {
        return undefined;
      }
      return { userId: sub, version: ver, jti, expiresAt: new Date((exp as number) * 1000) };
    } catch {
      return undefined;
    }
  }
}
