import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

const PUBLIC_PAGES = [
  ['/convertor', 'Text to speech convertor | Parla'],
  ['/convertor/text', 'Text to speech convertor | Parla'],
  ['/pricing', 'Pricing | Parla'],
  ['/contact', 'Contact | Parla'],
  ['/privacy-policy', 'Privacy Policy | Parla'],
  ['/terms-of-services', 'Terms of Services | Parla'],
  ['/sitemap', 'Sitemap | Parla'],
  ['/blog', 'Blog | Parla'],
  ['/blog/article/what-is-ssml', 'What is SSML? A practical introduction | Parla'],
  ['/auth/login', 'Login | Parla'],
  ['/auth/register', 'Register | Parla'],
  ['/auth/forgotten-password', 'Forgotten password | Parla'],
  ['/auth/reset-password/some-key', 'Reset password | Parla'],
  ['/auth/validate-email-address/some-key', 'Email address validation | Parla'],
  ['/es/terms-of-services', 'Términos del servicio | Parla'],
  ['/ar/blog', 'المدونة | Parla'],
] as const;

const ACCOUNT_PAGES = [
  ['/account', 'My Account | Parla'],
  ['/account/plan', 'My Plan | Parla'],
  ['/account/checkout?type=basic', 'Checkout | Parla'],
  ['/file-history', 'File History | Parla'],
  ['/documents', 'Documents | Parla'],
] as const;

let token = '';
beforeAll(async () => {
  token = (await newUser('PREMIUM')).token;
});

describe.each(['light', 'dark'] as const)('every page in the %s scheme', (colorScheme) => {
  it.each(PUBLIC_PAGES)(
    '%s has a title, a description and no serious axe violation',
    async (path, title) => {
      const page = await session.newPage({ colorScheme });
      await visit(page, path);
      expect(await page.title()).toBe(title);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length).toBeGreaterThan(20);
      expectNoPageErrors(page);
    },
  );

  it.each(ACCOUNT_PAGES)('%s (signed in) has no serious axe violation', async (path, title) => {
    const page = await session.newPage({ colorScheme });
    await setTokenCookie(page, token, session.baseUrl);
    await visit(page, path);
    expect(await page.title()).toBe(title);
    expectNoPageErrors(page);
  });
});
