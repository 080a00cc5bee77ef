import type { Language } from '@parla/contract';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import en from '../../../locales/en.json';
import { interceptFetch, jsonResponse, restoreFetch } from '../../../test/render';
import { VoicePicker } from './voice-picker';

const STANDARD_ONLY: Language[] = [
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

const WITH_NATURAL: Language[] = [
  {
    language_name: 'French',
    language_code: 'fr-fr',
    voices: [
      ...(STANDARD_ONLY[0]?.voices ?? []),
      {
        id: 'neural:kokoro-int8-multi-lang-v1_0#31',
        name: 'Kokoro (Siwis)',
        gender: 'female',
        effects: ['calm'],
        engine: 'neural',
        capabilities: { pitch: true, emphasis: false },
      },
    ],
  },
];

function Picker({ languages, admin = false }: { languages: Language[]; admin?: boolean }) {
  return (
    <AppProviders>
      <VoicePicker
        opened
        onClose={() => undefined}
        languages={languages}
        currentVoiceId="standard:fr-fr"
        onChoose={() => undefined}
        admin={admin}
      />
    </AppProviders>
  );
}

afterEach(() => {
  cleanup();
  restoreFetch();
});

describe('the voice picker with no natural voice (issue 29)', () => {
  it('says under Neural that none is installed, and how far the install the server runs is', async () => {
    const network = interceptFetch((call) =>
      call.url === '/api/ready'
        ? jsonResponse(200, {
            status: 'ready',
            database: true,
            voices: {
              installing: [
                { name: 'kokoro-int8-multi-lang-v1_0', bytes: 59_400_000, total: 132_000_000 },
              ],
            },
          })
        : jsonResponse(404, { message: 'not here' }),
    );
    const user = userEvent.setup();
    render(<Picker languages={STANDARD_ONLY} />);
    await user.click(await screen.findByRole('radio', { name: en.settings.neural }));
    expect(screen.getByText(en.voicePicker.noNatural)).toBeTruthy();
    expect(screen.queryByText(en.voicePicker.none)).toBeNull();
    expect((await screen.findByRole('status')).textContent).toBe(
      'A natural voice is being installed: 45 %',
    );
    expect(document.body.textContent).not.toContain('npm run voices');
    expect(network.calls.map((call) => call.url)).toContain('/api/ready');
  });

  it('tells an administrator how to add one; says nothing of installs when none runs', async () => {
    interceptFetch(() => jsonResponse(200, { status: 'ready', database: true }));
    const user = userEvent.setup();
    render(<Picker languages={STANDARD_ONLY} admin />);
    await user.click(await screen.findByRole('radio', { name: en.settings.neural }));
    expect(screen.getByText(en.voicePicker.noNatural)).toBeTruthy();
    expect(document.body.textContent).toContain('npm run voices -- install');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('keeps "no voice matches" for a search that finds nothing among installed natural voices, without asking the server', async () => {
    const network = interceptFetch(() => jsonResponse(404, { message: 'not here' }));
    const user = userEvent.setup();
    render(<Picker languages={WITH_NATURAL} />);
    await user.click(await screen.findByRole('radio', { name: en.settings.neural }));
    expect(screen.getByText('Kokoro (Siwis)')).toBeTruthy();
    await user.type(screen.getByLabelText(en.voicePicker.search), 'zzz');
    expect(screen.getByText(en.voicePicker.none)).toBeTruthy();
    expect(screen.queryByText(en.voicePicker.noNatural)).toBeNull();
    expect(network.calls).toEqual([]);
  });
});
