import { MESSAGES } from '@parla/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import CheckoutPage from '../../../app/routes/account/checkout';
import { PLAN_INFO } from '../../../test/plan-info';
import { BILLED, profileOf } from '../../../test/profile';
import {
  interceptFetch,
  jsonResponse,
  type RecordedCall,
  renderAt,
  restoreFetch,
} from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

const PROFILE = profileOf({
  user: {
    ...BILLED,
    card: {
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2034,
      name: 'Ada Lovelace King',
    },
    metadata: { has_payment_method_added: true },
  },
  plan: { type: 'BASIC', period: 'month' },
});

function serve(payment: (call: RecordedCall) => Response, profile: () => unknown = () => PROFILE) {
  return interceptFetch((call) => {
    if (call.url === '/api/account/profile') return jsonResponse(200, profile());
    if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
    if (call.url === '/api/plan/payment/config') return jsonResponse(200, { provider: 'test' });
    if (call.url.startsWith('/api/plan/payment')) return payment(call);
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
}

signedInForEachTest();

/** Opens the checkout of `type`, waits for its price and for Pay to be enabled, clicks Pay. */
async function clickPay(type: string, price: string) {
  renderAt(`/account/checkout?type=${type}`, '/account/checkout', <CheckoutPage />);
  await screen.findByText(/Saved card: Visa ending in 4242/);
  await screen.findAllByText(price);
  const pay = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement;
  await waitFor(() => expect(pay.disabled).toBe(false));
  await userEvent.click(pay);
  return pay;
}

async function payWithSavedCard() {
  await clickPay('Premium', '$29');
  // The account has BASIC already: buying PREMIUM is confirmed first.
  await userEvent.click(await screen.findByRole('button', { name: 'Confirm and pay' }));
}

const paymentCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url.startsWith('/api/plan/payment?'));

describe('checkout outcomes (SPEC §4 Checkout payment, §8 Payment)', { timeout: 20_000 }, () => {
  it('pays PREMIUM with the saved card: token null, one attempt id, the success message', async () => {
    const { calls, spy } = serve(() =>
      jsonResponse(200, { status: 'succeeded', message: MESSAGES.checkout.paymentSuccess }),
    );
    await payWithSavedCard();
    await screen.findByText(MESSAGES.checkout.paymentSuccess);
    const call = calls.find((c) => c.url.startsWith('/api/plan/payment?'));
    expect(call?.url).toBe('/api/plan/payment?is_update_card=false');
    expect(call?.body).toEqual({ token: null, name_on_card: null, type: 'PREMIUM' });
    const init = spy.mock.calls.find(([input]) =>
      String(input).startsWith('/api/plan/payment?'),
    )?.[1];
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[\w-]{36}$/);
  });

  it("a 403 shows a warning with the server's message", async () => {
    serve(() => jsonResponse(403, { message: 'Validate your email address before paying.' }));
    await payWithSavedCard();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Validate your email address before paying.');
  });

  it("other failures show the server's message, or 'Payment failed! Try again!'", async () => {
    serve(() => jsonResponse(402, { message: 'Your card was declined.' }));
    await payWithSavedCard();
    expect((await screen.findByRole('alert')).textContent).toContain('Your card was declined.');
    cleanup();
    restoreFetch();
    serve(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await payWithSavedCard();
    expect((await screen.findByRole('alert')).textContent).toContain(
      MESSAGES.checkout.paymentFailed,
    );
  });

  it('editing the card asks for name and card, and cancel editing goes back to the saved one', async () => {
    serve(() => jsonResponse(500, {}));
    renderAt('/account/checkout?type=basic', '/account/checkout', <CheckoutPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit card' }));
    const pay = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement;
    expect(screen.getByLabelText(/^Card number/)).toBeTruthy();
    expect(pay.disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel editing' }));
    expect(screen.queryByLabelText(/^Card number/)).toBeNull();
    await waitFor(() => expect(pay.disabled).toBe(false));
  });

  it('after a success Pay stays disabled and the page shows the new plan', async () => {
    let paid = false;
    const upgraded = profileOf({
      user: PROFILE.user,
      plan: { type: 'PREMIUM', period: 'month', count_characters: 2_001_000 },
    });
    const { calls } = serve(
      () => {
        paid = true;
        return jsonResponse(200, {
          status: 'succeeded',
          message: MESSAGES.checkout.paymentSuccess,
        });
      },
      () => (paid ? upgraded : PROFILE),
    );
    await payWithSavedCard();
    await screen.findByText(MESSAGES.checkout.paymentSuccess);
    await screen.findByText('Your plan is now Premium: 2,001,000 characters left.');
    const pay = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    await userEvent.click(pay);
    expect(paymentCalls(calls)).toHaveLength(1);
  });

  it('with an active plan, Pay first says what happens to the remaining characters; Cancel pays nothing', async () => {
    const { calls } = serve(() => jsonResponse(500, {}));
    const pay = await clickPay('premium', '$29');
    const dialog = await screen.findByRole('alertdialog', { name: 'Change your plan?' });
    expect(dialog.textContent).toContain(
      'You already have the Basic plan. Your 1,000 remaining characters are kept and Premium adds 2,000,000, 2,001,000 in all. The limit per conversion becomes 10,000 characters.',
    );
    expect(pay.disabled).toBe(true);
    // The question takes the focus (issue 33 item 6), on Cancel: a second Enter pays nothing.
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    await userEvent.click(cancel);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(paymentCalls(calls)).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(pay));
    // Escape closes it too.
    await userEvent.click(pay);
    await screen.findByRole('alertdialog', { name: 'Change your plan?' });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(paymentCalls(calls)).toHaveLength(0);
  });

  it('buying a smaller plan says plainly that it is a downgrade', async () => {
    const premium = profileOf({
      user: PROFILE.user,
      plan: { type: 'PREMIUM', period: 'month', count_characters_per_convert: 10_000 },
    });
    const { calls } = serve(
      () => jsonResponse(200, { status: 'succeeded', message: MESSAGES.checkout.paymentSuccess }),
      () => premium,
    );
    await clickPay('basic', '$9');
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade your plan?' });
    expect(dialog.textContent).toContain(
      'This is a downgrade from Premium to Basic: the limit per conversion drops from 10,000 to 5,000 characters.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Downgrade and pay' }));
    await screen.findByText(MESSAGES.checkout.paymentSuccess);
    expect(paymentCalls(calls).map((call) => call.body)).toEqual([
      { token: null, name_on_card: null, type: 'BASIC' },
    ]);
  });

  it('on FREE, Pay pays at once: there is no plan to change', async () => {
    const free = profileOf({ user: PROFILE.user });
    const { calls } = serve(
      () => jsonResponse(200, { status: 'succeeded', message: MESSAGES.checkout.paymentSuccess }),
      () => free,
    );
    await clickPay('basic', '$9');
    await screen.findByText(MESSAGES.checkout.paymentSuccess);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(paymentCalls(calls)).toHaveLength(1);
  });

  it('an unknown type goes to /pricing', async () => {
    serve(() => jsonResponse(500, {}));
    renderAt('/account/checkout?type=gold', '/account/checkout', <CheckoutPage />);
    await screen.findByTestId('elsewhere');
  });
});
