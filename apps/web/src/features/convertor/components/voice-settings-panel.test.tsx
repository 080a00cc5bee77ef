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

function Panel({ languages = LANGUAGES }: { languages?: Language[] }) {
  const [settings, setSettings] = useState<PanelSettings>(() => initialSettings(languages));
  return (
    <AppProviders>
      <VoiceSettingsPanel languages={languages} settings={settings} onChange={setSettings} />
    </AppProviders>
  );
}

const select = (label: string) =>
  screen.getByLabelText(label, { selector: 'select' }) as HTMLSelectElement;
const enabled = (element: HTMLSelectElement) =>
  Array.from(element.options)
    .filter((option) => !option.disabled)
    .map((option) => option.value);

afterEach(cleanup);

describe('the voice settings panel', () => {
  it('starts on the standard engine and says how to add neural voices when none is installed', () => {
    const standardOnly = LANGUAGES.map((language) => ({
      ...language,
      voices: language.voices.filter((voice) => voice.engine === 'standard'),
    }));
    render(<Panel languages={standardOnly} />);
    expect(select('Engine').value).toBe('standard');
    expect(enabled(select('Engine'))).toEqual(['standard']);
    expect(screen.getByText(NO_NEURAL_VOICES)).toBeTruthy();
  });

  it('says nothing about installing voices when neural voices exist', () => {
    render(<Panel />);
    expect(screen.queryByText(NO_NEURAL_VOICES)).toBeNull();
  });

  it('fills and disables the sample rates by engine and format (SPEC §5)', async () => {
    const user = userEvent.setup();
    render(<Panel />);
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
    expect((screen.getByLabelText('Pitch value') as HTMLInputElement).disabled).toBe(true);
    await user.selectOptions(select('Engine'), 'standard');
    expect(Array.from(select('Effect').options).map((o) => o.value)).toEqual([
      '',
      'whispered',
      'calm',
    ]);
    expect((screen.getByLabelText('Pitch value') as HTMLInputElement).disabled).toBe(false);
  });
});
