import {
  ErrorResponseSchema,
  MESSAGES,
  type PaymentConfig,
  PaymentConfigSchema,
  PaymentHeadersSchema,
  PaymentInputSchema,
  PaymentQuerySchema,
  PaymentResultSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { createBackgroundTasks } from '../../lib/background.js';
import { PAYMENTS_PER_MINUTE } from '../../lib/limits.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { invoiceMail } from '../../services/payments/invoice-mail.js';
import {
  PaymentInputError,
  type PaymentProvider,
  WebhookSignatureError,
} from '../../services/payments/payment-provider.js';
import { type PlanStore, termsOfUser } from '../../services/plans/plan-store.js';
import { createPaymentService, PaymentDeclinedError } from './payment-service.js';

export interface PaymentRoutesOptions {
  db: Db;
  provider: PaymentProvider;
  plans: PlanStore;
  /** Sends the invoice after every successful payment. */
  mailer: Mailer;
  /** Given to the checkout page when the provider is Stripe. */
  publishableKey?: string;
}

const bearer = [{ bearerAuth: [] }];

export const PAYMENT_ROUTE_MESSAGES = {
  badSignature: 'The webhook signature is not valid.',
  received: 'Received.',
  billingMissing:
    'Please fill in your billing details (name, phone, country, city and address line 1) on My Account before buying a plan.',
} as const;

/** POST /plan/payment, GET /plan/payment/config and POST /plan/webhook (Stripe's events). */
export const paymentRoutes: FastifyPluginAsyncZod<PaymentRoutesOptions> = async (app, options) => {
  // The invoice leaves after the answer: a slow mail server never delays a payment.
  const background = createBackgroundTasks(app.log);
  app.addHook('onClose', () => background.drain());
  const payments = createPaymentService({
    ...options,
    onInvoice: (invoice, user) =>
      background.run('invoice mail', async () =>
        options.mailer.send(
          invoiceMail(user.email, invoice, termsOfUser(user, await options.plans.catalogue())),
        ),
      ),
  });

  app.get(
    '/payment/config',
    {
      schema: {
        tags: ['plan'],
        summary: 'Which card field the checkout shows: Stripe Elements or the test provider',
        response: { 200: PaymentConfigSchema },
      },
    },
    async (): Promise<PaymentConfig> =>
      options.provider.kind === 'stripe' && options.publishableKey
        ? { provider: 'stripe', publishable_key: options.publishableKey }
        : { provider: 'test' },
  );

  app.post(
    '/payment',
    {
      // Card-testing bots try many cards quickly; a person pays a few times at most.
      config: { rateLimit: { max: PAYMENTS_PER_MINUTE, timeWindow: 60_000 } },
      // onRequest: a missing token is answered 401 before the header and body are validated.
      onRequest: [app.requireUser, app.refuseApiKeys],
      schema: {
        tags: ['plan'],
        summary: 'Buy a plan by card: a new card (token) or the saved one (token null)',
        security: bearer,
        headers: PaymentHeadersSchema,
        querystring: PaymentQuerySchema,
        body: PaymentInputSchema,
        response: {
          200: PaymentResultSchema,
          400: ErrorResponseSchema,
          402: ErrorResponseSchema,
          403: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      // Invoices need the buyer's details (SPEC §5 Checkout); the page disables the button
      // without them, and the server refuses the same way whatever the client does.
      const { name, phone, address_country, address_city, address_line1 } = request.user;
      if (![name, phone, address_country, address_city, address_line1].every(Boolean)) {
        return reply.code(403).send({ message: PAYMENT_ROUTE_MESSAGES.billingMissing });
      }
      try {
        return await payments.pay(request.user, request.body, {
          isUpdateCard: request.query.is_update_card,
          idempotencyKey: request.headers['idempotency-key'],
        });
      } catch (error) {
        if (error instanceof PaymentInputError) {
          return reply.code(400).send({ message: error.message });
        }
        if (error instanceof PaymentDeclinedError) {
          return reply
            .code(402)
            .send({ message: error.message || MESSAGES.checkout.paymentFailed });
        }
        throw error;
      }
    },
  );

  // Stripe signs the raw bytes of the body: this route keeps them as they came.
  await app.register(async (webhook) => {
    // (The app's own JSON parser is replaced in this scope only.)
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (_request, body, done) => done(null, body),
    );
    webhook.post(
      '/webhook',
      {
        schema: {
          tags: ['plan'],
          summary: "The payment provider's events (signed); settles asynchronous payments",
          response: { 200: z.object({ message: z.string() }), 400: ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const signature = request.headers['stripe-signature'];
        let event: ReturnType<PaymentProvider['parseWebhook']>;
        try {
          event = options.provider.parseWebhook(
            request.body as Buffer,
            typeof signature === 'string' ? signature : undefined,
          );
        } catch (error) {
          if (error instanceof WebhookSignatureError) {
            request.log.warn({ reason: error.message }, 'webhook refused');
            return reply.code(400).send({ message: PAYMENT_ROUTE_MESSAGES.badSignature });
          }
          throw error;
        }
        if (event.type !== 'ignored') {
          await payments.settleFromProvider({ ...event, type: event.type });
        }
        return { message: PAYMENT_ROUTE_MESSAGES.received };
      },
    );
  });
};
