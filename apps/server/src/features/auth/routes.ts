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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { type AbuseLimits, PASSWORD_ROUTE_LIMITS } from '../../lib/limits.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import type { TokenService } from '../../lib/tokens.js';
import { abuseLimit } from '../../plugins/rate-limit.js';
import { createUserRepository } from '../account/repository.js';
import { createKeyRepository } from './keys.js';
import { resetPasswordMail, validationMail } from './mails.js';
import { AUTH_MESSAGES } from './messages.js';

export interface AuthRoutesOptions {
  db: Db;
  mailer: Mailer;
  tokens: TokenService;
  publicUrl: string;
  limits: AbuseLimits;
}

// Verifying against a real hash when the address is unknown keeps the answer time the same,
// so timing does not reveal which addresses have accounts.
const DUMMY_HASH = await hashPassword('parla-timing-equaliser');

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { db, mailer, tokens, publicUrl, limits } = options;
  const users = createUserRepository(db);
  const keys = createKeyRepository(db);

  async function sendValidation(userId: string, email: string) {
    const key = await keys.issue(userId, 'validate_email', email);
    await mailer.send(validationMail(email, `${publicUrl}/auth/validate-email-address/${key}`));
  }

  app.post(
    '/register',
    {
      preHandler: abuseLimit(app, 'register', limits),
      schema: {
        tags: ['auth'],
        summary: 'Create an account (role USER, plan FREE) and mail a validation link',
        body: RegisterInputSchema,
        response: { 201: MessageResponseSchema, 409: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      if (await users.findByEmail(email)) {
        return reply.code(409).send({ message: AUTH_MESSAGES.duplicate });
      }
      const user = await users.create({ email, passwordHash: await hashPassword(password) });
      await sendValidation(user.id, user.email);
      return reply.code(201).send({ message: AUTH_MESSAGES.registered });
    },
  );

  app.post(
    '/login',
    {
      preHandler: abuseLimit(app, 'login', limits),
      schema: {
        tags: ['auth'],
        summary: 'Log in; an unvalidated address gets a new validation mail and no token',
        body: LoginInputSchema,
        response: { 200: LoginResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const user = await users.findByEmail(email);
      const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
      if (!user || !valid) {
        return reply.code(401).send({ message: AUTH_MESSAGES.wrongCredentials });
      }
      if (!user.email_validated_at) {
        await sendValidation(user.id, user.email);
        return { has_email_address_validated: false as const, token: null, expire_date: null };
      }
      const issued = await tokens.issue(user.id, user.token_version);
      return { has_email_address_validated: true as const, ...issued };
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
      const user = await users.findByEmail(request.body.email);
      if (user) {
        const key = await keys.issue(user.id, 'reset_password', user.email);
        await mailer.send(resetPasswordMail(user.email, `${publicUrl}/auth/reset-password/${key}`));
      }
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
          409: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const used = await keys.consume(request.params.key, 'validate_email');
      if (!used) return reply.code(400).send({ message: AUTH_MESSAGES.badKey });
      const user = await users.validateEmail(used.userId, used.email);
      if (!user) return reply.code(409).send({ message: AUTH_MESSAGES.duplicate });
      return tokens.issue(user.id, user.token_version);
    },
  );
};
