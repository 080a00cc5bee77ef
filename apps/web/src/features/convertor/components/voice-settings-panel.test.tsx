import type { Language } from '@parla/contract';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import en from '../../../locales/en.json';
import { initialSettings, type PanelSettings } from '../lib/voice-settings';
import { VoiceSettingsPanel } from './voice-settings-panel';

const NO_NEURAL_VOICES = en.settings.noNeuralVoices;

const LANGUAGES: Language[] = [
  {
    language_name: 'English (US)',
    language_code: 'en-us',
    voices: [
      {
        id: 'neural:amy',
        name: 'Amy',
        gender: 'female',
        effects: ['calm'],
        engine: 'neural',
        capabilities: { pitch: false, emphasis: false },
      },
      {
        id: 'standard:en-us',
        name: 'Standard',
        gender: 'male',
        effects: ['whispered', 'calm'],
        engine: 'standard',
        capabilities: { pitch: true, emphasis: true },
      },
    ],
  },
];

function Panel({ languages = LANGUAGES, admin }: { languages?: Language[]; admin?: boolean }) {
  const [settings, setSettings] = useState<PanelSettings>(() => initialSettings(languages));
  return (
    <AppProviders>
      <VoiceSettingsPanel
        languages={languages}
        settings={settings}
        onChange={setSettings}
        admin={admin ?? false}
      />
    </AppProviders>
  );
}

const select = (label: string) =>
  screen.getByLabelText(label, { selector: 'select' }) as HTMLSelectElement;
const enabled = (element: HTMLSelectElement) =>
  Array.from(element.options)
    .filter((option) => !option.disabled)
    .map((option) => option.value);

/** Format, sample rate, volume and pitch are under "Advanced" (issue 33 item 3). */
const openAdvanced = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: en.settings.advanced }));

afterEach(() => {
  cleanup();
  // "Advanced" remembers its state in localStorage: each test starts as a first visit.
  localStorage.clear();
});

describe('the voice settings panel', () => {
  it('starts on the standard engine when no neural voice exists, and says nothing of operators', () => {
    const standardOnly = LANGUAGES.map((language) => ({
      ...language,
      voices: language.voices.filter((voice) => voice.engine === 'standard'),
    }));
    render(<Panel languages={standardOnly} />);
    expect(select('Engine').value).toBe('standard');
    expect(enabled(select('Engine'))).toEqual(['standard']);
    expect(screen.getByText(NO_NEURAL_VOICES)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/operator|npm run/);
    cleanup();
    render(<Panel languages={standardOnly} admin />);
    expect(document.body.textContent).toContain('npm run voices -- install');
  });

  it('says nothing about missing voices when neural voices exist', () => {
    render(<Panel />);
    expect(screen.queryByText(NO_NEURAL_VOICES)).toBeNull();
  });

  it('keeps format, sample rate, volume and pitch under Advanced, closed at first and remembered', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    const advanced = screen.getByRole('button', { name: en.settings.advanced });
    expect(advanced.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Sample rate')).toBeNull();
    expect(select('Engine')).toBeTruthy();
    await user.click(advanced);
    expect(advanced.getAttribute('aria-expanded')).toBe('true');
    for (const label of ['Format', 'Sample rate']) expect(select(label)).toBeTruthy();
    // A later visit finds it as it was left.
    cleanup();
    render(<Panel />);
    expect(
      screen.getByRole('button', { name: en.settings.advanced }).getAttribute('aria-expanded'),
    ).toBe('true');
    expect(select('Sample rate')).toBeTruthy();
  });

  it('fills and disables the sample rates by engine and format (SPEC §5)', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    await openAdvanced(user);
    expect(select('Sample rate').value).toBe('48000');
    expect(enabled(select('Sample rate'))).toHaveLength(6);

    await user.selectOptions(select('Engine'), 'standard');
    expect(select('Sample rate').value).toBe('24000');
    expect(enabled(select('Sample rate'))).toEqual(['24000', '22050', '16000', '8000']);

    await user.selectOptions(select('Format'), 'wav');
    expect(select('Sample rate').value).toBe('16000');
    expect(enabled(select('Sample rate'))).toEqual(['16000']);

    await user.selectOptions(select('Format'), 'mp3');
    await user.selectOptions(select('Engine'), 'neural');
    expect(select('Sample rate').value).toBe('48000');
  });

  it('offers whispered only on the standard engine, and pitch only with the capability', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    expect(Array.from(select('Effect').options).map((o) => o.value)).toEqual(['', 'calm']);
    await openAdvanced(user);
    expect((screen.getByLabelText('Pitch value') as HTMLInputElement).disabled).toBe(true);
    await user.selectOptions(select('Engine'), 'standard');
    expect(Array.from(select('Effect').options).map((o) => o.value)).toEqual([
      '',
      'whispered',
      'calm',
    ]);
    expect((screen.getByLabelText('Pitch value') as HTMLInputElement).disabled).toBe(false);
  });

  it('chooses a voice of another language and engine in the voice picker', async () => {
    const user = userEvent.setup();
    const languages: Language[] = [
      ...LANGUAGES,
      {
        language_name: 'French',
        language_code: 'fr-fr',
        voices: [
          {
            id: 'standard:polly:Lea',
            name: 'Léa',
            gender: 'female',
            effects: ['breathing', 'soft', 'whispered'],
            engine: 'standard',
            capabilities: { pitch: true, emphasis: true },
            provider: 'polly',
          },
          {
            id: 'neural:azure:fr-FR-DeniseNeural',
            name: 'Denise',
            gender: 'female',
            effects: ['happy', 'sad'],
            engine: 'neural',
            capabilities: { pitch: true, emphasis: false },
            provider: 'azure',
            available: false,
          },
        ],
      },
    ];
    render(<Panel languages={languages} />);
    await user.click(
      screen.getByRole('button', { name: `${en.settings.change}: ${en.settings.voice}` }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('4 voices');
    // Search folds accents: "lea" finds Léa.
    await user.type(screen.getByLabelText(en.voicePicker.search), 'lea');
    expect(dialog.textContent).toContain('1 voice');
    expect(dialog.textContent).toContain('Amazon Polly');
    await user.clear(screen.getByLabelText(en.voicePicker.search));
    await user.click(screen.getByLabelText(en.voicePicker.withStyles));
    // Styles, not Polly's three effects: Léa is left out.
    expect(dialog.textContent).toContain('3 voices');
    expect(dialog.textContent).not.toContain('Léa');
    expect(dialog.textContent).toContain(en.voicePicker.unavailable);
    await user.click(screen.getByLabelText(en.voicePicker.withStyles));
    await user.selectOptions(screen.getByLabelText(en.voicePicker.provider), 'polly');
    await user.click(screen.getByRole('button', { name: `${en.voicePicker.use} Léa` }));
    expect(select('Engine').value).toBe('standard');
    // The voice card shows the chosen voice: its name, language (Intl's name), gender, engine.
    const card = screen.getByRole('group', { name: en.settings.currentVoice });
    expect(card.textContent).toContain('Léa');
    expect(card.textContent).toContain(`French (France) · ${en.settings.female}`);
    expect(card.textContent).toContain(en.settings.standard);
    await openAdvanced(user);
    expect(select('Sample rate').value).toBe('24000');
    expect(Array.from(select('Effect').options).map((o) => o.value)).toEqual([
      '',
      'breathing',
      'soft',
      'whispered',
    ]);
  });

  it('plays a voice’s preview from the preview address', async () => {
    const user = userEvent.setup();
    const played: string[] = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push(this.src);
      return Promise.resolve();
    };
    try {
      render(<Panel />);
      // The card plays the current voice's sample; the picker each voice's.
      const card = screen.getByRole('group', { name: en.settings.currentVoice });
      const amy = card.querySelector('button') as HTMLButtonElement;
      expect(amy.getAttribute('aria-label')).toBe('Play a sample of Amy');
      await user.click(amy);
      await user.click(amy);
      await user.click(
        screen.getByRole('button', { name: `${en.settings.change}: ${en.settings.voice}` }),
      );
      await user.click(await screen.findByRole('button', { name: 'Preview Amy' }));
      const amyPreview = `${window.location.origin}/api/convertor/voices/preview?voice=neural%3Aamy`;
      expect(played).toEqual([amyPreview, amyPreview]);
      expect(
        screen.getByRole('button', { name: en.voicePicker.stop }).getAttribute('aria-pressed'),
      ).toBe('true');
    } finally {
      HTMLMediaElement.prototype.play = play;
    }
  });
});
