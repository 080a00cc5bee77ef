import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import type { User } from '../db/schema.js';
import type { TokenService } from '../lib/tokens.js';

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
  }
}

export const SIGNED_OUT_MESSAGE = 'Your session has expired. Please log in again.';

export const authPlugin = fp(
  async (app: FastifyInstance, options: { db: Db; tokens: TokenService }) => {
    // A request asks for its user more than once (its rate limit, then its route): one lookup.
    const resolved = new WeakMap<FastifyRequest, Promise<User | undefined>>();
    function resolveUser(request: FastifyRequest): Promise<User | undefined> {
      let user = resolved.get(request);
      if (!user) {
        user = lookUpUser(request);
        resolved.set(request, user);
      }
      return user;
    }

    async function lookUpUser(request: FastifyRequest): Promise<User | undefined> {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      const claims = token ? await options.tokens.verify(token) : undefined;
      if (!claims) return undefined;
      const user = await options.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', claims.userId)
        .executeTakeFirst();
      // A deleted user, or a token issued before the last password change, is refused.
      return user && user.token_version === claims.version ? user : undefined;
    }

    app.decorateRequest('user', null as unknown as User);
    app.decorate('resolveUser', resolveUser);
    app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await resolveUser(request);
      if (!user) return reply.code(401).send({ message: SIGNED_OUT_MESSAGE });
      request.user = user;
    });
  },
);
