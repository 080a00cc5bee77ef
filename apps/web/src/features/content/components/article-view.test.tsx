import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import BlogArticlePage from '../../../app/routes/blog-article';
import { loadLanguage } from '../../../lib/i18n';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';

afterEach(() => {
  cleanup();
  restoreFetch();
});

const ARTICLE = {
  title: "Qu'est-ce que le SSML ?",
  link: '/fr/blog/article/qu-est-ce-que-ssml',
  preview: 'Le balisage de la parole.',
  tags: ['SSML', 'Les bases'],
  language: { name: 'French', code: 'fr' },
  translations: [
    { name: 'English', code: 'default', link: '/blog/article/what-is-ssml', switched: false },
    { name: 'French', code: 'fr', link: '/fr/blog/article/qu-est-ce-que-ssml', switched: true },
  ],
  published_time: '2026-09-07T09:00:00.000Z',
  modified_time: '2026-09-07T09:00:00.000Z',
  words_count: 412,
  time_to_read: 3,
  content: '<h2>Un premier document</h2><p>Le SSML est du XML.</p>',
  is_on_main_page: true,
  cover: null,
};

describe('article page (SPEC §2 "Blog")', () => {
  beforeAll(() => loadLanguage('fr'));

  it('shows the title link, date, author, counts, body, tags, footer links and translations', async () => {
    interceptFetch((call) =>
      call.url === '/api/content/blog/article/fr/qu-est-ce-que-ssml'
        ? jsonResponse(200, ARTICLE)
        : jsonResponse(404, { message: 'none' }),
    );
    renderAt(
      '/fr/blog/article/qu-est-ce-que-ssml',
      '/:language/blog/article/:article',
      <BlogArticlePage />,
    );
    const title = await screen.findByRole('heading', { level: 1, name: ARTICLE.title });
    expect(title.querySelector('a')?.getAttribute('href')).toBe(ARTICLE.link);
    expect(screen.getByText('7 septembre 2026').getAttribute('datetime')).toBe(
      ARTICLE.published_time,
    );
    expect(screen.getByRole('link', { name: 'Parla Ltd' }).getAttribute('href')).toBe(
      '/fr/contact',
    );
    expect(screen.getByText('412 mots')).toBeTruthy();
    expect(screen.getByText('3 min de lecture')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Un premier document' })).toBeTruthy();
    const tags = screen.getByRole('list', { name: 'Étiquettes' });
    expect(tags.querySelector('a')?.getAttribute('href')).toBe('/fr/blog?tag=SSML');
    expect(
      screen.getByRole('link', { name: 'Connectez-vous et convertissez' }).getAttribute('href'),
    ).toBe('/auth/login');
    expect(screen.getByRole('link', { name: 'Voir les offres' }).getAttribute('href')).toBe(
      '/fr/pricing',
    );
    expect(screen.getByRole('link', { name: 'Plus sur Les bases' }).getAttribute('href')).toBe(
      '/fr/blog?tag=Les%20bases',
    );
    const switcher = screen.getByRole('navigation', { name: 'Lire cet article en' });
    expect(switcher.querySelector('[aria-current="true"]')?.textContent).toContain('Français');
    expect(screen.getByRole('link', { name: 'English' }).getAttribute('href')).toBe(
      '/blog/article/what-is-ssml',
    );
  });

  it('goes back to /blog when the article does not load', async () => {
    interceptFetch(() =>
      jsonResponse(404, { message: "There is no article 'gone' in the language 'fr'." }),
    );
    const { router } = renderAt(
      '/fr/blog/article/gone',
      '/:language/blog/article/:article',
      <BlogArticlePage />,
    );
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/blog');
  });
});
