import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { newAdmin, setTokenCookie } from '../harness/users.js';

/*
 * The console's Voices (issue 31 §6, decision 052): an administrator hides a language and it
 * leaves the convertor's voice list; offered again, it comes back. Welsh: no other spec speaks it.
 */
const session = useBrowser();

/** The convertor's voice picker of a new visitor (a fresh browser: nothing cached), searched. */
async function pickerFor(search: string): Promise<Page> {
  const page = await session.newPage();
  await visit(page, '/convertor');
  await page.getByRole('button', { name: 'Change: Voice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a voice' });
  await field(dialog, 'Search by name or language').fill(search);
  return page;
}

async function offerWelsh(page: Page, offered: boolean): Promise<void> {
  const settings = page.getByRole('region', { name: /^Language: Welsh/ });
  const toggle = settings.getByRole('switch', { name: /Offer this language/ });
  if ((await toggle.isChecked()) === offered) return;
  const answered = page.waitForResponse(
    (response) => response.url().endsWith('/api/admin/voices/language') && response.ok(),
  );
  // Styled, Mantine's switch lays its (transparent) input over the track and the label: a
  // person's click on either lands on the input, so that is what is clicked.
  await toggle.click();
  await answered;
  // The page shows the catalogue the server answered, once React has drawn it.
  await expect.poll(() => toggle.isChecked()).toBe(offered);
  await page
    .getByRole('status')
    .getByText(offered ? 'Welsh is offered again.' : 'Welsh is hidden with all its voices.')
    .waitFor();
}

describe('the console’s voices (/admin/voices)', () => {
  it('hides a language: it leaves the convertor’s voice list, and comes back when offered again', async () => {
    const admin = await newAdmin();
    const page = await session.newPage();
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin/voices');
    await page.getByRole('heading', { level: 1, name: 'Voices' }).waitFor();
    await page.getByRole('table').first().waitFor();
    await expectAccessible(page);

    const before = await pickerFor('Welsh');
    await before.getByRole('region', { name: 'Welsh' }).waitFor();
    expectNoPageErrors(before);

    await field(page, 'Language').fill('(cy)');
    await page.getByRole('option', { name: /\(cy\)$/ }).click();
    try {
      await offerWelsh(page, false);
      await page.getByText('Language hidden').first().waitFor();
      await expectAccessible(page);

      const after = await pickerFor('Welsh');
      await after.getByText('No voice matches your search.').waitFor();
      expect(await after.getByRole('region', { name: 'Welsh' }).count()).toBe(0);
      expectNoPageErrors(after);
    } finally {
      await offerWelsh(page, true);
    }
    const again = await pickerFor('Welsh');
    await again.getByRole('region', { name: 'Welsh' }).waitFor();
    expectNoPageErrors(page);
  });

  it('is usable on a tablet: filters, tables and the install form fit the screen', async () => {
    const admin = await newAdmin();
    const page = await session.newPage({ viewport: { width: 768, height: 1024 } });
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin/voices');
    await page.getByRole('heading', { level: 1, name: 'Voices' }).waitFor();
    await page.getByRole('table').first().waitFor();
    await page.getByRole('heading', { level: 2, name: 'Natural voices on this server' }).waitFor();
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expectNoPageErrors(page);
  });
});
