import { randomUUID } from 'node:crypto';
import { decodeTestCardToken, TEST_CARD_MESSAGES, TEST_CARDS } from '@parla/contract';
import {
  type ChargeOutcome,
  type ChargeRequest,
  PaymentInputError,
  type PaymentProvider,
  type RefundOutcome,
  RefundRefusedError,
  WebhookSignatureError,
} from '../../services/payments/payment-provider.js';

/**
 * The built-in provider used without STRIPE_SECRET_KEY, so the product works offline. It knows
 * only Stripe's test card numbers (Luhn-checked): 4242 4242 4242 4242 succeeds, 4000 0000 0000
 * 0002 is declined. Charges settle at once, so it has no webhooks. Its "saved card" is kept in
 * the users row like Stripe's (payment_method_id holds the test token).
 */
export function createTestPaymentProvider(): PaymentProvider {
  /** Outcomes by idempotency key, as Stripe replays a key's first answer. */
  const attempts = new Map<string, ChargeOutcome>();
  /** What each payment charged and how much of it was refunded, as Stripe's charge keeps. */
  const charged = new Map<string, { amount: number; refunded: number; chargeId: string }>();
  const refunds = new Map<string, RefundOutcome>();
  return {
    kind: 'test',
    // In process: it answers at once, or its process died.
    timeoutMs: 5_000,
    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      const previous = attempts.get(request.idempotencyKey);
      if (previous) return previous;
      const token = request.token ?? request.user.paymentMethodId;
      if (!token) throw new PaymentInputError('No card is saved. Enter a card to pay.');
      const card = decodeTestCardToken(token);
      if (!card) throw new PaymentInputError(TEST_CARD_MESSAGES.notATestCard);
      const saved = {
        brand: card.brand,
        last4: card.number.slice(-4),
        exp_month: card.exp_month,
        exp_year: card.exp_year,
      };
      const customer = {
        customerId: request.user.customerId ?? `cus_test_${request.user.id}`,
        ...(request.token && { paymentMethodId: request.token, card: saved }),
      };
      const paymentId = `pi_test_${randomUUID()}`;
      const outcome = TEST_CARDS[card.number]?.outcome;
      let result: ChargeOutcome;
      if (outcome === 'succeeds') {
        const chargeId = `ch_test_${randomUUID()}`;
        charged.set(paymentId, { amount: request.amountCents, refunded: 0, chargeId });
        result = { status: 'succeeded', paymentId, chargeId, ...customer };
      } else
        result = {
          status: 'failed',
          paymentId,
          code: outcome === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined',
          message:
            outcome === 'insufficient_funds'
              ? TEST_CARD_MESSAGES.insufficientFunds
              : TEST_CARD_MESSAGES.declined,
          ...customer,
        };
      attempts.set(request.idempotencyKey, result);
      return result;
    },
    async refund(request): Promise<RefundOutcome> {
      const previous = refunds.get(request.idempotencyKey);
      if (previous) return previous;
      // A payment of another process of this provider (it keeps no state between restarts):
      // the server's own bookkeeping already bounded the amount.
      const charge = charged.get(request.paymentId) ?? {
        amount: request.amountCents,
        refunded: 0,
        chargeId: `ch_test_${request.paymentId}`,
      };
      const rest = charge.amount - charge.refunded;
      if (rest === 0) {
        throw new RefundRefusedError(
          `Charge ${charge.chargeId} has already been refunded.`,
          'charge_already_refunded',
        );
      }
      if (request.amountCents > rest) {
        throw new RefundRefusedError(
          `Refund amount (${request.amountCents}) is greater than unrefunded amount on charge (${rest}).`,
          'amount_too_large',
        );
      }
      charge.refunded += request.amountCents;
      charged.set(request.paymentId, charge);
      const result: RefundOutcome = {
        status: 'succeeded',
        refundId: `re_test_${randomUUID()}`,
        chargeId: charge.chargeId,
      };
      refunds.set(request.idempotencyKey, result);
      return result;
    },
    parseWebhook() {
      throw new WebhookSignatureError('The test payment provider sends no webhooks.');
    },
  };
}
