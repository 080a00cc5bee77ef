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
      .sign(this.#key);
    return { token, expire_date: new Date(exp * 1000).toISOString() };
  }

  /** The claims of a valid, unexpired token signed by us, or undefined. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return undefined;
      return { userId: payload.sub, version: payload.ver };
    } catch {
      return undefined;
    }
  }
}
