import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local server that answers the part of Stripe's API the product uses, with Stripe's own
 * object and error shapes, so the tests drive the official SDK for real (host/port/protocol
 * pointed here). It is a fake of Stripe, not of our code: form-encoded requests, bearer key,
 * idempotency keys replayed as Stripe replays them, and webhooks signed as Stripe signs them
 * (https://docs.stripe.com/webhooks#verify-manually).
 */

type Json = Record<string, unknown>;

interface TestCardBehaviour {
  brand: string;
  last4: string;
  outcome: 'succeeds' | 'card_declined' | 'authentication_required';
}

/** Stripe's test tokens (https://docs.stripe.com/testing#cards). */
const TOKENS: Record<string, TestCardBehaviour> = {
  tok_visa: { brand: 'visa', last4: '4242', outcome: 'succeeds' },
  tok_mastercard: { brand: 'mastercard', last4: '4444', outcome: 'succeeds' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', outcome: 'card_declined' },
  tok_threeDSecureRequired: { brand: 'visa', last4: '3184', outcome: 'authentication_required' },
};

/** `a[b][c]=1` form fields into nested objects, as Stripe reads them. */
export function parseStripeForm(body: string): Json {
  const result: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let target = result;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) target[part] = value;
      else {
        target[part] = (target[part] as Json | undefined) ?? {};
        target = target[part] as Json;
      }
    });
  }
  return result;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const created = () => Math.floor(Date.now() / 1000);

function stripeError(status: number, error: Json) {
  return { status, body: { error: { request_log_url: null, doc_url: null, ...error } } };
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  customers: Map<string, Json>;
  paymentMethods: Map<string, Json>;
  paymentIntents: Map<string, Json>;
  /** Successful charges, in order (`amount_refunded` grows with each refund). */
  charges: Json[];
  /** Refunds made (https://docs.stripe.com/api/refunds/object), by id. */
  refunds: Map<string, Json>;
  /** Every request as received: method, path and parsed form. */
  requests: Array<{ method: string; path: string; form: Json; idempotencyKey?: string }>;
  /** Good cards answer `processing` (settled later by a webhook) instead of `succeeded`. */
  asyncCharges: boolean;
  /** Completes a `processing` PaymentIntent (as the bank would) and answers it. */
  settle(intentId: string): Json;
  /** Process the next request to this path prefix, then drop the connection (a lost answer). */
  dropNextAnswer(pathPrefix: string): void;
  /** A Stripe event around `object`, with the Stripe-Signature header for `secret`. */
  signedEvent(
    type: string,
    object: Json,
    secret: string,
    timestamp?: number,
  ): { payload: string; signature: string };
  close(): Promise<void>;
}

export function signStripePayload(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export async function startFakeStripe(secretKey = 'sk_test_parla_fake'): Promise<FakeStripe> {
  const customers = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const charges: Json[] = [];
  const refunds = new Map<string, Json>();
  const requests: FakeStripe['requests'] = [];
  const replays = new Map<string, { status: number; body: Json }>();
  const drops: string[] = [];
  const fake = { asyncCharges: false };

  function notFound(kind: string, value: string) {
    return stripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${value}'`,
      param: 'id',
    });
  }

  function handle(method: string, path: string, form: Json): { status: number; body: Json } {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        created: created(),
        email: form.email ?? null,
        name: form.name ?? null,
        metadata: form.metadata ?? {},
        invoice_settings: { default_payment_method: null },
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    let match = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === 'POST' && match?.[1]) {
      const customer = customers.get(match[1]);
      if (!customer) return notFound('customer', match[1]);
      const settings = form.invoice_settings as Json | undefined;
      if (settings?.default_payment_method) {
        customer.invoice_settings = { default_payment_method: settings.default_payment_method };
      }
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/payment_methods') {
      const token = String((form.card as Json | undefined)?.token ?? '');
      const card = TOKENS[token];
      if (!card) return notFound('token', token);
      const billing = (form.billing_details as Json | undefined) ?? {};
      const paymentMethod = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        created: created(),
        customer: null,
        livemode: false,
        metadata: {},
        billing_details: { name: billing.name ?? null, email: null, phone: null, address: null },
        card: {
          brand: card.brand,
          last4: card.last4,
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          funding: 'credit',
          country: 'US',
        },
      };
      paymentMethods.set(paymentMethod.id, { ...paymentMethod, _outcome: card.outcome });
      return { status: 200, body: paymentMethod };
    }
    match = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path);
    if (method === 'POST' && match?.[1]) {
      const paymentMethod = paymentMethods.get(match[1]);
      if (!paymentMethod) return notFound('PaymentMethod', match[1]);
      if (!customers.has(String(form.customer))) return notFound('customer', String(form.customer));
      paymentMethod.customer = form.customer;
      const { _outcome, ...visible } = paymentMethod;
      return { status: 200, body: visible };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const paymentMethod = paymentMethods.get(String(form.payment_method));
      if (!paymentMethod) return notFound('PaymentMethod', String(form.payment_method));
      if (paymentMethod.customer !== form.customer) {
        return stripeError(400, {
          type: 'invalid_request_error',
          message: `The provided PaymentMethod was previously used without being attached to a Customer or was detached from a Customer.`,
          param: 'payment_method',
        });
      }
      const intent: Json = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.amount),
        amount_received: 0,
        currency: form.currency,
        customer: form.customer,
        description: form.description ?? null,
        metadata: form.metadata ?? {},
        payment_method: form.payment_method,
        created: created(),
        livemode: false,
        last_payment_error: null,
        latest_charge: null,
        status: 'requires_confirmation',
      };
      paymentIntents.set(String(intent.id), intent);
      if (form.confirm !== 'true') return { status: 200, body: intent };
      const outcome = paymentMethod._outcome;
      if (outcome === 'succeeds') {
        intent.status = fake.asyncCharges ? 'processing' : 'succeeded';
        if (!fake.asyncCharges) {
          intent.amount_received = intent.amount;
          intent.latest_charge = id('ch');
          charges.push({
            id: intent.latest_charge,
            amount: intent.amount,
            payment_intent: intent.id,
          });
        }
        return { status: 200, body: intent };
      }
      const error =
        outcome === 'card_declined'
          ? {
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
            }
          : {
              code: 'authentication_required',
              decline_code: 'authentication_required',
              message: 'Your card was declined. This transaction requires authentication.',
            };
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', ...error };
      return stripeError(402, {
        type: 'card_error',
        ...error,
        charge: id('ch'),
        payment_intent: intent,
        payment_method: paymentMethod,
      });
    }
    if (method === 'POST' && path === '/v1/refunds') return refund(form);
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  /**
   * POST /v1/refunds (https://docs.stripe.com/api/refunds/create): by `payment_intent` or
   * `charge`, `amount` in cents (default: all that is left), with Stripe's errors for an
   * amount over the unrefunded rest and for a charge already fully refunded.
   */
  function refund(form: Json) {
    let charge: Json | undefined;
    if (form.payment_intent) {
      const intent = paymentIntents.get(String(form.payment_intent));
      if (!intent) return notFound('payment_intent', String(form.payment_intent));
      charge = charges.find((c) => c.payment_intent === intent.id);
      if (!charge) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'charge_not_refundable',
          message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          param: 'payment_intent',
        });
      }
    } else if (form.charge) {
      charge = charges.find((c) => c.id === form.charge);
      if (!charge) return notFound('charge', String(form.charge));
    } else {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message:
          'One of the following params should be provided for this request: payment_intent or charge.',
      });
    }
    const refunded = Number(charge.amount_refunded ?? 0);
    const rest = Number(charge.amount) - refunded;
    const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    if (rest <= 0) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${charge.id} has already been refunded.`,
      });
    }
    const amount = form.amount === undefined ? rest : Number(form.amount);
    if (!Number.isInteger(amount) || amount <= 0) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        message: 'Invalid positive integer',
        param: 'amount',
      });
    }
    if (amount > rest) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(rest)})`,
        param: 'amount',
      });
    }
    charge.amount_refunded = refunded + amount;
    const made = {
      id: id('re'),
      object: 'refund',
      amount,
      balance_transaction: id('txn'),
      charge: charge.id,
      created: created(),
      currency: 'usd',
      metadata: form.metadata ?? {},
      payment_intent: charge.payment_intent,
      reason: form.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    refunds.set(made.id, made);
    return { status: 200, body: made };
  }

  function answer(response: ServerResponse, status: number, body: Json, replayed = false) {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': id('req'),
      'stripe-version': '2026-10-28.endive',
      ...(replayed && { 'idempotent-replayed': 'true' }),
    });
    response.end(JSON.stringify(body));
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const form = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
      const keyHeader = request.headers['idempotency-key'];
      const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : undefined;
      requests.push({ method, path, form, ...(idempotencyKey && { idempotencyKey }) });
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        const result = stripeError(401, {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided.',
        });
        return answer(response, result.status, result.body);
      }
      const replayKey = idempotencyKey && `${method} ${path} ${idempotencyKey}`;
      const previous = replayKey ? replays.get(replayKey) : undefined;
      const result = previous ?? handle(method, path, form);
      if (replayKey && !previous) replays.set(replayKey, result);
      const drop = drops.findIndex((prefix) => path.startsWith(prefix));
      if (drop >= 0) {
        drops.splice(drop, 1);
        // Stripe did the work, but the answer never arrives.
        request.socket.destroy();
        return;
      }
      answer(response, result.status, result.body, Boolean(previous));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    customers,
    paymentMethods,
    paymentIntents,
    charges,
    refunds,
    requests,
    get asyncCharges() {
      return fake.asyncCharges;
    },
    set asyncCharges(value: boolean) {
      fake.asyncCharges = value;
    },
    settle(intentId) {
      const intent = paymentIntents.get(intentId);
      if (!intent) throw new Error(`No such PaymentIntent ${intentId}`);
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      intent.latest_charge = id('ch');
      charges.push({ id: intent.latest_charge, amount: intent.amount, payment_intent: intent.id });
      return intent;
    },
    dropNextAnswer(pathPrefix) {
      drops.push(pathPrefix);
    },
    signedEvent(type, object, secret, timestamp = Math.floor(Date.now() / 1000)) {
      const payload = JSON.stringify({
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: timestamp,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      });
      return { payload, signature: signStripePayload(payload, secret, timestamp) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
