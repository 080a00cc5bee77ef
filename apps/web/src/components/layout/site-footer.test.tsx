import type { Language } from '@parla/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/providers';
import { voicesQueryOptions } from '../../lib/get-voices';
import { SiteFooter } from './site-footer';

const voice = (id: string, engine: 'neural' | 'standard') => ({
  id,
  name: id,
  gender: 'female' as const,
  effects: [],
  engine,
  capabilities: { pitch: true, emphasis: engine === 'standard' },
});

function renderFooter(languages: Language[]) {
  const queryClient = createQueryClient();
  // The catalogue as GET /convertor/voices answered it (the footer reads the same query).
  queryClient.setQueryData(voicesQueryOptions().queryKey, languages);
  const router = createMemoryRouter([{ path: '*', element: <SiteFooter language="default" /> }]);
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

afterEach(cleanup);

describe('the footer (issue 29: honest words)', () => {
  it('claims no natural speech while the catalogue has no natural voice', async () => {
    renderFooter([
      {
        language_name: 'French',
        language_code: 'fr-fr',
        voices: [voice('standard:fr', 'standard')],
      },
    ]);
    const text = await screen.findByText(/turns plain text and SSML into speech/);
    expect(text.textContent).toContain('1 voice in 1 language');
    expect(document.body.textContent).not.toContain('natural');
  });

  it('says natural speech once natural voices are installed', async () => {
    renderFooter([
      {
        language_name: 'French',
        language_code: 'fr-fr',
        voices: [voice('standard:fr', 'standard'), voice('neural:kokoro#2', 'neural')],
      },
    ]);
    expect(await screen.findByText(/into natural speech in your browser: 2 voices/)).toBeTruthy();
  });
});
