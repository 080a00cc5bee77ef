import type { AdminUserDetail } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const DETAIL: AdminUserDetail = {
  user: {
    id: 'u1',
    email: 'ada@example.com',
    role: 'USER',
    email_validated: true,
    disabled_date: null,
    plan: {
      type: 'FREE',
      period: 'none',
      count_characters: 1000,
      count_characters_per_convert: 1000,
      count_characters_added: 0,
    },
    created_date: '2026-11-01T10:00:00.000Z',
  },
  usage: [{ day: '2026-11-03', characters: 1234, conversions: 3 }],
  files: {
    count: 1,
    bytes: 98_765,
    recent: [
      {
        id: 'f1',
        voice: 'English (America) – Male 1',
        audio_format: 'mp3',
        length: 12.4,
        size: 98_765,
        created_date: '2026-11-03T09:00:00.000Z',
      },
    ],
  },
  jobs: [],
  api_keys: [
    {
      id: 'k1',
      name: 'Home',
      prefix: 'parla_ab12',
      created_date: '2026-11-02T10:00:00.000Z',
      last_used_date: null,
    },
  ],
  payments: [],
  sign_ins: [],
};

/** The console's API as an administrator's session sees it; answers what POST /characters got. */
function serve(role: 'USER' | 'ADMIN') {
  const { spy } = interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ user: { role } }));
    if (call.url === '/api/admin/users/u1') return jsonResponse(200, DETAIL);
    if (call.url === '/api/admin/users/u1/characters' && call.method === 'POST') {
      const { characters } = call.body as { characters: number };
      const plan = { ...DETAIL.user.plan, count_characters: 1000 + characters };
      return jsonResponse(200, { ...DETAIL.user, plan });
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const posted = () =>
    spy.mock.calls
      .filter(([input, init]) => String(input).endsWith('/characters') && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
  const consoleCalls = () =>
    spy.mock.calls.filter(([input]) => String(input).startsWith('/api/admin'));
  return { posted, consoleCalls };
}

describe('the operator console (issue 31)', { timeout: 20_000 }, () => {
  it('shows a USER the administrators-only page and calls nothing of the console', async () => {
    const { consoleCalls } = serve('USER');
    renderAt('/admin', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Administrators only' });
    expect(screen.queryByRole('navigation', { name: 'Console' })).toBeNull();
    expect(consoleCalls()).toEqual([]);
  });

  it("shows a user's usage per day and their saved files", async () => {
    serve('ADMIN');
    renderAt('/admin/users/u1', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'ada@example.com' });
    // The section, and the scrolling table inside it, are regions of that name: the first holds all.
    const [usage] = screen.getAllByRole('region', { name: 'Usage over 30 days' });
    if (!usage) throw new Error('no usage section');
    expect(within(usage).getByRole('row', { name: /3 1,234/ })).toBeTruthy();
    const [files] = screen.getAllByRole('region', { name: 'Saved files' });
    if (!files) throw new Error('no files section');
    expect(within(files).getByText('Saved files: 1 (98,765 bytes)')).toBeTruthy();
    const row = within(files).getByRole('row', { name: /English \(America\) – Male 1/ });
    expect(row.textContent).toContain('mp3');
    expect(row.textContent).toContain('12 s');
  });

  it("grants characters with a reason the contract requires, and shows the user's new count", async () => {
    const user = userEvent.setup();
    const { posted } = serve('ADMIN');
    renderAt('/admin/users/u1', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'ada@example.com' });
    expect(screen.getByText('parla_ab12…')).toBeTruthy();
    const grant = screen.getByRole('region', { name: 'Grant or remove characters' });
    const characters = screen.getByRole('textbox', { name: /Characters \(negative removes\)/ });
    await user.type(characters, '500');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('reason is required: say why, it is kept in the audit log.');
    expect(posted()).toEqual([]);
    const reasons = screen.getAllByRole('textbox', { name: /^Reason/ });
    const reason = reasons.find((input) => grant.contains(input));
    if (!reason) throw new Error('no reason field in the grant form');
    await user.type(reason, 'Goodwill');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('The user now has 1,500 characters left.');
    await waitFor(() => expect(posted()).toEqual([{ characters: 500, reason: 'Goodwill' }]));
  });
});
