import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { expectScreenshot } from '../harness/screenshots.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();
// In the dark scheme: with the light-scheme crawl of site-links.test.ts, every page of every
// language is checked by axe (visit) in both schemes.
const PHONE = {
  viewport: { width: 360, height: 740 },
  isMobile: true,
  hasTouch: true,
  colorScheme: 'dark' as const,
};

const LANGUAGES = ['', '/fr', '/de', '/es', '/ar'];
const LOCALISED = [
  '/convertor',
  '/convertor/ssml',
  '/pricing',
  '/blog',
  '/contact',
  '/privacy-policy',
  '/terms-of-services',
];
/** Pages of prose only, in every language: their layout is checked, their words not pictured. */
const PROSE = ['/privacy-policy', '/terms-of-services'];
const SINGLE_LANGUAGE = ['/sitemap', '/auth/login', '/auth/register', '/auth/forgotten-password'];
const SIGNED_IN = [
  '/account',
  '/account/plan',
  '/account/checkout?type=business',
  '/file-history',
  '/documents',
];

/**
 * What a phone user could not reach on the current page: controls (buttons, links, fields)
 * that stick out of the screen sideways, and header controls lying on top of each other.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) {
      problems.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    }
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
    };
    const controls = Array.from(
      document.querySelectorAll('main a, main button, main input, main select, main textarea'),
    ).filter(visible);
    for (const control of controls) {
      // Controls inside a scrolling area (a wide table) are reached by scrolling it.
      let clipped = false;
      for (let parent = control.parentElement; parent; parent = parent.parentElement) {
        if (/(auto|scroll)/.test(getComputedStyle(parent).overflowX)) clipped = true;
      }
      const box = control.getBoundingClientRect();
      if (!clipped && (box.left < -1 || box.right > width + 1)) {
        problems.push(`${name(control)} is off screen (${box.left}..${box.right})`);
      }
    }
    const header = Array.from(document.querySelectorAll('header button, header a')).filter(visible);
    for (const [index, first] of header.entries()) {
      const a = first.getBoundingClientRect();
      if (a.left < 0 || a.right > width) problems.push(`${name(first)} is off screen`);
      for (const second of header.slice(index + 1)) {
        const b = second.getBoundingClientRect();
        const overlap =
          a.left < b.right - 1 &&
          b.left < a.right - 1 &&
          a.top < b.bottom - 1 &&
          b.top < a.bottom - 1;
        if (overlap && !first.contains(second) && !second.contains(first)) {
          problems.push(`${name(first)} overlaps ${name(second)}`);
        }
      }
    }
    return problems;
  });
}

describe('every page at 360 px (issue 18 item 3)', () => {
  it.each([
    ...LANGUAGES.map((language) => LOCALISED.map((path) => `${language}${path}`)),
    SINGLE_LANGUAGE,
  ])(
    'has no sideways scroll and no control off screen or covered, and looks as its reference image: %s …',
    async (...paths) => {
      const page = await session.newPage(PHONE);
      for (const path of paths) {
        await visit(page, path);
        expect(await layoutProblems(page), path).toEqual([]);
        if (!PROSE.some((prose) => path.endsWith(prose))) {
          await expectScreenshot(page, `360px${path.replaceAll('/', '-')}`);
        }
      }
      expectNoPageErrors(page);
    },
    120_000,
  );

  it('a control moved by a few pixels, or a line of text gone, fails the comparison', async () => {
    const page = await session.newPage(PHONE);
    await visit(page, '/contact');
    await expectScreenshot(page, '360px-contact');
    await page.addStyleTag({ content: 'main button[type="submit"] { margin-inline-start: 12px }' });
    await expect(expectScreenshot(page, '360px-contact')).rejects.toThrow(
      /differ from the reference/,
    );
    await page.addStyleTag({ content: 'main button[type="submit"] { margin-inline-start: 0 }' });
    await page.getByRole('heading', { level: 1 }).evaluate((heading) => heading.remove());
    await expect(expectScreenshot(page, '360px-contact')).rejects.toThrow(
      /instead of the reference/,
    );
  });

  it('signed-in pages in every language, with an audiobook listed', async () => {
    const user = await newUser('PREMIUM');
    // An audiobook with a long title, so File History and Documents have a card to lay out.
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${session.baseUrl}/api/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: 'A rather long audiobook title that has to wrap on a narrow phone screen',
        text: 'One sentence. And another one.',
      }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await expect
      .poll(
        async () => {
          const job = await fetch(`${session.baseUrl}/api/jobs/${id}`, { headers });
          return ((await job.json()) as { status: string }).status;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe('done');
    const page = await session.newPage(PHONE);
    await setTokenCookie(page, user.token, session.baseUrl);
    // Reading a page in a language makes it the language of the pages without one.
    for (const language of LANGUAGES) {
      if (language) await visit(page, `${language}/pricing`);
      for (const path of SIGNED_IN) {
        await visit(page, path);
        const direction = await page.evaluate(() => document.documentElement.dir);
        expect(direction, path).toBe(language === '/ar' ? 'rtl' : 'ltr');
        expect(await layoutProblems(page), `${language} ${path}`).toEqual([]);
      }
    }
    expectNoPageErrors(page);
  }, 300_000);

  it('the language switcher never covers Convert, and works by keyboard', async () => {
    const page = await session.newPage(PHONE);
    await visit(page, '/fr/convertor');
    const convert = page.getByRole('button', { name: 'Convertir', exact: true });
    await convert.scrollIntoViewIfNeeded();
    // What is under the middle of the button is the button itself.
    const hit = await convert.evaluate((button) => {
      const box = button.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return top !== null && button.contains(top);
    });
    expect(hit).toBe(true);

    // Keyboard only: Tab to the switcher, open it, choose Deutsch.
    await page.evaluate(() => window.scrollTo(0, 0));
    const switcher = page.getByRole('button', { name: 'Langue : Français' });
    for (let step = 0; step < 10; step += 1) {
      await page.keyboard.press('Tab');
      if (await switcher.evaluate((button) => button === document.activeElement)) break;
    }
    expect(await switcher.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const german = page.getByRole('menuitem', { name: 'Deutsch' });
    await german.waitFor();
    for (let step = 0; step < 5; step += 1) {
      if (await german.evaluate((item) => item === document.activeElement)) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/de/convertor');
    await page.getByRole('button', { name: 'Umwandeln', exact: true }).waitFor();
    expectNoPageErrors(page);
  });
});
