import type { AdminPlanList, AdminPlanTermsInput } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { newAdmin, setTokenCookie } from '../harness/users.js';

/*
 * The console's Plans (issue 31 §4, decision 055): an administrator changes BASIC's price and
 * a new visitor's pricing page shows it. BASIC's terms are put back after: the other specs buy it.
 */
const session = useBrowser();

async function basicTerms(token: string): Promise<AdminPlanTermsInput> {
  const response = await fetch(`${session.baseUrl}/api/admin/plans`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { plans } = (await response.json()) as AdminPlanList;
  const basic = plans.find((plan) => plan.type === 'BASIC');
  if (!basic) throw new Error('no BASIC plan');
  const { type: _, updated_at: __, ...terms } = basic;
  return terms;
}

describe('the console’s plans (/admin/plans)', () => {
  it('changes BASIC’s price: a new visitor’s pricing page shows it at once', async () => {
    const admin = await newAdmin();
    const before = await basicTerms(admin.token);
    const page = await session.newPage();
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin/plans');
    await page.getByRole('heading', { level: 1, name: 'Plans' }).waitFor();
    const basic = page.getByRole('region', { name: 'BASIC' });
    await basic.waitFor();
    await expectAccessible(page);
    try {
      await field(basic, 'Price per month (US dollars)').fill('13.75');
      const answered = page.waitForResponse(
        (response) => response.url().endsWith('/api/admin/plans/BASIC') && response.ok(),
      );
      await basic.getByRole('button', { name: 'Save BASIC' }).click();
      await answered;
      await page
        .getByRole('status')
        .getByText(/^BASIC saved\./)
        .waitFor();
      await expectAccessible(page);

      const visitor = await session.newPage();
      await visit(visitor, '/pricing');
      await visitor.getByRole('region', { name: 'Basic' }).getByText('$13.75').waitFor();
      expectNoPageErrors(visitor);
    } finally {
      const restored = await fetch(`${session.baseUrl}/api/admin/plans/BASIC`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${admin.token}`,
          'content-type': 'application/json',
          'x-requested-with': 'parla',
        },
        body: JSON.stringify(before),
      });
      expect(restored.status).toBe(200);
    }
    expectNoPageErrors(page);
  });

  it('is usable on a tablet: the forms fit the screen', async () => {
    const admin = await newAdmin();
    const page = await session.newPage({ viewport: { width: 768, height: 1024 } });
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin/plans');
    await page.getByRole('region', { name: 'BUSINESS' }).waitFor();
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expectNoPageErrors(page);
  });
});
