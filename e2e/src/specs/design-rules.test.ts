import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';

/*
 * DESIGN.md's rules on every page a phone user meets (issue 33 item 8): touch targets of at
 * least 44 px. A link inside a sentence keeps its line (WCAG 2.5.8's inline exception); a
 * checkbox is touched through its label, a password field through its whole box.
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
});
