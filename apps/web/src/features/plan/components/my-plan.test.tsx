import { PLAN_STORAGE_QUOTA_BYTES } from '@parla/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
