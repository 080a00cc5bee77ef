import { randomUUID } from 'node:crypto';
import { decodeTestCardToken, TEST_CARD_MESSAGES, TEST_CARDS } from '@parla/contract';
import {
  type ChargeOutcome,
  type ChargeRequest,
  PaymentInputError,
  type PaymentProvider,
  WebhookSignatureError,
} from './payment-provider.js';

/**
 * The built-in provider used without STRIPE_SECRET_KEY, so the product works offline. It knows
 * only Stripe's test card numbers (Luhn-checked): 4242 4242 4242 4242 succeeds, 4000 0000 0000
 * 0002 is declined. Charges settle at once, so it has no webhooks. Its "saved card" is kept in
 * the users row like Stripe's (payment_method_id holds the test token).
 */
export function createTestPaymentProvider(): PaymentProvider {
  /** Outcomes by idempotency key, as Stripe replays a key's first answer. */
  const attempts = new Map<string, ChargeOutcome>();
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
      if (outcome === 'succeeds') result = { status: 'succeeded', paymentId, ...customer };
      else
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
    parseWebhook() {
      throw new WebhookSignatureError('The test payment provider sends no webhooks.');
    },
  };
}
