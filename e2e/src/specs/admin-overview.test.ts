import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newAdmin, newUser, setTokenCookie } from '../harness/users.js';

/*
 * The console's overview (issue 31 section 1, decision 053): an administrator opens the
 * console and sees today's conversion counted, drawn, and written in the table; axe clean at
 * 1280 px and on a tablet.
 */
const session = useBrowser();

const today = () => new Date().toISOString().slice(0, 10);

/** Today's conversions as the overview's API counts them (other specs convert meanwhile). */
async function conversionsToday(token: string): Promise<number> {
  const response = await fetch(
    `${session.baseUrl}/api/admin/overview?from=${today()}&to=${today()}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { totals: { conversions: number } }).totals.conversions;
}

async function convert(token: string, text: string): Promise<void> {
  const response = await fetch(`${session.baseUrl}/api/convertor`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-requested-with': 'parla',
    },
    body: JSON.stringify({
      engine: 'standard',
      voice_id: 'standard:en-us',
      language_code: 'en-us',
      text,
      output_format: 'mp3',
      sample_rate: 24000,
      effect: null,
      master_speed: 0,
      master_volume: 0,
      master_pitch: 0,
      voice_effects: [],
    }),
  });
  expect(response.status).toBe(200);
}

describe('the console overview (/admin)', () => {
  it("counts today's conversion: the total, today's row and the chart, at 1280 px", async () => {
    const admin = await newAdmin();
    const user = await newUser();
    const before = await conversionsToday(admin.token);
    await convert(user.token, 'Counted in the overview.');

    const page = await session.newPage({ viewport: { width: 1280, height: 900 } });
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const row = page.getByTestId(`overview-day-${today()}`);
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    // Sign-ups, active users, conversions, characters…
    const conversions = Number((cells[2] ?? '').replace(/\D/g, ''));
    expect(conversions).toBeGreaterThanOrEqual(before + 1);
    expect(Number((cells[3] ?? '').replace(/\D/g, ''))).toBeGreaterThanOrEqual(
      'Counted in the overview.'.length,
    );
    // The chart is drawn, and says in words what it shows.
    const chart = page.getByRole('img', { name: /^Conversions: [\d,]+ in all/ });
    await chart.locator('canvas').waitFor();
    await page.getByRole('region', { name: 'Top voices' }).getByText('standard:en-us').waitFor();
    await page.getByTestId('overview-health-threads').waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('is usable on a tablet: no sideways scroll, the users one link away', async () => {
    const admin = await newAdmin();
    const page = await session.newPage({ viewport: { width: 768, height: 1024 } });
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin');
    await page.getByTestId('overview-total-conversions').waitFor();
    await page
      .getByRole('img', { name: /^Conversions/ })
      .locator('canvas')
      .waitFor();
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    expectNoPageErrors(page);
  });
});
