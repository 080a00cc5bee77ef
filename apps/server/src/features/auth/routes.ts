import { createHash } from 'node:crypto';
import {
  ErrorResponseSchema,
  ForgottenPasswordInputSchema,
  LoginInputSchema,
  LoginResponseSchema,
  MessageResponseSchema,
  RegisterInputSchema,
  ResetPasswordInputSchema,
  ResetPasswordParamsSchema,
  ValidateEmailParamsSchema,
  ValidateEmailResponseSchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { createBackgroundTasks } from '../../lib/background.js';
import { type AbuseLimits, PASSWORD_ROUTE_LIMITS } from '../../lib/limits.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { createRevokedTokenRepository } from '../../lib/revoked-tokens.js';
import type { TokenService } from '../../lib/tokens.js';
import { abuseLimit } from '../../plugins/rate-limit.js';
import { createKeyRepository } from '../../services/accounts/keys.js';
import { existingAccountMail, resetPasswordMail } from '../../services/accounts/mails.js';
import { AUTH_MESSAGES } from '../../services/accounts/messages.js';
import { createSignInRepository } from '../../services/accounts/sign-ins.js';
import { createUserRepository, normaliseEmail } from '../../services/accounts/user-repository.js';
import { createValidationLinks } from '../../services/accounts/validation-link.js';
import type { PlanStore } from '../../services/plans/plan-store.js';
import { createLoginFailureRepository } from './login-failures.js';

export interface AuthRoutesOptions {
  db: Db;
  mailer: Mailer;
  tokens: TokenService;
  publicUrl: string;
  limits: AbuseLimits;
  /** The plans: a new account starts with the FREE plan's allowance. */
  plans: PlanStore;
  /** The clock of the login delay; tests move it. */
  now?: () => Date;
}

/**
 * A device that signed in to an address carries this signed cookie, naming the address (by
 * its hash); its logins to that address are served ahead of a flood of others (issue 28 item 7,
 * lib/password.ts). It proves nothing else: the password is still checked.
 */
const DEVICE_COOKIE = 'parla_device';
const DEVICE_COOKIE_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
const deviceValue = (address: string) =>
  createHash('sha256').update(`parla device ${address}`).digest('base64url');

function knownDevice(request: FastifyRequest, address: string): boolean {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return false;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value === deviceValue(address);
}

function rememberDevice(request: FastifyRequest, reply: FastifyReply, address: string) {
  reply.setCookie(DEVICE_COOKIE, deviceValue(address), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/api/auth',
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}

// Verifying against a real hash when the address is unknown keeps the answer time the same,
// so timing does not reveal which addresses have accounts.
const DUMMY_HASH = await hashPassword('parla-timing-equaliser');

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { db, mailer, tokens, publicUrl, limits } = options;
  const now = options.now ?? (() => new Date());
  const users = createUserRepository(db);
  const keys = createKeyRepository(db);
  const failures = createLoginFailureRepository(db);
  const revoked = createRevokedTokenRepository(db);
  // Mails leave after the answer: it then takes the same time whether or not the address has
  // an account (docs/decisions/014-auth-answers-reveal-no-address.md).
  const background = createBackgroundTasks(app.log);
  app.addHook('onClose', () => background.drain());

  const sendValidation = createValidationLinks(db, mailer, publicUrl);
  const signIns = createSignInRepository(db);

  app.post(
    '/register',
    {
      preHandler: abuseLimit(app, 'register', limits),
      schema: {
        tags: ['auth'],
        summary:
          'Create an account (role USER, plan FREE) and mail a validation link; an address that has an account gets a mail instead',
        body: RegisterInputSchema,
        response: { 201: MessageResponseSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      // Hashed either way, so a taken address answers as slowly as a new one.
      const passwordHash = await hashPassword(password);
      const existing = await users.findByEmail(email);
      const created = existing
        ? undefined
        : await users.createUnlessTaken({
            email,
            passwordHash,
            terms: (await options.plans.catalogue()).FREE,
          });
      if (created) {
        background.run('validation mail', () => sendValidation(created.id, created.email));
      } else {
        const owner = existing ?? (await users.findByEmail(email));
        if (owner) background.run('existing-account mail', () => tellOwner(owner));
      }
      return reply.code(201).send({ message: AUTH_MESSAGES.registered });
    },
  );

  /** Someone registered the owner's address: a validation link if it never was, else a note. */
  async function tellOwner(owner: {
    id: string;
    email: string;
    email_validated_at: string | null;
  }) {
    if (!owner.email_validated_at) return sendValidation(owner.id, owner.email);
    await mailer.send(
      existingAccountMail(owner.email, {
        login: `${publicUrl}/auth/login`,
        reset: `${publicUrl}/auth/forgotten-password`,
      }),
    );
  }

  app.post(
    '/login',
    {
      // By IP only: wrong passwords for one address slow it down (below) instead of locking
      // its owner out.
      preHandler: abuseLimit(app, 'login', limits, { byAddress: false }),
      schema: {
        tags: ['auth'],
        summary: 'Log in; an unvalidated address gets a new validation mail and no token',
        body: LoginInputSchema,
        response: {
          200: LoginResponseSchema,
          401: ErrorResponseSchema,
          403: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const address = normaliseEmail(email);
      const wait = await failures.waitSeconds(address, now());
      if (wait > 0) {
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ message: AUTH_MESSAGES.slowDown(wait) });
      }
      const user = await users.findByEmail(email);
      const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH, {
        trusted: knownDevice(request, address),
      });
      if (!user || !valid) {
        await failures.recordFailure(address, now());
        return reply.code(401).send({ message: AUTH_MESSAGES.wrongCredentials });
      }
      await failures.clear(address);
      rememberDevice(request, reply, address);
      // The right password of a disabled account: told so, and no token (decision 044).
      if (user.disabled_at) return reply.code(403).send({ message: AUTH_MESSAGES.disabled });
      if (!user.email_validated_at) {
        await sendValidation(user.id, user.email);
        return { has_email_address_validated: false as const, token: null, expire_date: null };
      }
      const issued = await tokens.issue(user.id, user.token_version);
      await signIns.record(user.id, request.ip, request.headers['user-agent']);
      return { has_email_address_validated: true as const, ...issued };
    },
  );

  app.post(
    '/logout',
    {
      preHandler: [app.requireUser, app.refuseApiKeys],
      schema: {
        tags: ['auth'],
        summary: 'End this session: the bearer token is refused from now on',
        security: [{ bearerAuth: [] }],
        response: { 200: MessageResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      await revoked.revoke(request.session.jti, request.session.expiresAt, now());
      return { message: AUTH_MESSAGES.loggedOut };
    },
  );

  app.post(
    '/forgotten_password',
    {
      preHandler: abuseLimit(app, 'forgotten_password', limits),
      schema: {
        tags: ['auth'],
        summary: 'Mail a password-reset link; the answer is the same for any address',
        body: ForgottenPasswordInputSchema,
        response: { 200: MessageResponseSchema },
      },
    },
    async (request) => {
      // Nothing that depends on the address happens before the answer: the lookup, the key
      // and the mail all run after it, so known and unknown addresses take the same time.
      const { email } = request.body;
      background.run('reset mail', async () => {
        const user = await users.findByEmail(email);
        if (!user) return;
        const key = await keys.issue(user.id, 'reset_password', user.email);
        await mailer.send(resetPasswordMail(user.email, `${publicUrl}/auth/reset-password/${key}`));
      });
      return { message: AUTH_MESSAGES.resetSent };
    },
  );

  app.put(
    '/reset_password/:key',
    {
      config: {
        rateLimit: {
          max: PASSWORD_ROUTE_LIMITS.reset.max,
          timeWindow: PASSWORD_ROUTE_LIMITS.reset.timeWindowMs,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the key from the reset mail',
        params: ResetPasswordParamsSchema,
        body: ResetPasswordInputSchema,
        response: { 200: MessageResponseSchema, 400: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const used = await keys.consume(request.params.key, 'reset_password');
      if (!used) return reply.code(400).send({ message: AUTH_MESSAGES.badKey });
      // The link reached the address by mail, which proves it as well as a validation link.
      await users.setPassword(used.userId, await hashPassword(request.body.password), {
        validateEmail: used.email,
      });
      return { message: AUTH_MESSAGES.passwordReset };
    },
  );

  app.get(
    '/validate_email_address/:key',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm an email address (new account or changed address) and sign in',
        params: ValidateEmailParamsSchema,
        response: {
          200: ValidateEmailResponseSchema,
          400: ErrorResponseSchema,
          403: ErrorResponseSchema,
          409: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const used = await keys.consume(request.params.key, 'validate_email');
      if (!used) return reply.code(400).send({ message: AUTH_MESSAGES.badKey });
      const user = await users.validateEmail(used.userId, used.email);
      if (!user) return reply.code(409).send({ message: AUTH_MESSAGES.duplicate });
      if (user.disabled_at) return reply.code(403).send({ message: AUTH_MESSAGES.disabled });
      const issued = await tokens.issue(user.id, user.token_version);
      await signIns.record(user.id, request.ip, request.headers['user-agent']);
      return issued;
    },
  );
};
