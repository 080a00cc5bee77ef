import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

/*
 * DESIGN.md's rules (issue 33 item 8): touch targets of at least 44 px on every page a phone
 * user meets (a link inside a sentence keeps its line, WCAG 2.5.8's inline exception; a checkbox
 * is touched through its label, a password field through its whole box); a 2 px focus ring on
 * selects and number boxes; named toolbar popovers, axe clean while open; /api/docs a link; the
 * counter never pushes Convert onto a line of its own.
 */
const session = useBrowser();
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const PAGES = [
  '/convertor',
  '/convertor/ssml',
  '/pricing',
  '/contact',
  '/blog',
  '/auth/login',
  '/auth/register',
  '/auth/forgotten-password',
];

/** The controls on the page smaller than 44 × 44 px, with their size. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=tab], [role=checkbox], [role=radio], [role=combobox]',
    );
    for (const control of Array.from(controls)) {
      if (control.getClientRects().length === 0) continue;
      if (getComputedStyle(control).visibility === 'hidden') continue;
      // A link inside a sentence: its block says more than the link.
      const block = control.parentElement?.closest('p, label, li, td, span, div');
      const inSentence =
        control.tagName === 'A' &&
        block !== null &&
        block !== undefined &&
        (block.textContent ?? '').trim().length > (control.textContent ?? '').trim().length + 2;
      if (inSentence && control.closest('footer') === null) continue;
      const target =
        control.closest('.mantine-Checkbox-body, .mantine-Radio-body, .mantine-Switch-body') ??
        control.closest('.mantine-PasswordInput-input') ??
        control;
      const box = target.getBoundingClientRect();
      if (box.width < 44 || box.height < 44) {
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '';
        small.push(
          `${control.tagName.toLowerCase()} "${name.slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  });
}

describe('DESIGN.md on a phone (issue 33 item 8)', () => {
  for (const language of ['', '/ar']) {
    it(`every control is a touch target of at least 44 px${language ? ', in Arabic' : ''}`, async () => {
      const page = await session.newPage(PHONE);
      for (const path of PAGES) {
        const localised = path.startsWith('/auth') ? path : `${language}${path}`;
        await visit(page, localised);
        expect(await smallTargets(page), localised).toEqual([]);
      }
      expectNoPageErrors(page);
    });
  }

  it('rings a focused select and number box with 2 px, names the toolbar popovers, axe clean while open', async () => {
    const page = await session.newPage({ viewport: { width: 1440, height: 900 } });
    await visit(page, '/convertor');
    for (const control of [
      page.getByRole('combobox', { name: 'Engine' }),
      page.getByLabel('Speed value', { exact: true }),
    ]) {
      // Reached by the keyboard, as a keyboard user reaches it.
      await control.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const ring = await control.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          focused: element === document.activeElement,
          width: style.outlineWidth,
          style: style.outlineStyle,
        };
      });
      expect(ring).toEqual({ focused: true, width: '2px', style: 'solid' });
    }
    const toolbar = page.getByRole('toolbar', { name: 'Editor tools' });
    const tools = toolbar.getByRole('button', { name: /^Insert / });
    const names = await tools.evaluateAll((buttons) =>
      buttons
        .filter((button) => !(button as HTMLButtonElement).disabled)
        .map((button) => button.getAttribute('aria-label') ?? ''),
    );
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const name of names) {
      await toolbar.getByRole('button', { name, exact: true }).click();
      const popover = page.getByRole('dialog', { name, exact: true });
      await popover.waitFor();
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'hidden' });
    }
    // A tag chip's popover, with its Remove button (its contrast is axe's to check).
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.type('word');
    await page.keyboard.press('Control+a');
    await toolbar.getByRole('button', { name: 'Insert speed', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Insert speed' })
      .getByRole('button', { name: 'Insert speed' })
      .click();
    await page.getByRole('button', { name: 'Speed medium, edit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove Speed' }).waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('keeps Convert beside the counter at 360 px when "Almost at the limit" shows', async () => {
    const page = await session.newPage(PHONE);
    await visit(page, '/convertor');
    const perConvert = Number(
      (await page.getByTestId('characters-per-convert').textContent())?.replace(/\D/g, ''),
    );
    expect(perConvert).toBeGreaterThan(0);
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.evaluate(
      (value) => {
        const data = new DataTransfer();
        data.setData('text/plain', value);
        (document.activeElement ?? document.body).dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      },
      'a'.repeat(Math.ceil(perConvert * 0.95)),
    );
    await page.getByTestId('remaining-warning').getByText('Almost at the limit').waitFor();
    const boxes = await page.evaluate(() => {
      const box = (element: Element | null | undefined) => element?.getBoundingClientRect();
      const counter = box(document.querySelector('[data-testid="character-counter"]'));
      const convert = box(
        Array.from(document.querySelectorAll('button')).find(
          (button) => button.textContent?.trim() === 'Convert',
        ),
      );
      return { counter, convert, width: window.innerWidth };
    });
    const { counter, convert, width } = boxes;
    if (!counter || !convert) throw new Error('no counter or no Convert button');
    // On the counter's row, on screen, not below it.
    expect(convert.top).toBeLessThan(counter.bottom);
    expect(convert.right).toBeLessThanOrEqual(width);
    expect(convert.left).toBeGreaterThanOrEqual(counter.right - 1);
    expectNoPageErrors(page);
  });

  it('makes /api/docs a link where the API keys are explained', async () => {
    const user = await newUser();
    const page = await session.newPage({ viewport: { width: 1440, height: 900 } });
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/account');
    const docs = page.locator('a[href="/api/docs"]');
    await docs.first().waitFor();
    expect(await docs.first().isVisible()).toBe(true);
    expectNoPageErrors(page);
  });
});
