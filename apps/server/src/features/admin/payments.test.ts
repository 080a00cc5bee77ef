import { randomUUID } from 'node:crypto';
import {
  ADMIN_PAYMENT_MESSAGES,
  AdminAuditListSchema,
  AdminPaymentDetailSchema,
  AdminPaymentListSchema,
  encodeTestCardToken,
  InvoiceListSchema,
} from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeStripe } from '../../../test/fake-stripe-server.js';
import { paymentCalls } from '../../../test/payments.js';
import { readPdfText } from '../../../test/pdf-text.js';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { setRole } from '../../services/admin/administrators.js';

/*
 * The console's payments (issue 31 §5, decision 051), with both providers: the built-in test
 * provider and Stripe's official SDK against the local Stripe-shaped server. Mails go to a
 * real SMTP server; invoices are read back with pdf.js.
 */
const smtp = await startSmtpServer();
const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const company = {
  COMPANY_NAME: 'Parla Voice Ltd',
  COMPANY_ADDRESS: '10 Speech Street; EC1A 1AA London; United Kingdom',
  COMPANY_TAX_ID: 'GB123456789',
};
const apps = {
  test: await createTestApp({ config: testConfig({ SMTP_URL: smtp.url, ...company }) }),
  stripe: await createTestApp({
    config: testConfig({
      SMTP_URL: smtp.url,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_URL: stripe.url,
      ...company,
    }),
  }),
};
const VISA = encodeTestCardToken({
  number: '4242424242424242',
  brand: 'Visa',
  exp_month: 12,
  exp_year: 2099,
});

type App = (typeof apps)['test'];
type Method = 'GET' | 'POST';

function harness(app: App, kind: 'test' | 'stripe') {
  const { pay, payments } = paymentCalls(app);
  const call = (
    method: Method,
    url: string,
    authorization: string,
    payload?: object,
    key?: string,
  ) =>
    app.inject({
      method,
      url,
      headers: { authorization, ...(key && { 'idempotency-key': key }) },
      ...(payload && { payload }),
    });
  return {
    call,
    async administrator() {
      const signedIn = await signedInUser(app);
      expect((await setRole(app.db, { id: signedIn.user.id }, 'ADMIN', null)).ok).toBe(true);
      return signedIn;
    },
    /** A user who bought PREMIUM, and their payment's id. */
    async buyer() {
      const signedIn = await signedInUser(app, { billing: true });
      const response = await pay(signedIn.authorization, {
        token: kind === 'stripe' ? 'tok_visa' : VISA,
        name_on_card: 'Ada Lovelace',
        type: 'PREMIUM',
      });
      expect(response.statusCode).toBe(200);
      const [payment] = await payments(signedIn.user.id);
      if (!payment) throw new Error('no payment');
      // The invoice mail of the purchase: read it now so later mails are the refunds'.
      await smtp.mailTo(signedIn.user.email);
      return { ...signedIn, payment };
    },
    refund: (authorization: string, id: string, body: object, key: string | null = randomUUID()) =>
      call('POST', `/api/admin/payments/${id}/refunds`, authorization, body, key ?? undefined),
    detail: async (authorization: string, id: string) => {
      const response = await call('GET', `/api/admin/payments/${id}`, authorization);
      expect(response.statusCode).toBe(200);
      return AdminPaymentDetailSchema.parse(response.json());
    },
    characters: async (userId: string) =>
      (
        await app.db
          .selectFrom('users')
          .select('count_characters')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).count_characters,
  };
}

for (const kind of ['test', 'stripe'] as const) {
  const app = apps[kind];
  const h = harness(app, kind);
  const premium = (await app.plans.catalogue()).PREMIUM;
  const price = Math.round(premium.price * 100);

  describe(`the console's payments, ${kind} provider (${TEST_DATABASE_KIND})`, () => {
    it('lists payments by email, status and period, and shows one with its provider ids', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const url = `/api/admin/payments?email=${encodeURIComponent(buyer.user.email.toUpperCase())}`;
      const list = AdminPaymentListSchema.parse(
        (await h.call('GET', url, admin.authorization)).json(),
      );
      expect(list.total).toBe(1);
      expect(list.items[0]).toMatchObject({
        id: buyer.payment.id,
        user: { id: buyer.user.id, email: buyer.user.email },
        plan_type: 'PREMIUM',
        amount_cents: price,
        amount_refunded_cents: 0,
        status: 'succeeded',
        provider: kind,
      });
      expect(list.items[0]?.invoice_number).toMatch(/^PARLA-\d{6}$/);
      const today = new Date().toISOString().slice(0, 10);
      for (const [query, total] of [
        [`&status=succeeded&from=${today}&to=${today}`, 1],
        ['&status=refunded', 0],
        ['&to=2000-01-01', 0],
        ['&from=2999-01-01', 0],
      ] as const) {
        const response = await h.call('GET', `${url}${query}`, admin.authorization);
        expect(AdminPaymentListSchema.parse(response.json()).total, query).toBe(total);
      }
      const detail = await h.detail(admin.authorization, buyer.payment.id);
      expect(detail.provider_payment_id).toMatch(kind === 'stripe' ? /^pi_/ : /^pi_test_/);
      expect(detail.provider_charge_id).toMatch(kind === 'stripe' ? /^ch_/ : /^ch_test_/);
      expect(detail.count_characters).toBe(premium.count_characters);
      expect(detail.refunds).toEqual([]);
    });

    it('refunds part then the rest, takes back characters as chosen, mails the user and logs each refund', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const before = await h.characters(buyer.user.id);
      const part = Math.floor(price / 4);
      const first = await h.refund(admin.authorization, buyer.payment.id, {
        amount_cents: part,
        reason: 'Customer asked for a partial refund',
        characters: 'proportional',
      });
      expect(first.statusCode, first.body).toBe(200);
      const afterPart = AdminPaymentDetailSchema.parse(first.json());
      const proportional = Math.round((premium.count_characters * part) / price);
      expect(afterPart).toMatchObject({
        status: 'partially_refunded',
        amount_refunded_cents: part,
      });
      expect(afterPart.refunds[0]).toMatchObject({
        amount_cents: part,
        status: 'succeeded',
        characters: 'proportional',
        characters_taken: proportional,
        actor_email: admin.user.email,
        reason: 'Customer asked for a partial refund',
      });
      expect(afterPart.refunds[0]?.provider_refund_id).toMatch(/^re_/);
      expect(await h.characters(buyer.user.id)).toBe(before - proportional);
      const mail = await smtp.mailTo(buyer.user.email);
      expect(mail.subject).toContain(`${(part / 100).toFixed(2)} USD refunded`);
      expect(mail.text).toContain(
        `${proportional.toLocaleString('en-US')} characters were taken back`,
      );

      const audit = AdminAuditListSchema.parse(
        (await h.call('GET', '/api/admin/audit?per_page=1', admin.authorization)).json(),
      ).items[0];
      expect(audit).toMatchObject({
        action: 'payment.refund',
        target_type: 'payment',
        target_id: buyer.payment.id,
        actor_email: admin.user.email,
        reason: 'Customer asked for a partial refund',
        before: { amount_refunded_cents: 0, count_characters: before },
        after: {
          amount_refunded_cents: part,
          characters_taken: proportional,
          count_characters: before - proportional,
        },
      });

      // The rest, taking back all the characters the payment gave (those not taken yet).
      const second = await h.refund(admin.authorization, buyer.payment.id, {
        reason: 'Refund the rest',
        characters: 'all',
      });
      expect(second.statusCode, second.body).toBe(200);
      const whole = AdminPaymentDetailSchema.parse(second.json());
      expect(whole).toMatchObject({ status: 'refunded', amount_refunded_cents: price });
      expect(whole.refunds.map((r) => r.amount_cents)).toEqual([price - part, part]);
      expect(await h.characters(buyer.user.id)).toBe(before - premium.count_characters);
      expect((await smtp.mailTo(buyer.user.email)).text).toContain('fully refunded');
      if (kind === 'stripe') {
        const intent = buyer.payment.provider_payment_id;
        const atStripe = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent);
        expect(atStripe.map((r) => r.amount)).toEqual([part, price - part]);
      }

      // Nothing is left: a third refund is refused, naming the field.
      const third = await h.refund(admin.authorization, buyer.payment.id, {
        reason: 'Again',
        characters: 'none',
      });
      expect(third.statusCode).toBe(409);
      expect(third.json().errors[0].path).toBe('amount_cents');
      expect(third.json().message).toBe(ADMIN_PAYMENT_MESSAGES.fullyRefunded);

      // My Plan shows the invoice with what was refunded.
      const invoices = InvoiceListSchema.parse(
        (await h.call('GET', '/api/plan/invoices', buyer.authorization)).json(),
      ).invoices;
      expect(invoices).toHaveLength(1);
      expect(invoices[0]).toMatchObject({ amount_cents: price, refunded_cents: price });
    });

    it('never takes characters below zero', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      // The user spent nearly everything.
      await app.db
        .updateTable('users')
        .set({ count_characters: 120 })
        .where('id', '=', buyer.user.id)
        .execute();
      const response = await h.refund(admin.authorization, buyer.payment.id, {
        reason: 'Whole refund',
        characters: 'all',
      });
      expect(response.statusCode).toBe(200);
      expect(AdminPaymentDetailSchema.parse(response.json()).refunds[0]?.characters_taken).toBe(
        120,
      );
      expect(await h.characters(buyer.user.id)).toBe(0);
    });

    it('refunds once for a retried request (same Idempotency-Key), even at the same moment', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const key = randomUUID();
      const body = { amount_cents: 500, reason: 'Duplicate charge', characters: 'none' };
      const answers = await Promise.all([
        h.refund(admin.authorization, buyer.payment.id, body, key),
        h.refund(admin.authorization, buyer.payment.id, body, key),
      ]);
      const retried = await h.refund(admin.authorization, buyer.payment.id, body, key);
      for (const answer of [...answers, retried]) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(AdminPaymentDetailSchema.parse(answer.json()).amount_refunded_cents).toBe(500);
      }
      const rows = await app.db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_id', '=', buyer.payment.id)
        .execute();
      expect(rows).toHaveLength(1);
      // The same key for another refund is refused.
      const other = await h.refund(
        admin.authorization,
        buyer.payment.id,
        { ...body, amount_cents: 600 },
        key,
      );
      expect(other.statusCode).toBe(422);
      expect(other.json().message).toBe(ADMIN_PAYMENT_MESSAGES.keyReused);
      if (kind === 'stripe') {
        const intent = buyer.payment.provider_payment_id;
        const atStripe = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent);
        expect(atStripe).toHaveLength(1);
      }
    });

    it('lets two refunds racing never exceed the payment', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const share = Math.ceil(price * 0.6);
      const answers = await Promise.all(
        [1, 2].map(() =>
          h.refund(admin.authorization, buyer.payment.id, {
            amount_cents: share,
            reason: 'Race',
            characters: 'none',
          }),
        ),
      );
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect(codes).toEqual([200, 400]);
      const refused = answers.find((answer) => answer.statusCode === 400);
      expect(refused?.json().errors[0].path).toBe('amount_cents');
      expect(refused?.json().message).toBe(ADMIN_PAYMENT_MESSAGES.amountOverRest(price - share));
      const detail = await h.detail(admin.authorization, buyer.payment.id);
      expect(detail.amount_refunded_cents).toBe(share);
    });

    it('answers 4xx naming the field for a malformed refund, 404 for an unknown payment', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const id = buyer.payment.id;
      const cases: [object, string | null, number, string][] = [
        [{ amount_cents: 0, reason: 'x', characters: 'none' }, randomUUID(), 400, 'amount_cents'],
        [{ amount_cents: -5, reason: 'x', characters: 'none' }, randomUUID(), 400, 'amount_cents'],
        [{ amount_cents: 1.5, reason: 'x', characters: 'none' }, randomUUID(), 400, 'amount_cents'],
        [
          { amount_cents: '10', reason: 'x', characters: 'none' },
          randomUUID(),
          400,
          'amount_cents',
        ],
        [
          { amount_cents: price + 1, reason: 'x', characters: 'none' },
          randomUUID(),
          400,
          'amount_cents',
        ],
        [{ reason: '  ', characters: 'none' }, randomUUID(), 400, 'reason'],
        [{ characters: 'none' }, randomUUID(), 400, 'reason'],
        [{ reason: 'x', characters: 'some' }, randomUUID(), 400, 'characters'],
        [{ reason: 'x', characters: 'none' }, null, 400, 'idempotency-key'],
        [{ reason: 'x', characters: 'none' }, 'short', 400, 'idempotency-key'],
      ];
      for (const [body, key, status, field] of cases) {
        const response = await h.refund(admin.authorization, id, body, key);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(JSON.stringify(response.json()), JSON.stringify(body)).toContain(field);
      }
      expect((await h.detail(admin.authorization, id)).amount_refunded_cents).toBe(0);
      const unknown = await h.refund(admin.authorization, randomUUID(), {
        reason: 'x',
        characters: 'none',
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(ADMIN_PAYMENT_MESSAGES.paymentNotFound);
      for (const query of ['status=paid', 'from=2026-13-01', 'to=yesterday', 'page=0']) {
        const response = await h.call('GET', `/api/admin/payments?${query}`, admin.authorization);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message, query).toContain(query.split('=')[0]);
      }
    });

    it('makes the invoice a PDF for the operator and its owner only, with seller, buyer, amounts and credit notes', async () => {
      const admin = await h.administrator();
      const buyer = await h.buyer();
      const part = 250;
      expect(
        (
          await h.refund(admin.authorization, buyer.payment.id, {
            amount_cents: part,
            reason: 'Goodwill',
            characters: 'none',
          })
        ).statusCode,
      ).toBe(200);
      const { invoice_number: number } = await h.detail(admin.authorization, buyer.payment.id);
      const operator = await h.call(
        'GET',
        `/api/admin/payments/${buyer.payment.id}/invoice.pdf`,
        admin.authorization,
      );
      expect(operator.statusCode).toBe(200);
      expect(operator.headers['content-type']).toBe('application/pdf');
      expect(operator.headers['content-disposition']).toBe(`attachment; filename="${number}.pdf"`);
      const text = await readPdfText(operator.rawPayload);
      const money = (cents: number) => `${(cents / 100).toFixed(2)} USD`;
      for (const expected of [
        `Invoice ${number}`,
        'Parla Voice Ltd',
        '10 Speech Street',
        'Tax id: GB123456789',
        'Ada Lovelace',
        '1 Analytical Row',
        'London',
        'United Kingdom',
        `PREMIUM plan: ${premium.count_characters.toLocaleString('en-US')} characters`,
        `Total ${money(price)}`,
        'Tax (0%) 0.00 USD',
        `Credit note ${number}-C1`,
        `-${money(part)}`,
        `Net amount paid ${money(price - part)}`,
      ]) {
        expect(text).toContain(expected);
      }

      const own = await h.call('GET', `/api/plan/invoices/${number}.pdf`, buyer.authorization);
      expect(own.statusCode).toBe(200);
      expect(await readPdfText(own.rawPayload)).toContain(`Net amount paid ${money(price - part)}`);
      const listed = InvoiceListSchema.parse(
        (await h.call('GET', '/api/plan/invoices', buyer.authorization)).json(),
      );
      expect(listed.invoices[0]).toMatchObject({
        number,
        refunded_cents: part,
        url: `/api/plan/invoices/${number}.pdf`,
      });

      // Another user, a number that does not exist and a name that is no number: all 404.
      const stranger = await signedInUser(app);
      for (const name of [`${number}.pdf`, 'PARLA-999999999.pdf', 'invoice.pdf']) {
        const response = await h.call('GET', `/api/plan/invoices/${name}`, stranger.authorization);
        expect(response.statusCode, name).toBe(404);
        expect(response.json().message).toBe(ADMIN_PAYMENT_MESSAGES.invoiceNotFound);
      }
      const anonymous = await app.inject({
        method: 'GET',
        url: `/api/plan/invoices/${number}.pdf`,
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}

describe(`refunds after a lost answer or a dead request (${TEST_DATABASE_KIND})`, () => {
  it('refunds once when Stripe’s answer is lost: the SDK retries with the same key', async () => {
    const h = harness(apps.stripe, 'stripe');
    const admin = await h.administrator();
    const buyer = await h.buyer();
    stripe.dropNextAnswer('/v1/refunds');
    const response = await h.refund(admin.authorization, buyer.payment.id, {
      amount_cents: 300,
      reason: 'Lost answer',
      characters: 'none',
    });
    expect(response.statusCode, response.body).toBe(200);
    const intent = buyer.payment.provider_payment_id;
    const atStripe = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent);
    expect(atStripe.map((r) => r.amount)).toEqual([300]);
    const posts = stripe.requests.filter(
      (r) => r.path === '/v1/refunds' && r.form.payment_intent === intent,
    );
    expect(posts.length).toBeGreaterThan(1);
    expect(new Set(posts.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it('lets a retry with the same key take over a refund whose request died', async () => {
    const app = apps.test;
    const h = harness(app, 'test');
    const admin = await h.administrator();
    const buyer = await h.buyer();
    // A request reserved 400 cents and died before the provider answered; its lease ran out.
    const key = randomUUID();
    const past = new Date(Date.now() - 60_000).toISOString();
    await app.db
      .updateTable('payments')
      .set({ amount_refunded_cents: 400 })
      .where('id', '=', buyer.payment.id)
      .execute();
    await app.db
      .insertInto('refunds')
      .values({
        id: randomUUID(),
        payment_id: buyer.payment.id,
        idempotency_key: key,
        amount_cents: 400,
        currency: 'usd',
        status: 'pending',
        reason: 'Died',
        characters: 'none',
        provider_refund_id: null,
        message: null,
        actor_id: admin.user.id,
        actor_email: admin.user.email,
        processing_until: past,
        created_at: past,
        updated_at: past,
      })
      .execute();
    const body = { amount_cents: 400, reason: 'Died', characters: 'none' };
    const retried = await h.refund(admin.authorization, buyer.payment.id, body, key);
    expect(retried.statusCode, retried.body).toBe(200);
    const detail = AdminPaymentDetailSchema.parse(retried.json());
    expect(detail.amount_refunded_cents).toBe(400);
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ status: 'succeeded', amount_cents: 400 });
    expect(detail.refunds[0]?.provider_refund_id).toMatch(/^re_test_/);
  });
});

describe(`refunds Stripe refuses (${TEST_DATABASE_KIND})`, () => {
  it('answers the provider’s refusal as a 400 on amount_cents and frees the amount again', async () => {
    const app = apps.stripe;
    const h = harness(app, 'stripe');
    const admin = await h.administrator();
    const buyer = await h.buyer();
    // Refunded at Stripe directly (the dashboard), unknown to Parla.
    const atStripe = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stripe.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        payment_intent: buyer.payment.provider_payment_id ?? '',
        amount: '100',
      }),
    });
    expect(atStripe.status).toBe(200);
    const response = await h.refund(admin.authorization, buyer.payment.id, {
      reason: 'Whole',
      characters: 'all',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe('amount_cents');
    expect(response.json().message).toContain('is greater than unrefunded amount on charge');
    const detail = await h.detail(admin.authorization, buyer.payment.id);
    expect(detail.amount_refunded_cents).toBe(0);
    expect(detail.refunds[0]).toMatchObject({ status: 'failed', characters_taken: 0 });
    // What Stripe has left can still be refunded.
    const rest = await h.refund(admin.authorization, buyer.payment.id, {
      amount_cents: detail.amount_cents - 100,
      reason: 'The rest',
      characters: 'none',
    });
    expect(rest.statusCode, rest.body).toBe(200);
  });
});
