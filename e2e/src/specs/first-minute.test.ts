import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';

// Issue 33, items 1 to 4: audible in ten seconds, a voice you can see, settings that read in
// one glance, voice data in the page's language; at 1440 px and 360 px, in English and Arabic.
const session = useBrowser();

const WIDE = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

const WORDS = {
  en: {
    path: '/convertor',
    sample: 'Welcome to Parla.',
    listen: 'Listen',
    stop: 'Stop',
    editor: 'Text editor',
    currentVoice: 'Current voice',
    change: 'Change: Voice',
    picker: 'Choose a voice',
    close: 'Close',
    gender: 'Gender',
    current: 'Current',
    advanced: 'Advanced',
    format: 'Format',
    effect: 'Effect',
    pause: 'Pause',
    convert: 'Convert',
  },
  ar: {
    path: '/ar/convertor',
    sample: 'مرحبًا بك في Parla.',
    listen: 'استمع',
    stop: 'إيقاف',
    editor: 'محرر النص',
    currentVoice: 'الصوت الحالي',
    change: 'تغيير: الصوت',
    picker: 'اختر صوتًا',
    close: 'إغلاق',
    gender: 'الجنس',
    current: 'الحالي',
    advanced: 'متقدم',
    format: 'الصيغة',
    effect: 'المؤثر',
    pause: 'إيقاف مؤقت',
    convert: 'تحويل',
  },
} as const;

const used = async (page: Page) =>
  Number((await page.getByTestId('characters-used').textContent())?.replace(/\D/g, ''));

async function open(page: Page, path: string): Promise<void> {
  await visit(page, path);
  await page.getByRole('group', { name: /./ }).first().waitFor();
  await page.waitForFunction(() =>
    /^[\d,٬]+$/.test(
      document.querySelector('[data-testid="characters-per-convert"]')?.textContent ?? '',
    ),
  );
}

describe.each([
  ['1440 px', WIDE],
  ['360 px', PHONE],
] as const)('the first minute at %s', (_, device) => {
  describe.each(['en', 'ar'] as const)('in %s', (language) => {
    const words = WORDS[language];

    it('starts with a sample, not counted; Listen plays the voice; typing replaces the sample', async () => {
      const page = await session.newPage(device);
      const previews: string[] = [];
      page.on('response', (response) => {
        if (response.url().includes('/api/convertor/voices/preview')) {
          previews.push(`${response.status()} ${response.headers()['content-type']}`);
        }
      });
      await open(page, words.path);
      const editor = page.getByRole('textbox', { name: words.editor });
      expect(await editor.inputValue()).toContain(words.sample);
      expect(await used(page)).toBe(0);

      // "Listen" beside the headline plays the current voice's sample.
      const heading = page.getByRole('heading', { level: 1 });
      const listen = page.getByRole('button', { name: words.listen, exact: true });
      const [headBox, listenBox] = [await heading.boundingBox(), await listen.boundingBox()];
      expect(listenBox && headBox && listenBox.y < headBox.y + headBox.height + 60).toBe(true);
      await listen.click();
      await page.getByRole('button', { name: words.stop, exact: true }).waitFor();
      // Rendered once per voice on the server: the first time takes a while.
      await expect.poll(() => previews, { timeout: 30_000 }).toEqual(['200 audio/mpeg']);
      await page.getByRole('button', { name: words.stop, exact: true }).click();

      // The first keystroke replaces the sample.
      await editor.click();
      await page.keyboard.type('Hi');
      await expect.poll(() => used(page)).toBe(2);
      expect(await page.getByTestId('sample-note').count()).toBe(0);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });

    it('converts the sample and plays it as soon as it arrives', async () => {
      const page = await session.newPage(device);
      await open(page, words.path);
      await page.getByRole('button', { name: words.convert, exact: true }).click();
      await page
        .getByRole('button', { name: words.pause, exact: true })
        .waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.2);
      // Converted, the sample counts like any text.
      expect(await used(page)).toBeGreaterThan(10);
      await page.evaluate(() => document.querySelector('audio')?.pause());
      expectNoPageErrors(page);
    });

    it('shows the voice as a card, and its picker fits the screen, named and filtered by existing genders', async () => {
      const page = await session.newPage(device);
      await open(page, words.path);
      const card = page.getByRole('group', { name: words.currentVoice });
      const name = (await card.getByTestId('voice-name').textContent()) ?? '';
      expect(name.length).toBeGreaterThan(0);
      // The name is isolated from what surrounds it (bidi), in Arabic too.
      expect(await card.getByTestId('voice-name').locator('bdi').count()).toBe(1);
      await card.getByRole('button', { name: words.change }).click();
      const dialog = page.getByRole('dialog', { name: words.picker });
      await dialog.waitFor();
      // Its close button has a name; the current voice is marked and in view.
      await dialog.getByRole('button', { name: words.close, exact: true }).waitFor();
      // Its title bar is no second banner: the page's header is the only one.
      expect(await page.getByRole('banner').count()).toBe(1);
      expect(await dialog.getByRole('heading', { name: words.picker }).count()).toBe(1);
      const current = dialog.locator('[aria-current="true"]');
      await current.waitFor();
      expect(await current.isVisible()).toBe(true);
      const use = current.getByRole('button').last();
      expect(await use.textContent()).toBe(words.current);
      expect(await use.isDisabled()).toBe(true);
      // Genders: only those of the catalogue, each capitalised.
      const genders = await dialog
        .getByLabel(words.gender, { exact: true })
        .locator('option')
        .allTextContents();
      expect(genders.length).toBeGreaterThan(1);
      for (const label of genders.slice(1)) {
        expect(label.charAt(0)).toBe(label.charAt(0).toLocaleUpperCase());
      }
      // Each row fits the dialog, its Use button on screen.
      const viewport = page.viewportSize()?.width ?? 0;
      const rows = await dialog.locator('[data-voice]').evaluateAll((elements) =>
        elements.slice(0, 5).map((element) => {
          const row = element.getBoundingClientRect();
          const use = element.querySelector('button:last-of-type')?.getBoundingClientRect();
          return {
            left: row.left,
            right: row.right,
            useLeft: use?.left ?? -1,
            useRight: use?.right ?? 1e9,
          };
        }),
      );
      for (const row of rows) {
        expect(row.left).toBeGreaterThanOrEqual(0);
        expect(row.right).toBeLessThanOrEqual(viewport);
        expect(row.useLeft).toBeGreaterThanOrEqual(0);
        expect(row.useRight).toBeLessThanOrEqual(viewport);
      }
      await expectAccessible(page);
      await dialog.getByRole('button', { name: words.close, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Advanced holds the format, its open state remembered after a reload.
      const format = page.getByLabel(words.format, { exact: true });
      expect(await format.isVisible()).toBe(false);
      const advanced = page.getByRole('button', { name: words.advanced });
      expect(await advanced.getAttribute('aria-expanded')).toBe('false');
      await advanced.click();
      await format.waitFor({ state: 'visible' });
      await page.reload();
      await open(page, words.path);
      expect(
        await page.getByRole('button', { name: words.advanced }).getAttribute('aria-expanded'),
      ).toBe('true');
      expect(await page.getByLabel(words.format, { exact: true }).isVisible()).toBe(true);
      // Effects read as words, not identifiers.
      const effects = await page
        .getByLabel(words.effect, { exact: true })
        .locator('option')
        .allTextContents();
      for (const label of effects) expect(label).not.toMatch(/^[a-z]+$/);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });
  });
});

describe('typing over the sample (issue 33 item 1)', () => {
  it('keeps every keystroke typed fast into the editor', async () => {
    const page = await session.newPage(WIDE);
    await open(page, '/convertor');
    const editor = page.getByRole('textbox', { name: WORDS.en.editor });
    // The editor with chips takes the plain text area's place when the pointer comes over it.
    await editor.hover();
    await page.locator('[contenteditable="true"][aria-label="Text editor"]').waitFor();
    await editor.click();
    const typed = 'Saved from the convertor page.';
    await page.keyboard.type(typed);
    await expect.poll(() => used(page)).toBe(typed.length);
    expect(await editor.textContent()).toBe(typed);
    expectNoPageErrors(page);
  });
});
