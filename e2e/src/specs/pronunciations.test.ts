import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

interface Converted {
  request: Record<string, unknown>;
  result: { path: string; duration: number | null };
}

/** The next answer of POST /api/convertor with the body that asked for it. */
async function nextConversion(page: Page, act: () => Promise<void>): Promise<Converted> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (answer: Response) =>
        new URL(answer.url()).pathname === '/api/convertor' && answer.request().method() === 'POST',
      { timeout: 60_000 },
    ),
    act(),
  ]);
  expect(response.status()).toBe(200);
  return {
    request: response.request().postDataJSON() as Record<string, unknown>,
    result: (await response.json()) as Converted['result'],
  };
}

/** The audio at a conversion's address, whole. */
async function audioOf(path: string, token: string): Promise<Buffer> {
  const answer = await fetch(`${session.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

/** POST /api/convertor from outside the page, as the page asked, `lexicon_names` changed. */
async function convertAs(
  request: Record<string, unknown>,
  token: string,
  lexiconNames: string[],
): Promise<Converted['result']> {
  const answer = await fetch(`${session.baseUrl}/api/convertor`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-requested-with': 'parla',
    },
    body: JSON.stringify({ ...request, lexicon_names: lexiconNames }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Converted['result'];
}

describe('pronunciations from the editor (issue 32, item 3)', () => {
  it('takes a selected word from hearing it as it is to hearing it said the new way', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/convertor');
    // The voices are there once the voice card shows the current one.
    await page.getByRole('group', { name: 'Current voice' }).waitFor();

    const editor = page.getByRole('textbox', { name: 'Text editor' });
    await editor.click();
    await page.keyboard.type('Nguyen');
    await page.keyboard.press('Control+A');
    await page
      .getByRole('toolbar', { name: 'Editor tools' })
      .getByRole('button', { name: 'Pronunciation…' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Pronunciation of “Nguyen”' });
    await dialog.waitFor();
    await expectAccessible(page);

    // As it is: the word alone, in the page's voice, with the lexicons a conversion applies.
    const asItIs = await nextConversion(page, () =>
      dialog.getByRole('button', { name: 'Hear it as it is' }).click(),
    );
    expect(asItIs.request.text).toBe('Nguyen');
    expect(asItIs.request.voice_id).toBeTruthy();
    await dialog.getByText('“Nguyen” as the voice says it now').waitFor();

    // Your way: a respelling, said instead of the word, no lexicon in between.
    await dialog.getByRole('textbox', { name: 'Say it as' }).fill('win');
    const yourWay = await nextConversion(page, () =>
      dialog.getByRole('button', { name: 'Hear it your way' }).click(),
    );
    expect(yourWay.request.text).toBe('<speak><sub alias="win">Nguyen</sub></speak>');
    expect(yourWay.request.lexicon_names).toEqual([]);
    expect(yourWay.result.duration).not.toBe(asItIs.result.duration);
    expect(await audioOf(yourWay.result.path, user.token)).not.toEqual(
      await audioOf(asItIs.result.path, user.token),
    );

    // The IPA keypad writes into the transcription, and the dialog stays accessible.
    await dialog.getByText('IPA', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Insert ŋ' }).click();
    expect(await dialog.getByRole('textbox', { name: 'IPA transcription' }).inputValue()).toBe('ŋ');
    await expectAccessible(page);
    await dialog.getByText('Respelling', { exact: true }).click();

    // Kept in a first lexicon, used by default.
    expect(await dialog.getByRole('combobox', { name: 'Lexicon' }).inputValue()).toBeTruthy();
    await dialog.getByRole('textbox', { name: 'Name of the new lexicon' }).fill('Names');
    await dialog.getByRole('button', { name: 'Save pronunciation' }).click();
    await dialog
      .getByText('Saved in Names. Conversions now say “Nguyen” this way.')
      .waitFor({ timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });

    // The editor marks the word, saying how it is said and by which lexicon.
    await page.getByTitle('Said as win (lexicon Names)').waitFor();

    // Convert: the default lexicon applies; the audio is the word said the new way.
    const converted = await nextConversion(page, () =>
      page.getByRole('button', { name: 'Convert', exact: true }).click(),
    );
    expect(converted.request.text).toBe('Nguyen');
    const heard = await audioOf(converted.result.path, user.token);
    const withLexicon = await convertAs(converted.request, user.token, ['Names']);
    const without = await convertAs(converted.request, user.token, []);
    expect(withLexicon.duration).not.toBe(without.duration);
    const original = await audioOf(without.path, user.token);
    expect(heard).not.toEqual(original);
    expect(await audioOf(withLexicon.path, user.token)).not.toEqual(original);

    // The SSML tab marks the same word, in the text and not in the tags around it.
    await page.getByRole('tab', { name: 'SSML' }).click();
    await page.waitForURL((url) => url.pathname === '/convertor/ssml');
    const ssmlEditor = page.getByRole('textbox', { name: 'SSML editor' });
    const ssmlMark = ssmlEditor.getByTitle('Said as win (lexicon Names)');
    await ssmlMark.waitFor();
    expect(await ssmlMark.textContent()).toBe('Nguyen');
    await ssmlEditor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      '<speak>Nguyen <sub alias="x">Nguyen</sub> <say-as interpret-as="characters">Nguyen</say-as> nguyen</speak>',
    );
    await expect
      .poll(() => ssmlEditor.locator('mark').allTextContents())
      .toEqual(['Nguyen', 'nguyen']);
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('lists, edits and exports the lexicon on the Pronunciations page', async () => {
    const user = await newUser('FREE');
    const put = await fetch(`${session.baseUrl}/api/lexicons/Brands`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'x-requested-with': 'parla',
      },
      body: JSON.stringify({
        language: 'en-US',
        entries: [{ grapheme: 'Parla', alias: 'par la' }],
      }),
    });
    expect(put.status).toBe(201);
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/pronunciations');
    const card = page.getByRole('article', { name: 'Brands' });
    await card.getByText('1 entry').waitFor();

    await card.getByRole('button', { name: 'Edit entries of Brands' }).click();
    const said = card.getByRole('textbox', { name: 'How “Parla” is said' });
    await said.waitFor();
    expect(await said.inputValue()).toBe('par la');
    // A word left empty: the contract's message beside the field, nothing sent.
    await card.getByRole('button', { name: 'Add entry' }).click();
    await card.getByRole('button', { name: 'Save changes' }).click();
    await card.getByText('grapheme is required: the word or words to pronounce.').waitFor();
    await expectAccessible(page);
    await card.getByRole('textbox', { name: 'Word of entry 2' }).fill('SSML');
    await card.getByRole('textbox', { name: 'How “SSML” is said' }).fill('S S M L');
    await card.getByRole('button', { name: 'Save changes' }).click();
    await card.getByText('Brands is saved.').waitFor();
    await card.getByText('2 entries').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download PLS of Brands' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Brands.pls');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const pls = Buffer.concat(chunks).toString('utf8');
    expect(pls).toContain('<grapheme>SSML</grapheme>');
    expect(pls).toContain('<alias>S S M L</alias>');

    // Renamed in one step: a FREE plan keeps one lexicon, so a copy then a delete could not.
    await card.getByRole('button', { name: 'Rename Brands' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Brands' });
    await rename.getByRole('textbox', { name: 'New name' }).fill('Words');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('article', { name: 'Words' }).getByText('2 entries').waitFor();
    expect(await page.getByRole('article', { name: 'Brands' }).count()).toBe(0);
    expectNoPageErrors(page);
  });
});
