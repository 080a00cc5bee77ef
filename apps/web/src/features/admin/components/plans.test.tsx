import { ADMIN_PLAN_MESSAGES, type AdminPlan, PLAN_STORAGE_QUOTA_BYTES } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const plan = (type: AdminPlan['type'], price: number, characters: number): AdminPlan => ({
  type,
  price,
  count_characters: characters,
  count_characters_per_convert: characters / 100,
  storage_bytes: PLAN_STORAGE_QUOTA_BYTES[type],
  engines: ['neural', 'standard'],
  updated_at: null,
});

const PLANS = [
  plan('FREE', 0, 20_000),
  plan('BASIC', 9, 500_000),
  plan('PREMIUM', 29, 2_000_000),
  plan('BUSINESS', 99, 10_000_000),
];

/** The console's Plans API as the server answers it; a PUT answers every plan, changed. */
function serve(refusal?: { path: string; message: string }) {
  let plans = structuredClone(PLANS);
  const { calls } = interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ user: { role: 'ADMIN' } }));
    if (call.url === '/api/admin/plans') return jsonResponse(200, { plans });
    const type = call.url.replace('/api/admin/plans/', '');
    if (call.method === 'PUT' && plans.some((p) => p.type === type)) {
      if (refusal) return jsonResponse(400, { message: refusal.message, errors: [refusal] });
      plans = plans.map((p) =>
        p.type === type
          ? { ...p, ...(call.body as object), updated_at: '2026-11-29T08:00:00.000Z' }
          : p,
      );
      return jsonResponse(200, { plans });
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const puts = () => calls.filter((call) => call.method === 'PUT').map((call) => call.body);
  return { puts };
}

async function basicForm() {
  const heading = await screen.findByRole('heading', { name: 'BASIC' });
  const form = heading.closest('section');
  if (!form) throw new Error('no BASIC form');
  return within(form);
}

describe('the console’s plans (/admin/plans)', () => {
  it('says what a change does, and saves a plan’s whole terms as typed', async () => {
    const { puts } = serve();
    const user = userEvent.setup();
    renderAt('/admin/plans', '/admin/*', <AdminRoute />);
    expect(await screen.findByText(/applies to purchases made from now on/)).toBeTruthy();
    const basic = await basicForm();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'FREE',
      'BASIC',
      'PREMIUM',
      'BUSINESS',
    ]);
    const price = basic.getByLabelText(/Price per month/);
    await user.clear(price);
    await user.type(price, '12.5');
    await user.click(basic.getByRole('checkbox', { name: 'Standard' }));
    await user.click(basic.getByRole('button', { name: 'Save BASIC' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toEqual({
      price: 12.5,
      count_characters: 500_000,
      count_characters_per_convert: 5_000,
      storage_bytes: PLAN_STORAGE_QUOTA_BYTES.BASIC,
      engines: ['neural'],
    });
    expect((await screen.findByRole('status')).textContent).toMatch(/BASIC saved/);
    // The form starts again from what the server kept.
    expect((await basicForm()).getByText(/Last changed/)).toBeTruthy();
  });

  it('shows the contract’s message beside a wrong field and sends nothing', async () => {
    const { puts } = serve();
    const user = userEvent.setup();
    renderAt('/admin/plans', '/admin/*', <AdminRoute />);
    const basic = await basicForm();
    const perConvert = basic.getByLabelText(/Most characters in one conversion/);
    await user.clear(perConvert);
    await user.type(perConvert, '600000');
    await user.click(basic.getByRole('checkbox', { name: 'Neural' }));
    await user.click(basic.getByRole('checkbox', { name: 'Standard' }));
    await user.click(basic.getByRole('button', { name: 'Save BASIC' }));
    expect(await basic.findByText(ADMIN_PLAN_MESSAGES.perConvert)).toBeTruthy();
    expect(basic.getByText(ADMIN_PLAN_MESSAGES.engines)).toBeTruthy();
    expect(puts()).toEqual([]);
    // FREE's price cannot be typed: it costs nothing.
    const free = within(
      (await screen.findByRole('heading', { name: 'FREE' })).closest('section') as HTMLElement,
    );
    expect((free.getByLabelText(/Price per month/) as HTMLInputElement).disabled).toBe(true);
  });

  it('shows the server’s refusal beside the field it names', async () => {
    serve({ path: 'storage_bytes', message: ADMIN_PLAN_MESSAGES.whole('storage_bytes') });
    const user = userEvent.setup();
    renderAt('/admin/plans', '/admin/*', <AdminRoute />);
    const basic = await basicForm();
    await user.click(basic.getByRole('button', { name: 'Save BASIC' }));
    expect(await basic.findByText(ADMIN_PLAN_MESSAGES.whole('storage_bytes'))).toBeTruthy();
  });
});
