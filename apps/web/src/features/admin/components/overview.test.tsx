import {
  ADMIN_OVERVIEW_MESSAGES,
  type AdminHealth,
  type AdminOverview,
  addDays,
  utcDay,
} from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const zero = {
  sign_ups: 0,
  active_users: 0,
  conversions: 0,
  characters: 0,
  audio_minutes: 0,
  revenue_cents: 0,
  errors: 0,
};

/** What the server answers for any period: figures on its last day only. */
function overviewOf(from: string, to: string): AdminOverview {
  const days = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push({ day, ...zero });
  const last = { sign_ups: 3, active_users: 2, conversions: 1234, characters: 56789 };
  const figures = { ...last, audio_minutes: 12.5, revenue_cents: 90000, errors: 1 };
  Object.assign(days[days.length - 1] ?? {}, figures);
  return {
    from,
    to,
    currency: 'usd',
    days,
    totals: figures,
    top_voices: [
      {
        voice: 'standard:en-us',
        engine: 'standard',
        language: 'en-us',
        conversions: 1234,
        characters: 56789,
      },
    ],
    top_languages: [{ language: 'en-us', conversions: 1234, characters: 56789 }],
  };
}

const HEALTH: AdminHealth = {
  providers: [
    {
      provider: 'polly',
      name: 'Amazon Polly',
      available: false,
      failures: 3,
      last_error: 'Amazon Polly did not answer in time.',
    },
  ],
  engines: [{ engine: 'standard', conversions: 40, failed: 2, mean_seconds: 0.25 }],
  queue: { redis: true, waiting: 5, active: 2 },
  workers: { processes: 2, threads: 8 },
};

function serve() {
  const { calls } = interceptFetch((call) => {
    const url = new URL(call.url, 'http://parla.test');
    if (url.pathname === '/api/account/profile') {
      return jsonResponse(200, profileOf({ user: { role: 'ADMIN' } }));
    }
    if (url.pathname === '/api/admin/overview') {
      const from = url.searchParams.get('from') ?? '';
      const to = url.searchParams.get('to') ?? '';
      return jsonResponse(200, overviewOf(from, to));
    }
    if (url.pathname === '/api/admin/overview/health') return jsonResponse(200, HEALTH);
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const overviewCalls = () =>
    calls
      .map((call) => new URL(call.url, 'http://parla.test'))
      .filter((url) => url.pathname === '/api/admin/overview')
      .map((url) => [url.searchParams.get('from'), url.searchParams.get('to')]);
  return { overviewCalls };
}

describe('the console overview (issue 31 section 1)', { timeout: 20_000 }, () => {
  it('is the landing page: the last 30 days, totals, a text for each chart, every day in a table, the health', async () => {
    const { overviewCalls } = serve();
    renderAt('/admin', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    const today = utcDay(new Date());
    await waitFor(() => expect(overviewCalls()).toEqual([[addDays(today, -29), today]]));
    expect(
      within(screen.getByRole('navigation', { name: 'Console' }))
        .getByRole('link', { name: 'Overview' })
        .getAttribute('aria-current'),
    ).toBe('page');

    expect((await screen.findByTestId('overview-total-conversions')).textContent).toBe('1,234');
    expect(screen.getByTestId('overview-total-revenue_cents').textContent).toBe('$900.00');
    expect(screen.getByTestId('overview-total-audio_minutes').textContent).toBe('12.5');
    // Each chart says in words what it draws.
    const chart = screen.getByRole('img', { name: /^Conversions: 1,234 in all; the most/ });
    expect(chart.getAttribute('aria-label')).toContain('1,234');
    expect(screen.getAllByRole('img').length).toBe(6);
    // Every day of the period, the newest first, zeros included.
    const table = screen.getByRole('region', { name: 'Figures per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    const newest = within(screen.getByTestId(`overview-day-${today}`)).getAllByRole('cell');
    expect(newest.map((cell) => cell.textContent)).toEqual([
      '3',
      '2',
      '1,234',
      '56,789',
      '12.5',
      '$900.00',
      '1',
    ]);
    const oldest = within(screen.getByTestId(`overview-day-${addDays(today, -29)}`));
    expect(oldest.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '0',
      '0',
      '0',
      '0',
      '0',
      '$0.00',
      '0',
    ]);
    expect(
      within(screen.getByRole('region', { name: 'Top voices' })).getByText('standard:en-us'),
    ).toBeTruthy();

    // The speech service: queue, workers, a provider down, an engine's mean time.
    expect((await screen.findByTestId('overview-health-waiting')).textContent).toBe('5');
    expect(screen.getByTestId('overview-health-threads').textContent).toBe('8');
    const providers = screen.getByRole('region', { name: 'Remote providers' });
    expect(within(providers).getByText('Unavailable')).toBeTruthy();
    expect(within(providers).getByText('Amazon Polly did not answer in time.')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Engines' })).getByText('0.25 sec'),
    ).toBeTruthy();
  });

  it('asks for the period chosen, and refuses a period the contract refuses before asking', async () => {
    const user = userEvent.setup();
    const { overviewCalls } = serve();
    renderAt('/admin', '/admin/*', <AdminRoute />);
    await screen.findByTestId('overview-total-conversions');
    const today = utcDay(new Date());

    await user.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(overviewCalls().at(-1)).toEqual([addDays(today, -6), today]));
    expect(screen.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.clear(from);
    await user.type(from, '2026-11-02');
    await user.clear(to);
    await user.type(to, '2026-11-01');
    const before = overviewCalls().length;
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByText(ADMIN_OVERVIEW_MESSAGES.order);
    expect(overviewCalls()).toHaveLength(before);

    await user.clear(to);
    await user.type(to, '2026-11-05');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(overviewCalls().at(-1)).toEqual(['2026-11-02', '2026-11-05']));
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Figures per day' })).getAllByRole('row'),
      ).toHaveLength(5),
    );
  });
});
