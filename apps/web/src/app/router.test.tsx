import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteCookie, setCookie } from '../lib/cookies';
import { isLocalisedPath, UNLOCALISED_ROUTE_ROOTS } from '../lib/languages';
import { interceptFetch, jsonResponse, restoreFetch } from '../test/render';
import { tokenExpiringIn } from '../test/session';
import { AppProviders, createQueryClient } from './providers';
import { createRoutes } from './router';

/** The cookie's own expiry; the token's exp claim is what the tests vary. */
const IN_AN_HOUR = new Date(Date.now() + 3_600_000);

async function settle(path: string, queryClient = createQueryClient()) {
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  // Lazy routes are transformed on first import: on a busy machine that takes seconds.
  await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 10_000 });
  return router;
}

async function finalPath(path: string): Promise<string> {
  const { state } = await settle(path);
  return `${state.location.pathname}${state.location.search}`;
}

async function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = await settle(path, queryClient);
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

// No server runs beside these tests: every call the pages make is answered at the network
// boundary (a test that needs real answers installs its own), never sent to a port.
beforeEach(() => {
  interceptFetch(() => jsonResponse(503, { message: 'No server in the router tests.' }));
});

afterEach(() => {
  cleanup();
  restoreFetch();
  deleteCookie('token');
});

describe('redirects (SPEC §2 route table)', () => {
  it.each([
    ['/', '/convertor'],
    ['/?id=42', '/convertor?id=42'],
    ['/convertor/whatever', '/convertor'],
    ['/convertor/a/b', '/convertor'],
    ['/fr/convertor/whatever', '/fr/convertor'],
    ['/fr', '/fr/convertor'],
    ['/fr/pricing', '/fr/pricing'],
    ['/convertor/ssml', '/convertor/ssml'],
    ['/sitemap.html', '/sitemap.html'],
  ])('%s ends at %s', async (from, to) => {
    expect(await finalPath(from)).toBe(to);
  });
});

describe("the convertor's data (issue 18 item 5: asked for as its route starts)", () => {
  it.each([
    ['/convertor', 'default'],
    ['/fr/convertor', 'fr'],
  ])(
    '%s asks for the voices, its texts and the plans before the page renders',
    async (path, language) => {
      // The voices answered (an empty catalogue): a query in error is asked again by each
      // component that mounts after the error (react-query's retryOnMount), which on a loaded
      // machine, still importing the route, is not a second request of the route's.
      const { calls } = interceptFetch((call) =>
        new URL(call.url, 'http://parla.test').pathname === '/api/convertor/voices'
          ? jsonResponse(200, [])
          : jsonResponse(503, { message: 'No server in the router tests.' }),
      );
      // No retry: a retry of the refused call (a second after it, while a loaded machine is
      // still importing the route) is not a second request of the route's.
      const queryClient = createQueryClient();
      queryClient.setDefaultOptions({
        queries: { ...queryClient.getDefaultOptions().queries, retry: false },
      });
      await settle(path, queryClient);
      const asked = calls.map((call) => new URL(call.url, 'http://parla.test').pathname);
      expect(asked).toEqual(
        expect.arrayContaining([
          '/api/convertor/voices',
          `/api/content/pages/${language}/convertor`,
          '/api/plan/info',
        ]),
      );
      // Once: the page reads the same queries, and the footer's counts read the voices' query.
      expect(asked.filter((pathname) => pathname === '/api/convertor/voices')).toHaveLength(1);
    },
  );

  it('asks for nothing of the convertor on another page', async () => {
    const { calls } = interceptFetch(() =>
      jsonResponse(503, { message: 'No server in the router tests.' }),
    );
    await settle('/pricing');
    // The voices are not the convertor's alone: the footer's and the pricing cards' counts of
    // voices and languages read them on every page, whenever those render.
    expect(
      calls
        .map((call) => call.url)
        .filter((url) => url.includes('/convertor') && !url.includes('/api/convertor/voices')),
    ).toEqual([]);
  });
});

describe('access guard (SPEC §2)', () => {
  it.each(['/account', '/account/plan', '/account/checkout', '/file-history'])(
    '%s without a token cookie goes to /auth/login',
    async (path) => {
      expect(await finalPath(path)).toBe('/auth/login');
    },
  );

  it('an expired token cookie goes to /auth/login', async () => {
    setCookie('token', tokenExpiringIn(-60), IN_AN_HOUR);
    expect(await finalPath('/account')).toBe('/auth/login');
  });

  it('a valid token cookie opens the guarded page', async () => {
    setCookie('token', tokenExpiringIn(), IN_AN_HOUR);
    expect(await finalPath('/account/plan')).toBe('/account/plan');
  });
});

/** Every path the router names, from the top, without the /:language subtree and splats. */
function namedPaths(routes: RouteObject[], prefix = ''): string[] {
  return routes.flatMap((route) => {
    if (route.path === ':language' || route.path === '*') return [];
    const path = route.path ? `${prefix}/${route.path.replace(/\/\*$/, '')}` : prefix;
    return [...(route.path ? [path] : []), ...namedPaths(route.children ?? [], path)];
  });
}

describe('pages', () => {
  it('knows each page without a language prefix, so any other path is the default language (SPEC §2)', () => {
    const paths = namedPaths(createRoutes(createQueryClient()));
    expect(paths.length).toBeGreaterThan(10);
    const unknown = paths.filter(
      (path) =>
        !isLocalisedPath(path) &&
        !UNLOCALISED_ROUTE_ROOTS.some((root) => path === root || path.startsWith(`${root}/`)),
    );
    expect(unknown).toEqual([]);
  });

  it('an unknown path shows the convertor page', async () => {
    await renderAt('/no/such/page');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Turn your text into speech' },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });

  it('an unknown first segment before a content path shows the convertor page', async () => {
    await renderAt('/xyz/pricing');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Turn your text into speech' },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });

  it('a language-prefixed page keeps its language, speaks it and sets its title', async () => {
    await renderAt('/fr/pricing');
    expect(await screen.findByRole('heading', { level: 1, name: 'Offres et tarifs' })).toBeTruthy();
    expect(document.title).toBe('Tarifs | Parla');
    expect(screen.getAllByRole('link', { name: 'Tarifs' })[0]?.getAttribute('href')).toBe(
      '/fr/pricing',
    );
    expect(screen.getByRole('link', { name: 'Aller au contenu' })).toBeTruthy();
  });

  it('Arabic pages read right to left', async () => {
    // The contact page's text comes from the content service (issue 7).
    interceptFetch((call) =>
      call.url.startsWith('/api/content/pages/ar/contact')
        ? jsonResponse(200, {
            translations: [],
            language: { name: 'Arabic', code: 'ar' },
            link: '/ar/contact',
            sections: [
              {
                id: 'header',
                visibility: 'visible',
                tags: [
                  { type: 'title', content: 'اتصل بنا' },
                  { type: 'text', content: 'راسل فريق Parla.' },
                ],
              },
            ],
          })
        : jsonResponse(404, { message: 'not here' }),
    );
    await renderAt('/ar/contact');
    await screen.findByRole('heading', { level: 1, name: 'اتصل بنا' });
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
  });
});
