import {
  ADMIN_MESSAGES,
  AdminAuditListSchema,
  AdminCharactersInputSchema,
  AdminContactMessageListSchema,
  AdminContactMessageSchema,
  AdminMessageParamsSchema,
  AdminMessageQuerySchema,
  AdminMessageStatusInputSchema,
  AdminPageQuerySchema,
  AdminPlanInputSchema,
  AdminRoleInputSchema,
  AdminUserDetailSchema,
  AdminUserListSchema,
  AdminUserParamsSchema,
  AdminUserQuerySchema,
  AdminUserSchema,
  ErrorResponseSchema,
  MessageResponseSchema,
  type PlanType,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { deleteAccount } from '../../services/accounts/delete-account.js';
import { createUserRepository } from '../../services/accounts/user-repository.js';
import { createValidationLinks } from '../../services/accounts/validation-link.js';
import {
  createAdminUserRepository,
  toAdminUser,
} from '../../services/admin/admin-user-repository.js';
import {
  isLastAdministrator,
  lockAdministrators,
  setRole,
} from '../../services/admin/administrators.js';
import { type Actor, createAuditLog } from '../../services/admin/audit-log.js';
import { createContactMessageRepository } from '../../services/contact/contact-message-repository.js';
import type { PlanStore } from '../../services/plans/plan-store.js';
import { type AdminContentOptions, adminContentRoutes } from './content.js';
import { type OverviewRoutesOptions, overviewRoutes } from './overview.js';
import { type AdminPaymentRoutesOptions, adminPaymentRoutes } from './payments.js';
import { adminPlanRoutes } from './plans.js';

import { type AdminVoicesOptions, adminVoiceRoutes } from './voices.js';

export interface AdminRoutesOptions extends AdminPaymentRoutesOptions {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  storage: ObjectStorage;
  plans: PlanStore;
  overview: Omit<OverviewRoutesOptions, 'db'>;
  voices: Omit<AdminVoicesOptions, 'db'>;
  content: Omit<AdminContentOptions, 'db'>;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

/** Thrown inside a transaction to undo it: the action would leave no administrator. */
class LastAdministrator extends Error {}

/**
 * /api/admin/* (issue 31, decision 044): the operator's console. Every request is checked
 * here, before anything else: a login token (never an API key, not even an administrator's)
 * of an account whose role, read from the database at this request, is ADMIN.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { db } = options;
  const users = createUserRepository(db);
  const consoleUsers = createAdminUserRepository(db);
  const audit = createAuditLog(db);
  const messages = createContactMessageRepository(db);
  const sendValidation = createValidationLinks(db, options.mailer, options.publicUrl);

  // onRequest, so a refused request never has its body read or validated.
  app.addHook('onRequest', async (request, reply) => {
    await app.requireUser(request, reply);
    if (reply.sent) return reply;
    if (request.apiKey) return reply.code(403).send({ message: ADMIN_MESSAGES.apiKey });
    if (request.user.role !== 'ADMIN') {
      return reply.code(403).send({ message: ADMIN_MESSAGES.notAdmin });
    }
  });

  const actorOf = (request: FastifyRequest): Actor => ({
    id: request.user.id,
    email: request.user.email,
  });
  const notFound = (reply: FastifyReply) =>
    reply.code(404).send({ message: ADMIN_MESSAGES.userNotFound });
  const lastAdministrator = (reply: FastifyReply) =>
    reply.code(409).send({ message: ADMIN_MESSAGES.lastAdmin });

  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Users whose email address contains `query`, newest first, a page at a time',
        security: bearer,
        querystring: AdminUserQuerySchema,
        response: { 200: AdminUserListSchema, ...errors },
      },
    },
    async (request) => consoleUsers.search(request.query),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary:
          "A user's plan, allowance, usage, files, jobs, API keys (prefix only), payments and sign-ins",
        security: bearer,
        params: AdminUserParamsSchema,
        response: { 200: AdminUserDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await users.findById(request.params.id);
      return user ? consoleUsers.detail(user) : notFound(reply);
    },
  );

  app.post(
    '/users/:id/validation-mail',
    {
      schema: {
        tags,
        summary: 'Mail the user a new link to validate their email address',
        security: bearer,
        params: AdminUserParamsSchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await users.findById(request.params.id);
      if (!user) return notFound(reply);
      if (user.email_validated_at) {
        return reply.code(409).send({ message: ADMIN_MESSAGES.alreadyValidated });
      }
      await sendValidation(user.id, user.email);
      await audit.record({
        actor: actorOf(request),
        action: 'user.validation-mail',
        targetType: 'user',
        targetId: user.id,
        before: { email_validated: false },
        after: { validation_mailed_to: user.email },
      });
      return { message: ADMIN_MESSAGES.validationSent(user.email) };
    },
  );

  app.post(
    '/users/:id/characters',
    {
      schema: {
        tags,
        summary:
          'Grant (positive) or remove (negative) characters, with a reason kept in the audit log; never below zero',
        security: bearer,
        params: AdminUserParamsSchema,
        body: AdminCharactersInputSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { characters, reason } = request.body;
      const { id } = request.params;
      const updated = await db.transaction().execute(async (trx) => {
        // One conditional statement: a conversion spending at the same time never sees the
        // count go below zero, and the one that loses the race is refused.
        const user = await createUserRepository(trx).addCharacters(id, characters);
        if (!user) return undefined;
        await createAuditLog(trx).record({
          actor: actorOf(request),
          action: 'user.characters',
          targetType: 'user',
          targetId: id,
          before: { count_characters: user.count_characters - characters },
          after: { count_characters: user.count_characters },
          reason,
        });
        return user;
      });
      if (updated) return toAdminUser(updated);
      const user = await users.findById(id);
      if (!user) return notFound(reply);
      const message = ADMIN_MESSAGES.belowZero(user.count_characters);
      return reply.code(400).send({ message, errors: [{ path: 'characters', message }] });
    },
  );

  app.put(
    '/users/:id/plan',
    {
      schema: {
        tags,
        summary:
          "Change the user's plan without a charge (its per-conversion limit follows; the characters left stay)",
        security: bearer,
        params: AdminUserParamsSchema,
        body: AdminPlanInputSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const type: PlanType = request.body.type;
      const catalogue = await options.plans.catalogue();
      const updated = await db.transaction().execute(async (trx) => {
        const repository = createUserRepository(trx);
        const user = await repository.findById(request.params.id);
        if (!user) return undefined;
        const after = await repository.setPlan(user.id, type, catalogue[type]);
        const planOf = (u: typeof user) => ({
          type: u.plan_type,
          period: u.plan_period,
          count_characters_per_convert: u.count_characters_per_convert,
        });
        await createAuditLog(trx).record({
          actor: actorOf(request),
          action: 'user.plan',
          targetType: 'user',
          targetId: user.id,
          before: planOf(user),
          after: planOf(after),
          reason: request.body.reason,
        });
        return after;
      });
      return updated ? toAdminUser(updated) : notFound(reply);
    },
  );

  app.put(
    '/users/:id/role',
    {
      schema: {
        tags,
        summary: 'Make the user an administrator or a user; the last administrator stays one',
        security: bearer,
        params: AdminUserParamsSchema,
        body: AdminRoleInputSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await setRole(
        db,
        { id: request.params.id },
        request.body.role,
        actorOf(request),
      );
      if (result.ok) return toAdminUser(result.user);
      return result.reason === 'not-found' ? notFound(reply) : lastAdministrator(reply);
    },
  );

  /** Disables or enables an account, with its audit entry; never the last administrator. */
  async function setDisabled(id: string, actor: Actor, disable: boolean) {
    return db.transaction().execute(async (trx) => {
      await lockAdministrators(trx);
      const repository = createUserRepository(trx);
      const user = await repository.findById(id);
      if (!user) return 'not-found' as const;
      if (Boolean(user.disabled_at) === disable) return user;
      if (disable && (await isLastAdministrator(trx, user))) return 'last-administrator' as const;
      const after = await repository.setDisabled(
        user.id,
        disable ? new Date().toISOString() : null,
      );
      await createAuditLog(trx).record({
        actor,
        action: disable ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: user.id,
        before: { disabled_date: user.disabled_at },
        after: { disabled_date: after.disabled_at },
      });
      return after;
    });
  }

  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/users/:id/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'disable'
              ? 'Disable the account: its sessions and API keys stop working at once, it cannot log in'
              : 'Enable a disabled account again',
          security: bearer,
          params: AdminUserParamsSchema,
          response: { 200: AdminUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await setDisabled(request.params.id, actorOf(request), action === 'disable');
        if (result === 'not-found') return notFound(reply);
        if (result === 'last-administrator') return lastAdministrator(reply);
        return toAdminUser(result);
      },
    );
  }

  app.delete(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Delete the account with everything saved in it, as its owner can',
        security: bearer,
        params: AdminUserParamsSchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await users.findById(request.params.id);
      if (!user) return notFound(reply);
      try {
        await deleteAccount(db, options.storage, user.id, async (trx) => {
          await lockAdministrators(trx);
          const current = await createUserRepository(trx).findById(user.id);
          if (current && (await isLastAdministrator(trx, current))) throw new LastAdministrator();
          await createAuditLog(trx).record({
            actor: actorOf(request),
            action: 'user.delete',
            targetType: 'user',
            targetId: user.id,
            before: toAdminUser(current ?? user),
            after: null,
          });
        });
      } catch (error) {
        if (error instanceof LastAdministrator) return lastAdministrator(reply);
        throw error;
      }
      return { message: ADMIN_MESSAGES.deleted(user.email) };
    },
  );

  app.get(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Messages sent through the contact form, newest first, of one status or all',
        security: bearer,
        querystring: AdminMessageQuerySchema,
        response: { 200: AdminContactMessageListSchema, ...errors },
      },
    },
    async (request) => messages.list(request.query),
  );

  app.put(
    '/messages/:id',
    {
      schema: {
        tags,
        summary: "Set a contact message's status (new, answered, archived)",
        security: bearer,
        params: AdminMessageParamsSchema,
        body: AdminMessageStatusInputSchema,
        response: { 200: AdminContactMessageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { status } = request.body;
      const updated = await db.transaction().execute(async (trx) => {
        const repository = createContactMessageRepository(trx);
        const before = await repository.find(request.params.id);
        if (!before) return undefined;
        const after = await repository.setStatus(before.id, status);
        await createAuditLog(trx).record({
          actor: actorOf(request),
          action: 'message.status',
          targetType: 'message',
          targetId: before.id,
          before: { status: before.status },
          after: { status },
        });
        return after;
      });
      if (!updated) return reply.code(404).send({ message: ADMIN_MESSAGES.messageNotFound });
      return updated;
    },
  );

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'The audit log of console actions, newest first (read-only)',
        security: bearer,
        querystring: AdminPageQuerySchema,
        response: { 200: AdminAuditListSchema, ...errors },
      },
    },
    async (request) => audit.list(request.query),
  );

  const { mailer, plans, provider, company } = options;
  await app.register(adminPaymentRoutes, { db, mailer, plans, provider, company });
  await app.register(overviewRoutes, { db, ...options.overview });
  // Under this plugin's guard: its onRequest hook runs for the child's routes too.
  await app.register(adminVoiceRoutes, { db, ...options.voices });
  await app.register(adminPlanRoutes, { db, plans });
  await app.register(adminContentRoutes, { db, ...options.content });
};
