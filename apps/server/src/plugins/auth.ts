import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import type { User } from '../db/schema.js';
import { createRevokedTokenRepository } from '../lib/revoked-tokens.js';
import type { TokenClaims, TokenService } from '../lib/tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for routes that need a signed-in user (SPEC §6: bearer authorization). */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The user of a valid bearer token, or undefined (routes open to anonymous visitors). */
    resolveUser: (request: FastifyRequest) => Promise<User | undefined>;
  }
  interface FastifyRequest {
    /** The signed-in user; set by requireUser. */
    user: User;
    /** The claims of the bearer token that signed the user in; set by requireUser. */
    session: TokenClaims;
  }
}

export const SIGNED_OUT_MESSAGE = 'Your session has expired. Please log in again.';

export const authPlugin = fp(
  async (app: FastifyInstance, options: { db: Db; tokens: TokenService }) => {
    const revoked = createRevokedTokenRepository(options.db);
    type Session = { user: User; claims: TokenClaims } | undefined;
    // A request asks for its user more than once (its rate limit, then its route): one lookup.
    const resolved = new WeakMap<FastifyRequest, Promise<Session>>();
    function resolveSession(request: FastifyRequest): Promise<Session> {
      let session = resolved.get(request);
      if (!session) {
        session = lookUpSession(request);
        resolved.set(request, session);
      }
      return session;
    }

    async function lookUpSession(request: FastifyRequest): Promise<Session> {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      const claims = token ? await options.tokens.verify(token) : undefined;
      if (!claims) return undefined;
      const user = await options.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', claims.userId)
        .executeTakeFirst();
      // A deleted user, a token issued before the last password change, or one ended by
      // logout is refused.
      if (!user || user.token_version !== claims.version) return undefined;
      if (await revoked.isRevoked(claims.jti)) return undefined;
      return { user, claims };
    }

    app.decorateRequest('user', null as unknown as User);
    app.decorateRequest('session', null as unknown as TokenClaims);
    app.decorate('resolveUser', async (request: FastifyRequest) => {
      return (await resolveSession(request))?.user;
    });
    app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await resolveSession(request);
      if (!session) return reply.code(401).send({ message: SIGNED_OUT_MESSAGE });
      request.user = session.user;
      request.session = session.claims;
    });
  },
);
