import { cardBrandName } from '@parla/contract';
import Stripe from 'stripe';
import {
  type ChargeOutcome,
  type ChargeRequest,
  PaymentInputError,
  type PaymentProvider,
  type ProviderCustomer,
  type RefundOutcome,
  RefundRefusedError,
  type SavedCard,
  WebhookSignatureError,
} from '../../services/payments/payment-provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  /** Signing secret of the webhook endpoint (whsec_…); without it webhooks are refused. */
  webhookSecret?: string;
  /** Another API base (a local Stripe-shaped server in tests): its host, port and protocol. */
  apiUrl?: string;
}

function savedCard(method: Stripe.PaymentMethod): SavedCard | undefined {
  const card = method.card;
  if (!card) return undefined;
  return {
    brand: cardBrandName(card.brand),
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
  };
}

/**
 * Stripe through its official SDK: a customer per user, the new card attached as the
 * customer's default payment method, and the plan's price charged with a PaymentIntent
 * confirmed at once (https://docs.stripe.com/payments/save-and-reuse). Every call that creates
 * something carries an idempotency key derived from the attempt, so a retried attempt replays
 * Stripe's first answer instead of charging again (https://docs.stripe.com/api/idempotent_requests).
 */
/** One Stripe API call's timeout (the SDK's `timeout`). */
const STRIPE_TIMEOUT_MS = 20_000;

export function createStripePaymentProvider(options: StripeProviderOptions): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
      protocol: api.protocol === 'http:' ? 'http' : 'https',
    }),
  });

  return {
    kind: 'stripe',
    timeoutMs: STRIPE_TIMEOUT_MS,

    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      const key = request.idempotencyKey;
      const customer: ProviderCustomer = { customerId: request.user.customerId };
      try {
        if (!customer.customerId) {
          const created = await stripe.customers.create(
            {
              email: request.user.email,
              ...(request.user.name && { name: request.user.name }),
              metadata: { user_id: request.user.id },
            },
            { idempotencyKey: `${key}:customer` },
          );
          customer.customerId = created.id;
        }
        const customerId = customer.customerId;
        let paymentMethodId = request.user.paymentMethodId;
        if (request.token) {
          const method = await stripe.paymentMethods.create(
            {
              type: 'card',
              card: { token: request.token },
              ...(request.nameOnCard && { billing_details: { name: request.nameOnCard } }),
            },
            { idempotencyKey: `${key}:payment-method` },
          );
          await stripe.paymentMethods.attach(
            method.id,
            { customer: customerId },
            { idempotencyKey: `${key}:attach` },
          );
          await stripe.customers.update(
            customerId,
            { invoice_settings: { default_payment_method: method.id } },
            { idempotencyKey: `${key}:default` },
          );
          paymentMethodId = method.id;
          customer.paymentMethodId = method.id;
          const card = savedCard(method);
          if (card) customer.card = card;
        }
        if (!paymentMethodId) throw new PaymentInputError('No card is saved. Enter a card to pay.');

        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency,
            customer: customerId,
            payment_method: paymentMethodId,
            // Cards only, confirmed here: nothing may redirect the customer elsewhere.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            confirm: true,
            // Checkout cannot run 3-D Secure here: such a card fails with
            // authentication_required instead of waiting in requires_action.
            error_on_requires_action: true,
            description: request.description,
            metadata: request.metadata,
          },
          { idempotencyKey: `${key}:intent` },
        );
        if (intent.status === 'succeeded') {
          const charge = intent.latest_charge;
          const chargeId = typeof charge === 'string' ? charge : charge?.id;
          return {
            status: 'succeeded',
            paymentId: intent.id,
            ...(chargeId && { chargeId }),
            ...customer,
          };
        }
        if (intent.status === 'processing') {
          return { status: 'pending', paymentId: intent.id, ...customer };
        }
        return {
          status: 'failed',
          paymentId: intent.id,
          code: intent.status,
          message: intent.last_payment_error?.message ?? 'The payment was not completed.',
          ...customer,
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const raw = error.raw as { payment_intent?: { id?: string } } | undefined;
          return {
            status: 'failed',
            paymentId: raw?.payment_intent?.id ?? null,
            code: error.code ?? 'card_declined',
            message: error.message,
            ...customer,
          };
        }
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          throw new PaymentInputError(error.message);
        }
        throw error;
      }
    },

    /** https://docs.stripe.com/api/refunds/create: by PaymentIntent, the amount in cents. */
    async refund(request): Promise<RefundOutcome> {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.paymentId,
            amount: request.amountCents,
            metadata: request.metadata,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        const charge = refund.charge;
        return {
          status:
            refund.status === 'succeeded'
              ? 'succeeded'
              : refund.status === 'failed' || refund.status === 'canceled'
                ? 'failed'
                : 'pending',
          refundId: refund.id,
          chargeId: (typeof charge === 'string' ? charge : charge?.id) ?? null,
          ...(refund.failure_reason && { message: refund.failure_reason }),
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          throw new RefundRefusedError(error.message, error.code ?? 'invalid_request');
        }
        throw error;
      }
    },

    parseWebhook(payload, signature) {
      if (!options.webhookSecret || !signature) {
        throw new WebhookSignatureError('Missing Stripe signature.');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(payload, signature, options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError((error as Error).message);
      }
      if (event.type === 'payment_intent.succeeded') {
        const intent = event.data.object;
        return {
          type: 'payment.succeeded',
          paymentId: intent.id,
          ...(intent.metadata?.payment_id && { reference: intent.metadata.payment_id }),
        };
      }
      if (event.type === 'payment_intent.payment_failed') {
        const intent = event.data.object;
        return {
          type: 'payment.failed',
          paymentId: intent.id,
          ...(intent.metadata?.payment_id && { reference: intent.metadata.payment_id }),
          message: intent.last_payment_error?.message ?? 'The payment failed.',
        };
      }
      return { type: 'ignored' };
    },
  };
}
