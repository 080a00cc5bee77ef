import type { Profile } from '@parla/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { savedFileOf } from '../../../test/saved';
import { signedInForEachTest } from '../../../test/session';
import { SaveAudioButton } from './save-audio-button';

const profile = (type: Profile['plan']['type']) =>
  profileOf({ plan: { type, period: type === 'FREE' ? 'none' : 'month' } });

const saved = (id: string) =>
  savedFileOf({
    _id: id,
    size: 4,
    length: 1,
    language: 'English',
    updated_date: '2026-11-23T10:00:00.000Z',
    snippet: '',
  });
const settings = {
  engine: 'standard' as const,
  language_code: 'en-us',
  voice_id: 'standard:en-us',
  effect: null,
  output_format: 'mp3' as const,
  sample_rate: 24000 as const,
  master_speed: 10,
  master_volume: 0,
  master_pitch: 0,
};

function serve(plan: Profile['plan']['type']) {
  return interceptFetch((call) => {
    if (call.url === '/api/account/profile') return jsonResponse(200, profile(plan));
    if (call.url === '/api/convertor/audio/abc.mp3') {
      return new Response(new Blob([new Uint8Array([0xff, 0xfb, 0x90, 0x00])]), { status: 200 });
    }
    if (call.url.startsWith('/api/file/media')) {
      return jsonResponse(200, saved(call.method === 'PUT' ? 'f-old' : 'f-new'));
    }
    if (call.url.startsWith('/api/file/ssml/')) {
      return jsonResponse(200, saved(call.url.split('/').at(-1) ?? ''));
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
}

signedInForEachTest();

const button = (
  <SaveAudioButton
    audioUrl="/api/convertor/audio/abc.mp3"
    settings={settings}
    ssml="<speak>Hi</speak>"
  />
);

describe('Save (SPEC §4 Convert: audio, then SSML; overwrite with an id)', () => {
  it('uploads the audio then the SSML, and overwrites that file on the next save', async () => {
    const { calls, spy } = serve('BASIC');
    renderAt('/convertor', '/convertor', button);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText(en.save.saved);
    const files = calls.filter((call) => call.url.startsWith('/api/file'));
    expect(files.map((call) => `${call.method} ${call.url.split('?')[0]}`)).toEqual([
      'POST /api/file/media',
      'POST /api/file/ssml/f-new',
    ]);
    const query = new URLSearchParams(files[0]?.url.split('?')[1]);
    expect(Object.fromEntries(query)).toMatchObject({
      engine: 'standard',
      language: 'en-us',
      voice: 'standard:en-us',
      audio_format: 'mp3',
      audio_sample_rate: '24000',
      master_speed: '10',
    });
    const bodies = spy.mock.calls
      .filter(([input]) => String(input).startsWith('/api/file'))
      .map(([, init]) => init?.body as FormData);
    expect(bodies[0]?.get('media')).toBeInstanceOf(Blob);
    const ssml = bodies[1]?.get('ssml');
    expect(ssml).toBeInstanceOf(Blob);
    expect(await (ssml as Blob).text()).toBe('<speak>Hi</speak>');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'PUT')?.url).toMatch(
      /^\/api\/file\/media\/f-new\?/,
    );
  });

  it('overwrites the file of ?id= with PUT', async () => {
    const { calls } = serve('PREMIUM');
    renderAt('/convertor?id=f-old', '/convertor', button);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText(en.save.saved);
    const files = calls.filter((call) => call.url.startsWith('/api/file'));
    expect(files.map((call) => `${call.method} ${call.url.split('?')[0]}`)).toEqual([
      'PUT /api/file/media/f-old',
      'POST /api/file/ssml/f-old',
    ]);
  });

  it('is not offered on the FREE plan', async () => {
    const { calls } = serve('FREE');
    renderAt('/convertor', '/convertor', button);
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/account/profile')).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
