import type { AdminPaymentDetail, AdminPaymentList } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const PAYMENT: AdminPaymentDetail = {
  id: 'p1',
  user: { id: 'u1', email: 'ada@example.com' },
  plan_type: 'PREMIUM',
  amount_cents: 2000,
  amount_refunded_cents: 0,
  currency: 'usd',
  status: 'succeeded',
  provider: 'stripe',
  provider_payment_id: 'pi_123',
  provider_charge_id: 'ch_123',
  invoice_number: 'PARLA-000007',
  created_date: '2026-11-20T10:00:00.000Z',
  message: null,
  card_name: 'Ada Lovelace',
  count_characters: 1_000_000,
  invoice_date: '2026-11-20T10:00:00.000Z',
  refunds: [],
};

/** The console's payments API; answers a refund as the server would and records its key. */
function serve() {
  let current = PAYMENT;
  const { calls, spy } = interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ user: { role: 'ADMIN' } }));
    if (call.url.startsWith('/api/admin/payments?')) {
      const list: AdminPaymentList = { items: [current], total: 1, page: 1, per_page: 50 };
      return jsonResponse(200, list);
    }
    if (call.url === '/api/admin/payments/p1') return jsonResponse(200, current);
    if (call.url === '/api/admin/payments/p1/refunds' && call.method === 'POST') {
      const { amount_cents, reason, characters } = call.body as {
        amount_cents: number;
        reason: string;
        characters: 'all' | 'proportional' | 'none';
      };
      current = {
        ...current,
        status: 'partially_refunded',
        amount_refunded_cents: amount_cents,
        refunds: [
          {
            id: 'r1',
            amount_cents,
            currency: 'usd',
            status: 'succeeded',
            reason,
            characters,
            characters_taken: 250_000,
            provider_refund_id: 're_1',
            message: null,
            actor_email: 'admin@example.com',
            created_date: '2026-11-21T10:00:00.000Z',
          },
        ],
      };
      return jsonResponse(200, current);
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const refundKeys = () =>
    spy.mock.calls
      .filter(([input]) => String(input).endsWith('/refunds'))
      .map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
  return { calls, refundKeys };
}

describe('the console’s payments (issue 31 §5)', { timeout: 20_000 }, () => {
  it('lists payments with the filters sent to the server', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderAt('/admin/payments', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Payments' });
    const table = await screen.findByRole('region', { name: 'Payments' });
    expect(within(table).getByText('ada@example.com')).toBeTruthy();
    expect(within(table).getByText('PARLA-000007')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Payer’s email' }), 'ada');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((call) => call.url.includes('email=ada'))).toBe(true));
  });

  it('refunds part of a payment after a review, with the contract’s checks and one key', async () => {
    const user = userEvent.setup();
    const { calls, refundKeys } = serve();
    renderAt('/admin/payments/p1', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Payment of $20' });
    expect(screen.getByText('pi_123')).toBeTruthy();
    expect(screen.getByText('ch_123')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this payment' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount to refund/ });
    await user.clear(amount);
    await user.type(amount, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Review the refund' }));
    await within(dialog).findByText('reason is required: say why, it is kept in the audit log.');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Goodwill');
    await user.click(within(dialog).getByRole('radio', { name: 'Take back the refunded share' }));
    await user.click(within(dialog).getByRole('button', { name: 'Review the refund' }));
    await within(dialog).findByText(/Refund \$5 to ada@example\.com\?/);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Yes, refund $5' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { amount_cents: 500, reason: 'Goodwill', characters: 'proportional' },
      ]),
    );
    expect(refundKeys()[0]).toMatch(/^[\w-]{8,}$/);
    await screen.findByText('re_1');
    const refunds = screen.getAllByRole('region', { name: 'Refunds' }).at(-1);
    if (!refunds) throw new Error('no refunds table');
    expect(within(refunds).getByText('250,000')).toBeTruthy();
    expect(within(refunds).getByText('Goodwill')).toBeTruthy();
    expect(screen.getByText('Partially refunded')).toBeTruthy();
  });
});
