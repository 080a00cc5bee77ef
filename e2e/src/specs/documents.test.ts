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

    // Mantine's FileInput is a button labelled Document over a hidden file input.
    await page.getByRole('button', { name: 'Document' }).waitFor();
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
