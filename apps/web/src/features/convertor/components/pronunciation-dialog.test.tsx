import { LEXICON_MESSAGES, type LexiconList } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { interceptFetch, jsonResponse, type RecordedCall, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import PronunciationDialog from './pronunciation-dialog';

signedInForEachTest();

const SETTINGS = {
  engine: 'standard',
  voice_id: 'standard:en-us',
  language_code: 'en-us',
  output_format: 'mp3',
  sample_rate: 24000,
  effect: null,
  master_speed: 0,
  master_volume: 0,
  master_pitch: 0,
} as const;

const NONE: LexiconList = { lexicons: [], limits: { lexicons: 1, entries: 25 } };

const lexiconOf = (
  name: string,
  body: { language: string; default: boolean; entries: unknown[] },
) => ({
  name,
  ...body,
  default_position: body.default ? 1 : null,
  created_at: '2026-11-27T00:00:00Z',
  updated_at: '2026-11-27T00:00:00Z',
});

/** The API as the dialog uses it; `put` answers PUT /lexicons/{name}. */
function serve(put: (call: RecordedCall) => Response) {
  return interceptFetch((call) => {
    if (call.url === '/api/lexicons' && call.method === 'GET') return jsonResponse(200, NONE);
    if (call.url === '/api/convertor' && call.method === 'POST') {
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        path: `/api/audio/${(call.body as { text: string }).text.length}.mp3`,
        duration: 0.5,
      });
    }
    if (call.url.startsWith('/api/lexicons/') && call.method === 'PUT') return put(call);
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
}

function open() {
  return renderAt(
    '/convertor',
    '/convertor',
    <PronunciationDialog word="Nguyen" settings={SETTINGS} onClose={() => undefined} />,
  );
}

// A user's whole flow through a dialog: longer than the default 5 s on a busy machine.
describe('the Pronunciation dialog (issue 32, item 3)', { timeout: 30_000 }, () => {
  it('plays the word as it is and as typed, then keeps it in a new default lexicon', async () => {
    const user = userEvent.setup();
    const { calls } = serve((call) => jsonResponse(201, lexiconOf('MyWords', call.body as never)));
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Pronunciation of “Nguyen”' });

    await user.click(within(dialog).getByRole('button', { name: 'Hear it as it is' }));
    await within(dialog).findByText('“Nguyen” as the voice says it now');
    const conversions = () => calls.filter((call) => call.url === '/api/convertor');
    expect(conversions()[0]?.body).toEqual({ ...SETTINGS, text: 'Nguyen', voice_effects: [] });
    // A preview is whole before it plays: not streamed.
    expect(conversions()[0]?.url).toBe('/api/convertor');

    // IPA from the keypad of the voice's language, typed around the caret.
    await user.click(within(dialog).getByRole('radio', { name: 'IPA' }));
    const ipa = within(dialog).getByRole<HTMLInputElement>('textbox', {
      name: 'IPA transcription',
    });
    await user.type(ipa, 'ˈwɪn');
    await user.click(within(dialog).getByRole('button', { name: 'Insert ə' }));
    expect(ipa.value).toBe('ˈwɪnə');
    await user.click(within(dialog).getByRole('button', { name: 'Hear it your way' }));
    await within(dialog).findByText('“Nguyen” your way');
    expect(conversions()[1]?.body).toEqual({
      ...SETTINGS,
      text: '<speak><phoneme alphabet="ipa" ph="ˈwɪnə">Nguyen</phoneme></speak>',
      voice_effects: [],
      lexicon_names: [],
    });
    // The audio element plays what the server made of it.
    const text = (conversions()[1]?.body as { text: string } | undefined)?.text ?? '';
    expect(within(dialog).getByLabelText('“Nguyen” your way').getAttribute('src')).toBe(
      `/api/audio/${text.length}.mp3`,
    );

    // No lexicon yet: a new one, used by every conversion.
    const lexicon = within(dialog).getByRole<HTMLSelectElement>('combobox', { name: 'Lexicon' });
    expect(lexicon.selectedOptions[0]?.textContent).toBe('New lexicon…');
    const everyConversion = within(dialog).getByRole<HTMLInputElement>('checkbox', {
      name: 'Use this lexicon in every conversion',
    });
    expect(everyConversion.checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Save pronunciation' }));
    await within(dialog).findByText('Saved in MyWords. Conversions now say “Nguyen” this way.');
    const saved = calls.find((call) => call.method === 'PUT');
    expect(saved?.url).toBe('/api/lexicons/MyWords');
    expect(saved?.body).toEqual({
      language: 'en-us',
      default: true,
      entries: [{ grapheme: 'Nguyen', phoneme: 'ˈwɪnə', alphabet: 'ipa' }],
    });
  });

  it("shows the server's refusal beside the field it is about", async () => {
    const user = userEvent.setup();
    serve(() => jsonResponse(403, { message: LEXICON_MESSAGES.tooManyLexicons(1) }));
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Pronunciation of “Nguyen”' });
    const name = within(dialog).getByRole('textbox', { name: 'Name of the new lexicon' });
    await user.clear(name);
    await user.type(name, 'My Words');
    // The contract's rule, before anything is sent.
    within(dialog).getByText(LEXICON_MESSAGES.nameInvalid);
    await user.clear(name);
    await user.type(name, 'Brands');
    await user.type(within(dialog).getByRole('textbox', { name: 'Say it as' }), 'win');
    await user.click(within(dialog).getByRole('button', { name: 'Save pronunciation' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      LEXICON_MESSAGES.tooManyLexicons(1),
    );
  });

  it('puts a server message about the alias under the alias', async () => {
    const user = userEvent.setup();
    serve(() => jsonResponse(400, { message: LEXICON_MESSAGES.aliasTooLong }));
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Pronunciation of “Nguyen”' });
    const alias = within(dialog).getByRole('textbox', { name: 'Say it as' });
    await user.type(alias, 'win');
    await user.click(within(dialog).getByRole('button', { name: 'Save pronunciation' }));
    // Mantine ties the field's error to it (aria-describedby).
    await waitFor(() => {
      const described = (alias.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');
      expect(described).toContain(LEXICON_MESSAGES.aliasTooLong);
    });
    expect(alias.getAttribute('aria-invalid')).toBe('true');
  });
});
