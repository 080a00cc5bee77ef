import type { AdminVoiceCatalogue, AdminVoiceInstallState } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import { filterVoices, NO_FILTERS } from './voices-page';

signedInForEachTest();

const voice = (id: string, name: string, gender: string, extra: object = {}) => ({
  id,
  name,
  gender,
  engine: 'standard' as const,
  provider: 'espeak-ng',
  hidden: false,
  installed: null,
  ...extra,
});

const CATALOGUE: AdminVoiceCatalogue = {
  languages: [
    {
      language_code: 'en-us',
      language_name: 'English (America)',
      hidden: false,
      default_voice_id: null,
      voices: [
        voice('standard:en-us', 'Alex', 'male'),
        voice('standard:en-us+f1', 'Beth', 'female'),
        voice('neural:amy#0', 'Amy', 'female', {
          engine: 'neural',
          provider: 'piper',
          installed: 'amy',
        }),
      ],
    },
    {
      language_code: 'fr-fr',
      language_name: 'French (France)',
      hidden: false,
      default_voice_id: null,
      voices: [voice('standard:fr-fr', 'Claude', 'male')],
    },
  ],
  installed: [
    {
      name: 'amy',
      display_name: 'Amy',
      language: 'en-us',
      license: 'MIT',
      bytes: 63_000_000,
      speakers: 1,
    },
  ],
};

/** The console's Voices API as the server answers it; a PUT answers the changed catalogue. */
function serve() {
  let catalogue = structuredClone(CATALOGUE);
  let install: AdminVoiceInstallState = {
    state: 'idle',
    name: null,
    bytes: 0,
    total: null,
    message: null,
  };
  const { calls } = interceptFetch((call) => {
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ user: { role: 'ADMIN' } }));
    if (call.url === '/api/admin/voices') return jsonResponse(200, catalogue);
    if (call.url === '/api/admin/voices/available') {
      return jsonResponse(200, {
        voices: [
          {
            name: 'en_US-lessac-medium',
            architecture: 'piper',
            language: 'en_US',
            quality: 'medium',
            bytes: 63_000_000,
            license: null,
            installed: false,
          },
        ],
        problem: null,
      });
    }
    if (call.url === '/api/admin/voices/install') {
      if (call.method === 'POST') {
        install = { ...install, state: 'installing', name: 'en_US-lessac-medium', bytes: 0 };
        return jsonResponse(202, install);
      }
      // Each poll: half of it, then done.
      install =
        install.state === 'installing' && install.bytes === 0
          ? { ...install, bytes: 50, total: 100 }
          : install.state === 'installing'
            ? { ...install, state: 'installed' }
            : install;
      return jsonResponse(200, install);
    }
    if (call.url === '/api/admin/voices/language' && call.method === 'PUT') {
      const { language_code, hidden } = call.body as { language_code: string; hidden: boolean };
      catalogue = {
        ...catalogue,
        languages: catalogue.languages.map((l) =>
          l.language_code === language_code ? { ...l, hidden } : l,
        ),
      };
      return jsonResponse(200, catalogue);
    }
    if (call.url === '/api/admin/voices/voice' && call.method === 'PUT') {
      const { voice_id, hidden } = call.body as { voice_id: string; hidden: boolean };
      catalogue = {
        ...catalogue,
        languages: catalogue.languages.map((l) => ({
          ...l,
          voices: l.voices.map((v) => (v.id === voice_id ? { ...v, hidden } : v)),
        })),
      };
      return jsonResponse(200, catalogue);
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const sent = (url: string) =>
    calls.filter((call) => call.url === url && call.method !== 'GET').map((call) => call.body);
  return { sent };
}

/** A Mantine select's input by its label (the label names its list too). */
function input(label: string): HTMLElement {
  const found = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!found) throw new Error(`no input labelled ${label}`);
  return found;
}

describe('filterVoices', () => {
  it('filters by name, language, engine, gender, type, installed and hidden', () => {
    const ids = (filters: Partial<typeof NO_FILTERS>) =>
      filterVoices(CATALOGUE, { ...NO_FILTERS, ...filters }).map(({ voice }) => voice.id);
    expect(ids({})).toHaveLength(4);
    expect(ids({ query: 'be' })).toEqual(['standard:en-us+f1']);
    expect(ids({ language: 'fr-fr' })).toEqual(['standard:fr-fr']);
    expect(ids({ provider: 'piper' })).toEqual(['neural:amy#0']);
    expect(ids({ gender: 'female', kind: 'standard' })).toEqual(['standard:en-us+f1']);
    expect(ids({ installed: 'yes' })).toEqual(['neural:amy#0']);
    expect(ids({ sort: 'name' })).toEqual([
      'standard:en-us',
      'neural:amy#0',
      'standard:en-us+f1',
      'standard:fr-fr',
    ]);
    expect(ids({ sort: 'gender', language: 'en-us' })).toEqual([
      'standard:en-us+f1',
      'neural:amy#0',
      'standard:en-us',
    ]);
    const hidden = structuredClone(CATALOGUE);
    const french = hidden.languages[1];
    if (french) french.hidden = true;
    expect(
      filterVoices(hidden, { ...NO_FILTERS, hidden: 'hidden' }).map(({ voice }) => voice.id),
    ).toEqual(['standard:fr-fr']);
  });
});

describe('the console’s voices (issue 31 §6)', { timeout: 20_000 }, () => {
  it('hides a language and a voice with the server’s calls, and shows the catalogue as answered', async () => {
    const user = userEvent.setup();
    const { sent } = serve();
    renderAt('/admin/voices', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Voices' }, { timeout: 5000 });
    expect(await screen.findByText('Claude', undefined, { timeout: 5000 })).toBeTruthy();

    await user.click(input('Language'));
    await user.click(
      await screen.findByRole('option', { name: 'French (France) (fr-fr)', hidden: true }),
    );
    const settings = await screen.findByRole('region', { name: /Language: French/ });
    expect(screen.queryByText('Alex')).toBeNull();
    await user.click(within(settings).getByRole('switch', { name: /Offer this language/ }));
    await waitFor(() =>
      expect(sent('/api/admin/voices/language')).toEqual([
        { language_code: 'fr-fr', hidden: true },
      ]),
    );
    expect(await screen.findByText('Language hidden')).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe(
      'French (France) is hidden with all its voices.',
    );

    await user.click(
      screen.getByRole('switch', { name: 'Offer Claude (standard:fr-fr) on the site' }),
    );
    await waitFor(() =>
      expect(sent('/api/admin/voices/voice')).toEqual([
        { voice_id: 'standard:fr-fr', hidden: true },
      ]),
    );
    await screen.findByText('Claude is hidden: it left the site’s voice list and the API.');
  });

  it('lists installed voices with size and licence, and installs one with a progress bar', async () => {
    const user = userEvent.setup();
    const { sent } = serve();
    renderAt('/admin/voices', '/admin/*', <AdminRoute />);
    // The console's words and the catalogue load first (a slow machine may take seconds).
    const installed = await screen.findByRole(
      'region',
      { name: 'Installed voices' },
      { timeout: 5000 },
    );
    expect(within(installed).getByText('60.08 MB')).toBeTruthy();
    expect(within(installed).getByText('MIT')).toBeTruthy();

    await user.click(input('Voice to install'));
    await user.click(
      await screen.findByRole('option', { name: /en_US-lessac-medium/, hidden: true }),
    );
    await user.click(screen.getByRole('button', { name: 'Install' }));
    await waitFor(() =>
      expect(sent('/api/admin/voices/install')).toEqual([{ name: 'en_US-lessac-medium' }]),
    );
    const bar = await screen.findByRole('progressbar', { name: 'Download of en_US-lessac-medium' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'), { timeout: 5000 });
    await screen.findByText('en_US-lessac-medium is installed and in the catalogue.', undefined, {
      timeout: 5000,
    });
  });
});
