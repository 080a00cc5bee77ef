import {
  ChangeEmailInputSchema,
  ChangePasswordInputSchema,
  ErrorResponseSchema,
  findCountry,
  InvoiceInfoInputSchema,
  MessageResponseSchema,
  ProfileSchema,
  TaxIdListSchema,
  taxIdLabel,
  ValidateEmailResponseSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { createBackgroundTasks } from '../../lib/background.js';
import { CHANGE_EMAIL_LIMITS, PASSWORD_ROUTE_LIMITS } from '../../lib/limits.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import type { TokenService } from '../../lib/tokens.js';
import { abuseLimit } from '../../plugins/rate-limit.js';
import { deleteAccount } from '../../services/accounts/delete-account.js';
import { addressClaimedMail } from '../../services/accounts/mails.js';
import { createUserRepository, toProfile } from '../../services/accounts/user-repository.js';
import { createValidationLinks } from '../../services/accounts/validation-link.js';
import type { PlanStore } from '../../services/plans/plan-store.js';
import { isValidTaxCode, TAX_ID_TYPES } from './tax-ids.js';

export interface AccountRoutesOptions {
  db: Db;
  mailer: Mailer;
  tokens: TokenService;
  publicUrl: string;
  /** Where audio and saved files' bytes are: deleting the account removes them after commit. */
  storage: ObjectStorage;
  /** The plans' terms: the profile names the engines of the user's plan. */
  plans: PlanStore;
}

export const ACCOUNT_MESSAGES = {
  sameEmail: 'This is already the email address of your account.',
  emailChangePending: (email: string) =>
    `We sent a link to ${email}. Open it to confirm the new address; until then, log in with your current one.`,
  wrongOldPassword: 'Your current password is not correct.',
  deleted: 'Your account and everything saved in it are deleted.',
  invoiceSaved: 'Billing settings saved.',
  unknownCountry: (country: string) => `${country} is not a country code we know.`,
  taxTypeNotForCountry: (type: string, country: string) =>
    `${taxIdLabel(type)} is not a tax id type of ${country}.`,
  badTaxCode: (type: string, example: string) =>
    `This is not a valid ${taxIdLabel(type)} code; it should look like ${example}.`,
} as const;

const bearer = [{ bearerAuth: [] }];

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, options) => {
  const { db, mailer, tokens, publicUrl } = options;
  const users = createUserRepository(db);
  const sendValidation = createValidationLinks(db, mailer, publicUrl);
  // Mails leave after the answer (docs/decisions/014-auth-answers-reveal-no-address.md).
  const background = createBackgroundTasks(app.log);
  app.addHook('onClose', () => background.drain());
  // onRequest: a missing token is answered 401 before the body is even validated.
  app.addHook('onRequest', app.requireUser);
  // An API key reads the profile; it changes nothing of the account (issue 16).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return app.refuseApiKeys(request, reply);
  });

  app.get(
    '/profile',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user and their plan',
        security: bearer,
        response: { 200: ProfileSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => toProfile(request.user, await options.plans.catalogue()),
  );

  app.put(
    '/change_email',
    {
      // Each call mails the address it names: per user, and per address named.
      config: {
        rateLimit: {
          max: CHANGE_EMAIL_LIMITS.perUser.max,
          timeWindow: CHANGE_EMAIL_LIMITS.perUser.timeWindowMs,
        },
      },
      preHandler: abuseLimit(app, 'change_email', CHANGE_EMAIL_LIMITS.abuse),
      schema: {
        tags: ['account'],
        summary: 'Change the email address: it is used once the link mailed to it is opened',
        security: bearer,
        body: ChangeEmailInputSchema,
        response: {
          200: MessageResponseSchema,
          400: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      if (email === request.user.email) {
        return reply.code(400).send({ message: ACCOUNT_MESSAGES.sameEmail });
      }
      // The same answer whether the address is free or taken, and nothing that depends on it
      // before the answer: a taken address's owner is told instead (decision 014).
      const userId = request.user.id;
      background.run('change-email mail', async () => {
        const owner = await users.findByEmail(email);
        if (owner) {
          await mailer.send(
            addressClaimedMail(owner.email, {
              login: `${publicUrl}/auth/login`,
              reset: `${publicUrl}/auth/forgotten-password`,
            }),
          );
          return;
        }
        await sendValidation(userId, email);
      });
      return { message: ACCOUNT_MESSAGES.emailChangePending(email) };
    },
  );

  app.put(
    '/change_password',
    {
      // Each attempt hashes twice; the caller is the signed-in user.
      config: {
        rateLimit: {
          max: PASSWORD_ROUTE_LIMITS.change.max,
          timeWindow: PASSWORD_ROUTE_LIMITS.change.timeWindowMs,
        },
      },
      schema: {
        tags: ['account'],
        summary: 'Change the password; other sessions end, this one gets a new token',
        security: bearer,
        body: ChangePasswordInputSchema,
        // The answer is a new session, of the same shape as the one email validation gives.
        response: { 200: ValidateEmailResponseSchema, 400: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { old_password, new_password } = request.body;
      if (!(await verifyPassword(old_password, request.user.password_hash))) {
        return reply.code(400).send({ message: ACCOUNT_MESSAGES.wrongOldPassword });
      }
      const user = await users.setPassword(request.user.id, await hashPassword(new_password));
      if (!user) return reply.code(400).send({ message: ACCOUNT_MESSAGES.wrongOldPassword });
      return tokens.issue(user.id, user.token_version);
    },
  );

  app.get(
    '/tax_ids',
    {
      schema: {
        tags: ['account'],
        summary: 'Tax id types per country, with the pattern a code must match',
        security: bearer,
        response: { 200: TaxIdListSchema },
      },
    },
    async () => [...TAX_ID_TYPES],
  );

  app.put(
    '/invoice_info',
    {
      schema: {
        tags: ['account'],
        summary: 'Save the billing details printed on invoices',
        security: bearer,
        body: InvoiceInfoInputSchema,
        response: { 200: MessageResponseSchema, 400: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const info = request.body;
      const country = findCountry(info.address.country);
      if (!country) {
        return reply
          .code(400)
          .send({ message: ACCOUNT_MESSAGES.unknownCountry(info.address.country) });
      }
      const { type, code } = info.tax;
      if (type !== null && code !== null) {
        const option = TAX_ID_TYPES.find((t) => t.type === type && t.country === country.iso2);
        if (!option) {
          return reply
            .code(400)
            .send({ message: ACCOUNT_MESSAGES.taxTypeNotForCountry(type, country.country) });
        }
        if (!isValidTaxCode(type, country.iso2, code)) {
          return reply
            .code(400)
            .send({ message: ACCOUNT_MESSAGES.badTaxCode(type, option.example) });
        }
      }
      await users.updateInvoiceInfo(request.user.id, {
        ...info,
        address: { ...info.address, country: country.iso2 },
      });
      return { message: ACCOUNT_MESSAGES.invoiceSaved };
    },
  );

  app.delete(
    '/delete',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete the account with everything saved in it',
        security: bearer,
        response: { 200: MessageResponseSchema },
      },
    },
    async (request) => {
      await deleteAccount(db, options.storage, request.user.id);
      return { message: ACCOUNT_MESSAGES.deleted };
    },
  );
};
