import { CONVERSIONS_AT_ONCE, JOB_CHARACTER_LIMITS, type PlanType } from '@parla/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import PricingPage from '../../../app/routes/pricing';
import { deleteCookie } from '../../../lib/cookies';
import { loadLanguage } from '../../../lib/i18n';
import { PLAN_INFO } from '../../../test/plan-info';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

function serve(plan: PlanType | null) {
  interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return plan ? jsonResponse(200, profileOf({ plan: { type: plan } })) : jsonResponse(401, {});
    if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
    if (call.url === '/api/convertor/voices')
      return jsonResponse(200, [
        {
          language_name: 'English',
          language_code: 'en-GB',
          voices: [
            {
              id: 'standard:a',
              name: 'A',
              gender: 'female',
              effects: [],
              engine: 'standard',
              capabilities: { pitch: true, emphasis: true },
            },
          ],
        },
      ]);
    return jsonResponse(404, { message: 'unexpected' });
  });
}

const card = async (name: string) => screen.findByRole('region', { name });

describe('the pricing page (issue 33 item 6)', () => {
  it('compares the four plans with the limits the product enforces', async () => {
    serve('FREE');
    renderAt('/pricing', '/pricing', <PricingPage />);
    const free = await card('Free');
    await within(free).findByText('20,000 characters a month');
    expect(within(free).getByText('Up to 1,000 characters per conversion')).toBeTruthy();
    expect(within(free).getByText('No documents (audiobooks)')).toBeTruthy();
    expect(
      within(free).getByText('Listen in the browser: no downloads or saved files'),
    ).toBeTruthy();
    expect(
      within(free).getByText(`${CONVERSIONS_AT_ONCE.FREE} conversions at a time`),
    ).toBeTruthy();
    const business = await card('Business');
    const limit = JOB_CHARACTER_LIMITS.BUSINESS.toLocaleString('en');
    expect(
      within(business).getByText(`Documents of up to ${limit} characters, 10 at a time`),
    ).toBeTruthy();
    expect(within(business).getByText('20 GB of saved files, with downloads')).toBeTruthy();
    expect(
      within(business).getByText('100 pronunciation lexicons of 1,000 words each'),
    ).toBeTruthy();
    expect(await within(business).findByText('1 voice in 1 language')).toBeTruthy();
    expect(within(business).getByText('The REST API, with keys of your own')).toBeTruthy();
  });

  it('marks the current plan of a paying user and offers Upgrade or Change', async () => {
    serve('PREMIUM');
    renderAt('/pricing', '/pricing', <PricingPage />);
    const premium = await card('Premium');
    await within(premium).findByText('Current plan');
    expect(within(premium).queryByText('MOST POPULAR')).toBeNull();
    const upgrade = await screen.findByRole('link', { name: 'Upgrade to Business' });
    expect(upgrade.getAttribute('href')).toBe('/account/checkout?type=business');
    const change = screen.getByRole('link', { name: 'Change to Basic' });
    expect(change.getAttribute('href')).toBe('/account/checkout?type=basic');
    expect(screen.getByRole('link', { name: 'Buy Premium again' })).toBeTruthy();
    expect(within(await card('Free')).queryByRole('link')).toBeNull();
  });

  it('signed out: Free starts at the convertor, a paid plan goes to login', async () => {
    deleteCookie('token');
    serve(null);
    renderAt('/pricing', '/pricing', <PricingPage />);
    const start = await screen.findByRole('link', { name: 'Start for free' });
    expect(start.getAttribute('href')).toBe('/convertor');
    const choose = await screen.findByRole('link', { name: 'Choose Premium' });
    expect(choose.getAttribute('href')).toBe('/auth/login');
    expect(screen.queryByText('Current plan')).toBeNull();
    expect(screen.getByText('MOST POPULAR')).toBeTruthy();
  });

  it('speaks Arabic on /ar/pricing', async () => {
    await loadLanguage('ar');
    serve('BASIC');
    renderAt('/ar/pricing', '/:language/pricing', <PricingPage />);
    expect(await screen.findByRole('link', { name: 'الترقية إلى المميزة' })).toBeTruthy();
  });
});
