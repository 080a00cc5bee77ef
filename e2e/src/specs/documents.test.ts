import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

/** Two chapters of Markdown, each a few sentences. */
const BOOK = [
  '# The Lighthouse',
  '',
  'The keeper climbed the stairs every evening. He lit the lamp and watched the sea.',
  '',
  '# The Ship',
  '',
  'One night a ship came close to the rocks. The light turned it away just in time.',
  '',
].join('\n');

/**
 * Documents (issue 19) as a person uses the page: a file chosen, its chapters shown with their
 * cost, one renamed, the audiobook started; its progress until it is ready; then played, and a
 * chapter button that moves the player to that chapter.
 */
describe('the documents page', () => {
  it('turns a Markdown file into an Ogg audiobook with chapters to jump to, kept in File History', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/documents');
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    await page.getByText('No audiobooks yet.').waitFor();

    // A drop zone labelled Document with a button (issue 33 item 7) over a hidden file input.
    await page
      .getByRole('group', { name: 'Document' })
      .getByRole('button', { name: 'Choose a file' })
      .waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'lighthouse.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(BOOK),
    });
    const second = page.getByRole('textbox', { name: 'Title of chapter 2' });
    await second.waitFor();
    expect(await page.getByRole('textbox', { name: 'Title of chapter 1' }).inputValue()).toBe(
      'The Lighthouse',
    );
    expect(await second.inputValue()).toBe('The Ship');
    await page.getByText(/^161 characters; [\d,]+ left on your plan\.$/).waitFor();
    await expectAccessible(page);
    await second.fill('The Rescue');
    // One Ogg Vorbis stream (not Ogg files end to end): Chrome plays it through and seeks in it.
    await page.getByText('Ogg with chapters', { exact: true }).click();
    expect(await page.getByRole('radio', { name: 'Ogg with chapters' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Start the audiobook' }).click();
    await page.getByRole('status').filter({ hasText: 'Started.' }).waitFor();

    const job = page.getByTestId('job');
    await job.getByText('lighthouse', { exact: false }).first().waitFor();
    await job.getByText('Ready').waitFor({ timeout: 60_000 });
    // The job ended: its Started notice is gone (issue 33 item 7).
    await page.getByRole('status').filter({ hasText: 'Started.' }).waitFor({ state: 'detached' });
    await job.getByRole('button', { name: 'Listen' }).click();
    // The app's player (issue 33 item 5), named after the audiobook, not <audio controls>.
    const player = job.getByRole('group', { name: /^Player of the audiobook /i });
    await player.getByRole('slider', { name: 'Seek' }).waitFor();
    await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
    expect(await job.locator('audio[controls]').count()).toBe(0);
    const audio = job.locator('audio');
    await audio.waitFor({ state: 'attached' });
    await page.waitForFunction(() => {
      const player = document.querySelector<HTMLAudioElement>('[data-testid="job"] audio');
      return (player?.duration ?? 0) > 4;
    });
    const chapters = job.getByRole('navigation', { name: 'Chapters' });
    expect(await chapters.getByRole('button').allTextContents()).toEqual([
      'The Lighthouse',
      'The Rescue',
    ]);
    await chapters.getByRole('button', { name: 'The Rescue' }).click();
    const at = await audio.evaluate((element: HTMLAudioElement) => element.currentTime);
    // The second chapter starts after the first chapter's two sentences (several seconds).
    expect(at).toBeGreaterThan(3);
    // As it plays, the sentence being read is shown with its word marked.
    const reading = page.getByTestId('now-reading');
    await reading.filter({ hasText: 'One night a ship came close to the rocks.' }).waitFor();
    const word = (await reading.locator('mark').textContent()) ?? '';
    expect('One night a ship came close to the rocks.'.split(/\W+/)).toContain(word);
    await expectAccessible(page);

    // The audiobook is in File History with the saved files; Open brings it back, playing.
    await visit(page, '/file-history');
    const row = page.getByRole('row').filter({ hasText: 'lighthouse' });
    await row.getByText('Audiobook').waitFor();
    await row.getByRole('link', { name: /^Open the audiobook/ }).click();
    await page.waitForURL(/\/documents\?job=/);
    await page.getByTestId('job').locator('audio').waitFor({ state: 'attached' });
    expect(await page.getByTestId('job').getByRole('button', { name: 'Listen' }).count()).toBe(0);
    expectNoPageErrors(page);
  });

  it('reads a file dropped on the page, and says why a file cannot be read', async () => {
    const user = await newUser('BASIC');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/documents');
    const drop = page.getByTestId('document-drop');
    const dropFile = async (name: string, content: string) => {
      const transfer = await page.evaluateHandle(
        ([fileName, text]) => {
          const data = new DataTransfer();
          data.items.add(new File([text], fileName, { type: 'text/plain' }));
          return data;
        },
        [name, content] as const,
      );
      await drop.dispatchEvent('dragover', { dataTransfer: transfer });
      await drop.dispatchEvent('drop', { dataTransfer: transfer });
    };
    await dropFile('notes.txt', 'Chapter 1\nA first thought.\n\nChapter 2\nA second one.');
    await page.getByRole('textbox', { name: 'Title of chapter 2' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Title of chapter 1' }).inputValue()).toBe(
      'Chapter 1',
    );
    await dropFile('report.pdf', 'not a pdf at all');
    await page
      .getByRole('alert')
      .filter({ hasText: 'report.pdf is not a PDF document: it is a text file.' })
      .waitFor();
    expectNoPageErrors(page);
  });
});

// Issue 33 item 7: Documents where people look for it. A paste cut at the per-conversion limit
// points to the Documents page; there, the file field is a drop zone with a button that the
// keyboard reaches. At 1440 px and 360 px, in English and Arabic.
const WIDE = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const WORDS = {
  en: {
    convertor: '/convertor',
    editor: 'Text editor',
    documentsLink: 'The Documents page',
    basicOnly: 'With the Basic plan, the Documents page converts up to 100,000 characters at once.',
    zone: 'Document',
    choose: 'Choose a file',
  },
  ar: {
    convertor: '/ar/convertor',
    editor: 'محرر النص',
    documentsLink: 'صفحة المستندات',
    basicOnly: 'مع الخطة الأساسية، تحوّل صفحة المستندات حتى 100,000 حرف دفعة واحدة.',
    zone: 'المستند',
    choose: 'اختر ملفًا',
  },
} as const;

async function pasteInto(page: Page, editor: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: editor }).click();
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    (document.activeElement ?? document.body).dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe.each([
  ['1440 px', WIDE],
  ['360 px', PHONE],
] as const)('documents where people look for it, at %s', (_, device) => {
  describe.each(['en', 'ar'] as const)('in %s', (language) => {
    const words = WORDS[language];

    it('a cut paste links to the Documents page, whose drop zone the keyboard reaches', async () => {
      const user = await newUser('BASIC');
      const page = await session.newPage(device);
      await setTokenCookie(page, user.token, session.baseUrl);
      await visit(page, words.convertor);
      await pasteInto(page, words.editor, 'a'.repeat(6000));
      const notice = page.getByTestId('cut-notice');
      const link = notice.getByRole('link', { name: words.documentsLink });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe('/documents');
      await expectAccessible(page);
      await link.click();
      await page.waitForURL((url) => url.pathname === '/documents');
      const zone = page.getByRole('group', { name: words.zone });
      const choose = zone.getByRole('button', { name: words.choose });
      await choose.waitFor();
      await choose.focus();
      expect(await choose.evaluate((button) => button === document.activeElement)).toBe(true);
      const box = await choose.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });

    it('a FREE user is told which plan has documents', async () => {
      const user = await newUser('FREE');
      const page = await session.newPage(device);
      await setTokenCookie(page, user.token, session.baseUrl);
      await visit(page, words.convertor);
      await pasteInto(page, words.editor, 'a'.repeat(1500));
      const sentence = page.getByTestId('cut-documents');
      await sentence.waitFor();
      expect(await sentence.textContent()).toBe(words.basicOnly);
      expect(await sentence.getByRole('link').count()).toBe(0);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });
  });
});
