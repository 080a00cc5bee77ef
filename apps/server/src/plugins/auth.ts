import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import type { User } from '../db/schema.js';
import { createRevokedTokenRepository } from '../lib/revoked-tokens.js';
import type { TokenClaims, TokenService } from '../lib/tokens.js';
import { API_KEY_PREFIX, createApiKeyRepository } from '../services/accounts/api-key-repository.js';
import { AUTH_MESSAGES } from '../services/accounts/messages.js';
import { createUserRepository } from '../services/accounts/user-repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks a bearer token of its own (METRICS_TOKEN), not a user's credentials. */
    ownBearer?: boolean;
  }
  interface FastifyInstance {
    /** preHandler for routes that need a signed-in user (SPEC §6: bearer authorization). */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The user of a valid bearer token or API key, or undefined (routes open to visitors). */
    resolveUser: (request: FastifyRequest) => Promise<User | undefined>;
    /**
     * onRequest hook after requireUser for what an API key may not do (issue 16): change the
     * email, password, billing or keys, delete the account, buy. 403 for a key.
     */
    refuseApiKeys: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user; set by requireUser. */
    user: User;
    /**
     * The claims of the bearer token that signed the user in; set by requireUser. Undefined
     * when an API key signed the request in (`apiKey` is set then).
     */
    session: TokenClaims;
    /** The API key that signed the request in, if one did; set by requireUser. */
    apiKey: { id: string } | undefined;
  }
}

export const SIGNED_OUT_MESSAGE = 'Your session has expired. Please log in again.';
export const API_KEY_REFUSED_MESSAGE =
  'An API key cannot do this: sign in on the website to change your account, billing or keys.';
export const BAD_API_KEY_MESSAGE = 'This API key is not valid (revoked, or mistyped).';

type Credentials = { kind: 'key' | 'token'; value: string };

/**
 * The credentials a request carries, if any: an API key (`X-API-Key`, or a bearer value that
 * starts like one) or a login token.
 */
function credentialsOf(request: FastifyRequest): Credentials | undefined {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return { kind: 'key', value: apiKey.trim() };
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  if (!token) return undefined;
  return { kind: token.startsWith(API_KEY_PREFIX) ? 'key' : 'token', value: token };
}

/** How often a key's "last used" is written (not at every request). */
const LAST_USED_RESOLUTION_MS = 60_000;

export const authPlugin = fp(
  async (app: FastifyInstance, options: { db: Db; tokens: TokenService }) => {
    const revoked = createRevokedTokenRepository(options.db);
    const apiKeys = createApiKeyRepository(options.db);
    const users = createUserRepository(options.db);
    type Session =
      | { user: User; claims: TokenClaims; apiKey?: undefined }
      | { user: User; claims?: undefined; apiKey: { id: string } }
      | undefined;
    /** What a request's credentials name: a session, none, or an account that is disabled. */
    type Lookup = Session | 'disabled';
    // A request asks for its user more than once (its rate limit, then its route): one lookup.
    const resolved = new WeakMap<FastifyRequest, Promise<Lookup>>();
    function resolveSession(request: FastifyRequest): Promise<Lookup> {
      let session = resolved.get(request);
      if (!session) {
        session = lookUpSession(request);
        resolved.set(request, session);
      }
      return session;
    }

    /** The user of an API key (`Authorization: Bearer parla_…` or `X-API-Key`). */
    async function lookUpKey(key: string): Promise<Lookup> {
      const row = await apiKeys.findUserByKey(key);
      if (!row) return undefined;
      const { api_key_id, api_key_last_used_at, ...user } = row;
      if (user.disabled_at) return 'disabled';
      const now = new Date();
      if (
        !api_key_last_used_at ||
        now.getTime() - Date.parse(api_key_last_used_at) > LAST_USED_RESOLUTION_MS
      ) {
        await apiKeys.touch(api_key_id, now);
      }
      return { user, apiKey: { id: api_key_id } };
    }

    async function lookUpSession(request: FastifyRequest): Promise<Lookup> {
      const credentials = credentialsOf(request);
      if (!credentials) return undefined;
      if (credentials.kind === 'key') return lookUpKey(credentials.value);
      const claims = await options.tokens.verify(credentials.value);
      if (!claims) return undefined;
      const user = await users.findById(claims.userId);
      // A deleted user, a token issued before the last password change, or one ended by
      // logout is refused.
      if (!user || user.token_version !== claims.version) return undefined;
      if (await revoked.isRevoked(claims.jti)) return undefined;
      // Read at every request: disabling an account ends its sessions at once.
      if (user.disabled_at) return 'disabled';
      return { user, claims };
    }

    /** Why credentials were refused, in the words of their kind. */
    const refusal = (credentials: Credentials | undefined, found?: Lookup) => {
      if (found === 'disabled') return AUTH_MESSAGES.disabled;
      // Nobody signed in: no session expired.
      if (!credentials) return AUTH_MESSAGES.signInNeeded;
      return credentials.kind === 'key' ? BAD_API_KEY_MESSAGE : SIGNED_OUT_MESSAGE;
    };

    // Credentials that do not verify (a revoked key, an expired token) are refused on every
    // API route, never read as an anonymous visitor: a script would otherwise spend the free
    // allowance of its address without noticing. OpenAI's routes answer this in their own
    // words (features/api/openai.ts); a route with a bearer token of its own (metrics) says
    // so with `config.ownBearer`. After the rate limit (onRequest), so junk credentials are
    // counted against their address, and before the body is read.
    app.addHook('preParsing', async (request) => {
      if (!request.url.startsWith('/api/') || request.routeOptions.config.ownBearer) return;
      const credentials = credentialsOf(request);
      if (!credentials) return;
      const found = await resolveSession(request);
      if (found && found !== 'disabled') return;
      throw Object.assign(new Error(refusal(credentials, found)), { statusCode: 401 });
    });

    app.decorateRequest('user', null as unknown as User);
    app.decorateRequest('session', null as unknown as TokenClaims);
    app.decorateRequest('apiKey', undefined);
    app.decorate('resolveUser', async (request: FastifyRequest) => {
      const found = await resolveSession(request);
      return found === 'disabled' ? undefined : found?.user;
    });
    app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await resolveSession(request);
      if (!session || session === 'disabled') {
        return reply.code(401).send({ message: refusal(credentialsOf(request), session) });
      }
      request.user = session.user;
      if (session.claims) request.session = session.claims;
      request.apiKey = session.apiKey;
    });
    app.decorate('refuseApiKeys', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.apiKey) return reply.code(403).send({ message: API_KEY_REFUSED_MESSAGE });
    });
  },
);
