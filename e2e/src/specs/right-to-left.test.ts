import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';

const session = useBrowser();

/**
 * The words of an element's text (runs without spaces, left-to-right marks and isolates left
 * out) with the left edge of each on screen, in the order they are written.
 */
async function wordsOnScreen(element: Locator): Promise<{ word: string; left: number }[]> {
  return element.evaluate((root) => {
    const found: { word: string; left: number }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[^\s\u200e\u200f\u2066-\u2069]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        found.push({ word: match[0], left: range.getBoundingClientRect().left });
      }
    }
    return found;
  });
}

/**
 * Where an element's last character (its full stop, question or exclamation mark) and the
 * letter before it are drawn: an English sentence read left to right ends on the right.
 */
async function endOnScreen(
  element: Locator,
): Promise<{ text: string; last: number; before: number }> {
  return element.evaluate((root) => {
    const text = (root.textContent ?? '').trim();
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if ((node.textContent ?? '').trim()) nodes.push(node as Text);
    }
    const node = nodes.at(-1);
    const content = node?.textContent?.trimEnd() ?? '';
    const leftOf = (index: number) => {
      const range = document.createRange();
      range.setStart(node as Text, index);
      range.setEnd(node as Text, index + 1);
      return range.getBoundingClientRect().left;
    };
    return { text, last: leftOf(content.length - 1), before: leftOf(content.length - 2) };
  });
}

const lefts = (words: { left: number }[]) => words.map((word) => word.left);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

describe('right to left done right (issue 18 item 2)', () => {
  it('an Arabic page shows the phone number in its own order: +44 20 7946 0321', async () => {
    const page = await session.newPage();
    await visit(page, '/ar/contact');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    for (const phone of await page.getByRole('link', { name: '+44 20 7946 0321' }).all()) {
      const words = await wordsOnScreen(phone);
      expect(words.map((word) => word.word)).toEqual(['+44', '20', '7946', '0321']);
      // Read left to right on screen, as written: not "0321 7946 20 44+".
      expect(lefts(words)).toEqual(ascending(lefts(words)));
    }
    expectNoPageErrors(page);
  });

  it('an Arabic pricing card shows each price and count as written, left to right', async () => {
    const page = await session.newPage();
    await visit(page, '/ar/pricing');
    const card = page.getByRole('region', { name: 'الأساسية' });
    // The price with its currency, written by Intl for Arabic, isolated from the text around.
    const price = card.locator('bdi').first();
    await price.waitFor();
    const written = await price.evaluate((element) => element.textContent ?? '');
    expect(written).toMatch(/9/);
    const words = await wordsOnScreen(price);
    expect(words.length).toBeGreaterThan(1);
    expect(lefts(words)).toEqual(ascending(lefts(words)));
    // "/ شهريًا" follows the price on its left, as Arabic reads.
    const priceBox = await price.boundingBox();
    const perMonth = await card.getByText('/ شهريًا').boundingBox();
    expect(priceBox && perMonth && perMonth.x + perMonth.width <= priceBox.x + 1).toBe(true);
    // A grouped number keeps its digit groups in order (500,000 never reads 000,500).
    const characters = card.getByRole('listitem').first();
    const digits = await characters.evaluate((element) => {
      const text = element.textContent ?? '';
      const node = [...Array.from(element.querySelectorAll('*')), element]
        .flatMap((candidate) => Array.from(candidate.childNodes))
        .find(
          (child) => child.nodeType === Node.TEXT_NODE && /\p{Nd}/u.test(child.textContent ?? ''),
        );
      if (!node) return { text, lefts: [] as number[] };
      const lefts: number[] = [];
      for (const match of (node.textContent ?? '').matchAll(/\p{Nd}+/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        lefts.push(range.getBoundingClientRect().left);
      }
      return { text, lefts };
    });
    expect(digits.lefts.length, digits.text).toBeGreaterThan(1);
    expect(digits.lefts).toEqual(ascending(digits.lefts));
    expectNoPageErrors(page);
  });

  it("SPEC's English words and the server's messages end with their own punctuation on an Arabic page", async () => {
    const page = await session.newPage();
    // Reading a page in Arabic makes it the language of the sign-in page.
    await visit(page, '/ar/pricing');
    await visit(page, '/auth/login');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const form = page.getByRole('form', { name: 'تسجيل الدخول' });
    const ends = [
      await endOnScreen(form.getByText('Remember me!')),
      await endOnScreen(form.getByRole('link', { name: 'Forgot password?' })),
    ];
    await form.getByRole('button', { name: 'تسجيل الدخول' }).click();
    ends.push(await endOnScreen(form.getByText('Email address is required.')));
    await form.getByRole('textbox', { name: 'البريد الإلكتروني' }).fill('nobody@example.com');
    await form.getByLabel('كلمة المرور').fill('not the password');
    await form.getByRole('button', { name: 'تسجيل الدخول' }).click();
    const refused = form.getByRole('alert');
    await refused.waitFor();
    ends.push(await endOnScreen(refused));
    for (const end of ends) {
      expect(end.text).toMatch(/^[A-Z].*[.!?]$/);
      expect(end.last, `"${end.text}" ends on the right`).toBeGreaterThan(end.before);
    }
    expect(await form.getByText('Remember me!').getAttribute('lang')).toBe('en');
    expectNoPageErrors(page);
  });

  it('mirrors the layout but not the player, and icons that point turn round', async () => {
    const page = await session.newPage();
    await visit(page, '/ar/convertor');
    // The editor comes first, on the right; the voice settings on its left.
    const editor = await page.getByRole('region', { name: 'المحرر' }).boundingBox();
    const settings = await page.getByRole('region', { name: 'إعدادات الصوت' }).boundingBox();
    expect(editor && settings && settings.x < editor.x).toBe(true);
    const undo = page.getByRole('button', { name: 'تراجع' }).locator('svg');
    expect(await undo.evaluate((icon) => getComputedStyle(icon).transform)).toBe(
      'matrix(-1, 0, 0, 1, 0, 0)',
    );
    expectNoPageErrors(page);
  });
});
