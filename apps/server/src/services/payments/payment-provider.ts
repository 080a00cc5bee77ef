/**
 * The card payment provider behind POST /plan/payment: Stripe when a secret key is configured,
 * the built-in test provider otherwise (ARCHITECTURE.md "card payments"). The payment service
 * talks to this interface only.
 */

export interface SavedCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface ChargeRequest {
  user: {
    id: string;
    email: string;
    name: string | null;
    /** The provider's customer, when an earlier payment created one. */
    customerId: string | null;
    /** The saved card at the provider, when one is saved. */
    paymentMethodId: string | null;
  };
  /** A new card's token, or null to charge the saved card. */
  token: string | null;
  nameOnCard: string | null;
  amountCents: number;
  currency: 'usd';
  description: string;
  /** Unique per attempt; the provider must never charge twice for one key. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** What the provider now knows of the user, to be stored whatever the outcome. */
export interface ProviderCustomer {
  customerId: string | null;
  /** Set when a new card was attached (it is then the customer's default). */
  paymentMethodId?: string;
  card?: SavedCard;
}

export type ChargeOutcome =
  | ({
      status: 'succeeded';
      paymentId: string;
      /** The charge the payment made (Stripe's `latest_charge`). */
      chargeId?: string;
    } & ProviderCustomer)
  /** The provider has not settled yet; its webhook will. */
  | ({ status: 'pending'; paymentId: string } & ProviderCustomer)
  | ({
      status: 'failed';
      paymentId: string | null;
      /** card_declined, authentication_required, insufficient_funds, … */
      code: string;
      /** The provider's message, shown to the user. */
      message: string;
    } & ProviderCustomer);

export interface WebhookEvent {
  type: 'payment.succeeded' | 'payment.failed' | 'ignored';
  paymentId?: string;
  /** Our payments row, from the metadata we gave the provider's payment. */
  reference?: string;
  message?: string;
  card?: SavedCard;
}

export interface RefundRequest {
  /** The provider's payment (ChargeOutcome.paymentId). */
  paymentId: string;
  amountCents: number;
  /** Unique per refund; the provider must never refund twice for one key. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundOutcome {
  status: 'succeeded' | 'pending' | 'failed';
  refundId: string;
  chargeId: string | null;
  /** Why a failed refund failed. */
  message?: string;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'test';
  /**
   * The longest the provider may take to answer one call of a charge: the lease of an attempt
   * (payment-service.ts) lasts this long unrenewed, so a retry after a crash waits no longer.
   */
  readonly timeoutMs: number;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /**
   * Refunds (part of) a payment; throws RefundRefusedError when the provider refuses it (over
   * what is left to refund, already refunded).
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * Verifies a webhook's signature and reads the event; throws WebhookSignatureError when the
   * payload was not signed by the provider.
   */
  parseWebhook(payload: Buffer, signature: string | undefined): WebhookEvent;
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** A problem of the request itself (no saved card to reuse, unknown token): a 400. */
export class PaymentInputError extends Error {
  override name = 'PaymentInputError';
}

/** The provider refused a refund request (`code`: amount_too_large, charge_already_refunded…). */
export class RefundRefusedError extends Error {
  override name = 'RefundRefusedError';
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}
