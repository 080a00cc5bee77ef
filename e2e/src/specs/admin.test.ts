import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { newAdmin, newUser, setTokenCookie } from '../harness/users.js';

/*
 * The operator's console (issue 31, decision 044): an administrator made with `parla admin
 * grant` acts on a user in the browser; a USER is refused; every page is axe clean, at 1280 px
 * and on a tablet.
 */
const session = useBrowser();

async function signedIn(token: string, options?: Parameters<typeof session.newPage>[0]) {
  const page = await session.newPage(options);
  await setTokenCookie(page, token, session.baseUrl);
  return page;
}

describe('the operator console (/admin)', () => {
  it('grants characters to a user, whose counter shows them, and keeps the reason in the audit log', async () => {
    const admin = await newAdmin();
    const user = await newUser();
    const page = await signedIn(admin.token);
    await visit(page, '/admin/users');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');

    // The account menu of an administrator leads here.
    await page.getByRole('button', { name: admin.email }).click();
    await page.getByRole('menuitem', { name: 'Operator console' }).waitFor();
    await page.keyboard.press('Escape');

    await field(page, 'Search by email').fill(user.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: user.email }).click();
    await page.getByRole('heading', { level: 1, name: user.email }).waitFor();
    expect(pathOf(page)).toMatch(/^\/admin\/users\/[\w-]+$/);
    await expectAccessible(page);

    // The contract's rules before anything is sent: a reason is required.
    const grant = page.getByRole('region', { name: 'Grant or remove characters' });
    await field(grant, 'Characters (negative removes)').fill('5000');
    await grant.getByRole('button', { name: 'Apply' }).click();
    await grant.getByText('reason is required: say why, it is kept in the audit log.').waitFor();
    await field(grant, 'Reason').fill('Goodwill after an outage');
    await grant.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').getByText('The user now has 25,000 characters left.').waitFor();
    await page.getByTestId('admin-characters-left').getByText('25,000').waitFor();

    // The user's own counter (the convertor's allowance) shows them.
    const userPage = await signedIn(user.token);
    await visit(userPage, '/convertor');
    await userPage.getByText('Plan allowance left: 25,000').waitFor();

    await visit(page, '/admin/audit');
    const row = page.getByRole('row').filter({ hasText: 'Goodwill after an outage' });
    await row.waitFor();
    expect(await row.textContent()).toContain('user.characters');
    expect(await row.textContent()).toContain(admin.email);

    // A message of the contact form is stored: the console lists it and sets its status.
    const subject = `Console test ${Date.now()}`;
    const sent = await page.request.post('/api/mail/contact', {
      data: { name: 'Ada Lovelace', from: user.email, subject, message: 'A Welsh voice, please.' },
      headers: { 'x-requested-with': 'parla' },
    });
    expect(sent.status()).toBe(200);
    await visit(page, '/admin/messages');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Contact messages');
    const message = page.getByRole('article').filter({ hasText: subject });
    await message.waitFor();
    await field(message, 'Status').click();
    await page.getByRole('option', { name: 'Answered' }).click();
    // The filter: only the answered messages, this one among them.
    const filter = page.getByRole('radiogroup', { name: 'Show' });
    await filter.getByText('Answered', { exact: true }).click();
    expect(await filter.getByRole('radio', { name: 'Answered' }).isChecked()).toBe(true);
    await page.getByRole('article').filter({ hasText: subject }).waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
    expectNoPageErrors(userPage);
  });

  it('refuses a USER: the forbidden page, and no console link in the account menu', async () => {
    const user = await newUser();
    const page = await signedIn(user.token);
    await visit(page, '/admin');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Administrators only');
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).toBe(0);
    await page.getByRole('button', { name: user.email }).click();
    await page.getByRole('menuitem', { name: 'My Account' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Operator console' }).count()).toBe(0);
    expectNoPageErrors(page);
  });

  it('sends a visitor to the login page', async () => {
    const page = await session.newPage();
    await page.goto('/admin');
    await page.waitForURL('**/auth/login');
  });

  it('is usable on a tablet: the navigation above the page, every section without sideways scroll', async () => {
    const admin = await newAdmin();
    const user = await newUser();
    const page = await signedIn(admin.token, { viewport: { width: 768, height: 1024 } });
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    await visit(page, '/admin');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    for (const [link, heading] of [
      ['Users', 'Users'],
      ['Messages', 'Contact messages'],
      ['Payments', 'Payments'],
      ['Audit log', 'Audit log'],
    ] as const) {
      await navigation.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expectAccessible(page);
      expect(await overflow(), link).toBeLessThanOrEqual(0);
    }
    // A user's page: its forms and tables (wide ones scroll inside themselves).
    await visit(page, '/admin/users');
    await field(page, 'Search by email').fill(user.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: user.email }).click();
    await page.getByRole('heading', { level: 1, name: user.email }).waitFor();
    await page.getByRole('region', { name: 'Saved files' }).first().waitFor();
    await expectAccessible(page);
    expect(await overflow()).toBeLessThanOrEqual(0);
    expectNoPageErrors(page);
  });

  it('speaks the five languages of the site, right to left in Arabic', async () => {
    const admin = await newAdmin();
    const page = await signedIn(admin.token, { viewport: { width: 1280, height: 900 } });
    const words = {
      fr: { users: 'Utilisateurs', search: 'Rechercher par e-mail', audit: 'Journal d’audit' },
      de: { users: 'Nutzer', search: 'Nach E-Mail suchen', audit: 'Prüfprotokoll' },
      es: { users: 'Usuarios', search: 'Buscar por correo', audit: 'Registro de auditoría' },
      ar: { users: 'المستخدمون', search: 'البحث بالبريد الإلكتروني', audit: 'سجل التدقيق' },
    } as const;
    for (const [language, word] of Object.entries(words)) {
      // The console's paths have no language prefix: it speaks the language last chosen on the
      // site (a page of that language visited).
      await visit(page, `/${language}/convertor`);
      await visit(page, '/admin/users');
      await page.getByRole('heading', { level: 1, name: word.users }).waitFor();
      await field(page, word.search).waitFor();
      const root = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
      }));
      expect(root).toEqual({ lang: language, dir: language === 'ar' ? 'rtl' : 'ltr' });
      // The navigation keeps the language.
      await page.getByRole('link', { name: word.audit }).click();
      await page.getByRole('heading', { level: 1, name: word.audit }).waitFor();
      expect(pathOf(page)).toBe('/admin/audit');
      await expectAccessible(page);
    }
    expectNoPageErrors(page);
  });
});
