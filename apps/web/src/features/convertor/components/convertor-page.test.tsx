import type { VoiceSettings } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import { PLAN_INFO } from '../../../test/plan-info';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import { ConvertorPage } from './convertor-page';

const PROFILE = profileOf({
  plan: {
    type: 'PREMIUM',
    period: 'month',
    count_characters: 12345,
    count_characters_per_convert: 10000,
  },
});

const VOICES = [
  {
    language_name: 'French',
    language_code: 'fr-fr',
    voices: [
      {
        id: 'standard:fr-fr',
        name: 'French',
        gender: 'male',
        effects: ['calm'],
        engine: 'standard',
        capabilities: { pitch: true, emphasis: true },
      },
    ],
  },
];

const SAVED: VoiceSettings = {
  engine: 'standard',
  voice_id: 'standard:fr-fr',
  language_code: 'fr-fr',
  text: 'Bonjour <break time="2s" />',
  output_format: 'ogg',
  sample_rate: 22050,
  effect: 'calm',
  master_speed: 20,
  master_volume: -4,
  master_pitch: 0,
  voice_effects: [],
};

signedInForEachTest();

describe('the convertor page', () => {
  it('starts with a sample text that is not counted, replaced by what is typed, and converts it as it is (issue 33)', async () => {
    const network = interceptFetch((call) => {
      if (call.url === '/api/account/profile') return jsonResponse(200, PROFILE);
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.method === 'POST' && call.url === '/api/convertor?stream=true') {
        return jsonResponse(200, {
          success: true,
          message: 'ok',
          path: '/api/convertor/audio/sample.mp3',
          duration: 1,
        });
      }
      return jsonResponse(404, { message: 'Not found.' });
    });
    const played: string[] = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push(this.src);
      return Promise.resolve();
    };
    try {
      const first = renderAt('/convertor', '/convertor', <ConvertorPage />);
      const user = userEvent.setup();
      // The plain text area (this test comes first, before any test loads the rich editor,
      // whose typing happy-dom does not reproduce; e2e/first-minute types into both).
      const editor = await screen.findByRole('textbox', { name: 'Text editor' });
      const words = () => {
        const box = screen.getByRole('textbox', { name: 'Text editor' });
        return box instanceof HTMLTextAreaElement ? box.value : box.textContent;
      };
      await waitFor(() =>
        expect(screen.getByTestId('characters-per-convert').textContent).toBe('10,000'),
      );
      await waitFor(() => expect(words()).toBe(en.convertor.sample));
      expect(screen.getByTestId('characters-used').textContent).toBe('0');
      // "Listen" plays the current voice's sample.
      await user.click(screen.getByRole('button', { name: en.convertor.listen }));
      expect(played.at(-1)).toBe(
        `${window.location.origin}/api/convertor/voices/preview?voice=standard%3Afr-fr`,
      );
      // Typing replaces the sample.
      await user.click(editor);
      await user.keyboard('Hi');
      await waitFor(() => expect(words()).toBe('Hi'));
      expect(screen.getByTestId('characters-used').textContent).toBe('2');
      first.unmount();

      // Converted untouched, the sample is sent, counted from then on, and plays at once.
      renderAt('/convertor', '/convertor', <ConvertorPage />);
      const convert = await screen.findByRole('button', { name: 'Convert' });
      await waitFor(() => expect((convert as HTMLButtonElement).disabled).toBe(false));
      await user.click(convert);
      await waitFor(() =>
        expect(network.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
          text: en.convertor.sample,
        }),
      );
      expect(screen.getByTestId('characters-used').textContent).toBe(
        String(en.convertor.sample.length),
      );
      await waitFor(() =>
        expect(played.at(-1)).toBe(`${window.location.origin}/api/convertor/audio/sample.mp3`),
      );
    } finally {
      HTMLMediaElement.prototype.play = play;
    }
  });

  it('opens a saved file and offers Save and Download to a paying user after a conversion', async () => {
    const network = interceptFetch((call) => {
      if (call.url === '/api/account/profile') return jsonResponse(200, PROFILE);
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.method === 'POST' && call.url === '/api/convertor?stream=true') {
        return jsonResponse(200, {
          success: true,
          message: 'ok',
          path: '/api/convertor/audio/abc.ogg',
          duration: 2,
        });
      }
      return jsonResponse(404, { message: 'Not found.' });
    });
    const saveSlot = vi.fn(({ audioUrl }: { audioUrl: string }) => (
      <button type="button">Save {audioUrl}</button>
    ));
    renderAt(
      '/convertor',
      '/convertor',
      <ConvertorPage initial={{ ssml: SAVED.text, settings: SAVED }} saveSlot={saveSlot} />,
    );

    // The saved settings and document are shown (format and rate under Advanced); the pause
    // is a chip.
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Advanced' }));
    await waitFor(() =>
      expect(
        (screen.getByLabelText('Sample rate', { selector: 'select' }) as HTMLSelectElement).value,
      ).toBe('22050'),
    );
    const effect = screen.getByLabelText('Effect', { selector: 'select' }) as HTMLSelectElement;
    await waitFor(() => expect(effect.options).toHaveLength(2));
    expect(effect.value).toBe('calm');
    // The document has markup, so the editor's chunk is loaded first (decision 024): slow
    // under a busy machine's first import.
    expect(
      await screen.findByRole('button', { name: 'Pause 2s, edit' }, { timeout: 15_000 }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('characters-per-convert').textContent).toBe('10,000'),
    );
    expect(screen.getByTestId('characters-used').textContent).toBe(String(SAVED.text.length));
    expect(saveSlot).not.toHaveBeenCalled();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Convert' }));
    expect(
      await screen.findByRole('button', { name: 'Save /api/convertor/audio/abc.ogg' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    const sent = network.calls.find((call) => call.method === 'POST')?.body;
    expect(sent).toEqual(SAVED);
    expect(saveSlot).toHaveBeenLastCalledWith({
      audioUrl: '/api/convertor/audio/abc.ogg',
      settings: SAVED,
      ssml: SAVED.text,
    });
  });

  it('says why an empty Convert does nothing, cuts an upload with a message, warns near the limit, and focuses the player', async () => {
    const small = profileOf({
      plan: {
        type: 'BASIC',
        period: 'month',
        count_characters: 500,
        count_characters_per_convert: 20,
      },
    });
    const network = interceptFetch((call) => {
      if (call.url === '/api/account/profile') return jsonResponse(200, small);
      if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.method === 'POST' && call.url === '/api/convertor?stream=true') {
        return jsonResponse(200, {
          success: true,
          message: 'ok',
          path: '/api/convertor/audio/def.mp3',
          duration: 1,
        });
      }
      return jsonResponse(404, { message: 'Not found.' });
    });
    renderAt('/convertor', '/convertor', <ConvertorPage />);
    const user = userEvent.setup();
    await waitFor(() =>
      expect(screen.getByTestId('characters-per-convert').textContent).toBe('20'),
    );
    const convert = await screen.findByRole('button', { name: 'Convert' });
    await waitFor(() => expect((convert as HTMLButtonElement).disabled).toBe(false));

    // Empty: no request, and the page says why.
    await user.click(convert);
    expect(screen.getByTestId('empty-notice').textContent).toBe(
      'There is nothing to convert yet: type or paste a text first.',
    );
    expect(network.calls.some((call) => call.method === 'POST')).toBe(false);
    expect(screen.queryByTestId('remaining-warning')).toBeNull();

    // An upload longer than the limit is cut, and the page says how much was kept.
    const file = new File(['Twenty-five characters!!!'], 'long.txt', { type: 'text/plain' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, file);
    const notice = await screen.findByTestId('cut-notice');
    expect(notice.textContent).toContain('Kept 20 of 25 characters');
    expect(notice.querySelector('a')?.getAttribute('href')).toBe('/pricing');
    // A longer text has its place: the Documents page of this BASIC plan (issue 33 item 7).
    const documents = await within(notice).findByRole('link', { name: 'The Documents page' });
    expect(documents.getAttribute('href')).toBe('/documents');
    expect(screen.getByTestId('cut-documents').textContent).toBe(
      'The Documents page converts up to 100,000 characters at once.',
    );
    expect(screen.getByTestId('empty-notice').textContent).toBe('');

    // Nothing left: the counter says so in words, with the plans.
    expect(screen.getByTestId('characters-remaining').textContent).toBe('0');
    const warning = screen.getByTestId('remaining-warning');
    expect(warning.textContent).toContain('Limit reached');
    expect(warning.querySelector('a')?.getAttribute('href')).toBe('/pricing');

    // After a conversion the audio plays at once (issue 33), its Pause button has the focus.
    await user.click(convert);
    const play = await screen.findByRole('button', { name: 'Pause' });
    await waitFor(() => expect(document.activeElement).toBe(play));
    expect(screen.getByText('Your audio is ready.')).toBeTruthy();
  });

  it('lists under the text what was not read as written, with where it is (issue 27)', async () => {
    interceptFetch((call) => {
      if (call.url === '/api/account/profile') return jsonResponse(200, PROFILE);
      if (call.url === '/api/plan/info') return jsonResponse(200, PLAN_INFO);
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.method === 'POST' && call.url === '/api/convertor?stream=true') {
        return jsonResponse(200, {
          success: true,
          message: 'ok',
          path: '/api/convertor/audio/ghi.mp3',
          duration: 1,
          warnings: [
            {
              code: 'ignored_markup',
              message: '<amazon:effect name="drc"> is ignored',
              line: 2,
              column: 1,
            },
            {
              code: 'effect_not_available',
              message: 'The voice has no calm effect.',
              line: null,
              column: null,
            },
          ],
        });
      }
      return jsonResponse(404, { message: 'Not found.' });
    });
    renderAt('/convertor', '/convertor', <ConvertorPage />);
    const user = userEvent.setup();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['Bonjour.'], 'short.txt', { type: 'text/plain' }));
    const convert = await screen.findByRole('button', { name: 'Convert' });
    await waitFor(() => expect((convert as HTMLButtonElement).disabled).toBe(false));
    await user.click(convert);
    const warnings = await screen.findByTestId('convert-warnings');
    expect(warnings.textContent).toContain('Not everything in your text was read as written:');
    const items = [...warnings.querySelectorAll('li')].map((item) => item.textContent);
    expect(items).toEqual([
      'Line 2, column 1: <amazon:effect name="drc"> is ignored',
      'The voice has no calm effect.',
    ]);
  });
});
