import { PLAN_STORAGE_QUOTA_BYTES } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PlanPage from '../../../app/routes/account/plan';
import { PLAN_INFO } from '../../../test/plan-info';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

function serve(plan: 'FREE' | 'BASIC', usage: { used_bytes: number; quota_bytes: number }) {
  interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ plan: { type: plan } }));
    if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
    if (call.url === '/api/file/usage') return jsonResponse(200, usage);
    return jsonResponse(404, { message: 'unexpected' });
  });
}

describe('My Plan storage quota (issue 13 item 5)', () => {
  it('shows what the saved files use of the plan quota', async () => {
    serve('BASIC', { used_bytes: 512 * 1024 * 1024, quota_bytes: PLAN_STORAGE_QUOTA_BYTES.BASIC });
    renderAt('/account/plan', '/account/plan', <PlanPage />);
    expect(await screen.findByText('512.00 MB of 1.00 GB')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Saved files storage' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
  });

  it('on FREE says saving files is part of the paid plans', async () => {
    serve('FREE', { used_bytes: 0, quota_bytes: 0 });
    renderAt('/account/plan', '/account/plan', <PlanPage />);
    expect(await screen.findByText('Saving files is part of the paid plans.')).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Saved files storage' })).toBeNull();
  });
});

describe('My Plan invoices (issue 31 §5)', () => {
  it('lists the invoices with what was refunded and downloads one as PDF with the session', async () => {
    const user = userEvent.setup();
    const { spy } = interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'BASIC' } }));
      if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
      if (call.url === '/api/file/usage')
        return jsonResponse(200, { used_bytes: 0, quota_bytes: 1 });
      if (call.url === '/api/plan/invoices')
        return jsonResponse(200, {
          invoices: [
            {
              number: 'PARLA-000007',
              date: '2026-11-20T10:00:00.000Z',
              plan_type: 'BASIC',
              amount_cents: 900,
              refunded_cents: 450,
              currency: 'usd',
              url: '/api/plan/invoices/PARLA-000007.pdf',
            },
          ],
        });
      if (call.url === '/api/plan/invoices/PARLA-000007.pdf')
        return new Response(new Blob(['%PDF-1.3'], { type: 'application/pdf' }), { status: 200 });
      return jsonResponse(404, { message: 'unexpected' });
    });
    const saved: Blob[] = [];
    // jsdom has no object URLs: the browser's API, recorded here.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:invoice';
    });
    URL.revokeObjectURL = vi.fn();
    renderAt('/account/plan', '/account/plan', <PlanPage />);
    await screen.findByText('PARLA-000007');
    const table = screen.getAllByRole('region', { name: 'Invoices' }).at(-1);
    if (!table) throw new Error('no invoices table');
    expect(within(table).getByText('$4.50')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download invoice PARLA-000007 (PDF)' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.type).toBe('application/pdf');
    const download = spy.mock.calls.find(([input]) => String(input).endsWith('.pdf'));
    expect(new Headers(download?.[1]?.headers).get('Authorization')).toMatch(/^Bearer /);
  });
});
