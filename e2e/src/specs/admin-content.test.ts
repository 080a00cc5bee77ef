import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { createUser, grantAdmin, type RunningServer, startServer } from '../harness/server.js';
import { setTokenCookie } from '../harness/users.js';

/*
 * The console's Content (issue 31 §2, decision 054): an admin edits the French pricing page
 * and publishes it, and a visitor on a second server sees it. Two servers of their own, one
 * database (the first's SQLite file) and Redis (the publication's message), so the suite's
 * shared server keeps its pages.
 */
const session = useBrowser();
const REDIS = {
  REDIS_URL: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
  REDIS_PREFIX: `parla-e2e-content-${process.pid}-${Date.now()}`,
};
let first: RunningServer;
let second: RunningServer;

beforeAll(async () => {
  first = await startServer(REDIS);
  second = await startServer({
    ...REDIS,
    DATABASE_URL: `sqlite:${path.join(first.dataDir, 'parla.sqlite')}`,
  });
}, 120_000);
afterAll(async () => {
  await second?.stop();
  await first?.stop();
});

describe('the console’s content (/admin/content)', () => {
  it('an admin edits the French pricing page and publishes it, and a visitor on a second server sees it', async () => {
    const email = `e2e-content-${process.pid}-${Date.now()}@example.com`;
    const admin = await createUser(first.env, { email, password: 'correct-horse-1' });
    await grantAdmin(first.env, email);
    const words = `Offre de lancement ${Date.now()}`;

    const visitor = await session.newPage();
    await visit(visitor, `${second.baseUrl}/fr/pricing`);
    expect(await visitor.getByText(words).count()).toBe(0);

    const page = await session.newPage({ viewport: { width: 1280, height: 900 } });
    await setTokenCookie(page, admin.token, first.baseUrl);
    await visit(page, `${first.baseUrl}/admin/content`);
    await page.getByRole('heading', { level: 1, name: 'Content' }).waitFor();
    await page.getByRole('link', { name: /^Pricing, French:/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Tarifs (French)' }).waitFor();
    // The English page beside the French one, to translate from.
    await page
      .getByRole('region', { name: 'Another language' })
      .getByText('Pricing')
      .first()
      .waitFor();
    await expectAccessible(page);

    const body = field(page, 'Text (Markdown)');
    await body.fill(`**${words}** pour les nouveaux comptes.`);
    // The preview is the server's rendering, as the site will show it.
    await page
      .getByRole('region', { name: 'Preview' })
      .locator('strong', { hasText: words })
      .waitFor();
    await page.getByRole('button', { name: 'Save the draft' }).click();
    await page.getByRole('status').getByText('Draft saved.', { exact: false }).waitFor();

    // A draft: the visitor still sees the published page.
    await visitor.reload();
    await visitor.getByRole('heading', { level: 1 }).waitFor();
    expect(await visitor.getByText(words).count()).toBe(0);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').getByText('Published: every server shows it now.').waitFor();
    await expectAccessible(page);

    // The second server was told by Redis: a fresh visit shows the new words.
    await expect
      .poll(
        async () => {
          await visitor.reload();
          await visitor.getByRole('heading', { level: 1 }).waitFor();
          return visitor.getByText(words).count();
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expectNoPageErrors(visitor);
    expectNoPageErrors(page);
  });

  it('is usable on a tablet: the list and the editor fit the screen', async () => {
    const email = `e2e-content-tablet-${process.pid}-${Date.now()}@example.com`;
    const admin = await createUser(first.env, { email, password: 'correct-horse-1' });
    await grantAdmin(first.env, email);
    const page = await session.newPage({ viewport: { width: 768, height: 1024 } });
    await setTokenCookie(page, admin.token, first.baseUrl);
    for (const address of ['/admin/content', '/admin/content/articles/de/was-ist-ssml']) {
      await visit(page, `${first.baseUrl}${address}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page
        .getByRole('table')
        .first()
        .waitFor({ state: 'attached' })
        .catch(() => undefined);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, address).toBeLessThanOrEqual(0);
    }
    await page.getByRole('textbox', { name: /^Tags/ }).waitFor();
    expectNoPageErrors(page);
  });
});
