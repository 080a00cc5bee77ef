import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { PageLoader } from '../components/layout/page-loader';
import { convertorContentQueryOptions } from '../features/convertor/api/get-page-content';
import { voicesQueryOptions } from '../lib/get-voices';
import { pageLanguage } from '../lib/languages';
import { planInfoQueryOptions } from '../lib/plan-info';
import { requireAuthLoader } from './require-auth';
import {
  convertorRedirectLoader,
  LanguageRoot,
  languageIndexLoader,
  languageLoader,
  languageShouldRevalidate,
  rootRedirectLoader,
} from './routes/language-routes';
import { RouteError } from './routes/route-error';

/** What a route tells the layout through `handle` (read with useMatches). */
export interface RouteHandle {
  /** A content page that exists in every language: the language switcher is shown. */
  localised?: boolean;
}

/**
 * Route-level code splitting: each page is its own chunk, loaded when first visited, and shown
 * once the Mantine components' styles have arrived too (out of the render-blocking CSS).
 */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => {
    const [module] = await Promise.all([load(), import('./mantine-styles')]);
    return { Component: module.default };
  };
}

const localised: RouteHandle = { localised: true };

/**
 * The convertor asks for its voices, its texts and the plans' limits as its route starts,
 * beside the loading of its code and words, rather than after its first render (issue 18
 * item 5: the first visit's Largest Contentful Paint). The page reads the same queries.
 */
function convertorLoader(queryClient: QueryClient) {
  return ({ request }: LoaderFunctionArgs): null => {
    const language = pageLanguage(new URL(request.url).pathname);
    void queryClient.prefetchQuery(voicesQueryOptions());
    void queryClient.prefetchQuery(convertorContentQueryOptions(language));
    void queryClient.prefetchQuery(planInfoQueryOptions());
    return null;
  };
}

/**
 * The content routes (SPEC §2): they exist as they are and under a /{language} prefix.
 * Any other /convertor/... path goes back to /convertor.
 */
function contentRoutes(convertor: RouteObject): RouteObject[] {
  return [
    { path: 'convertor', ...convertor },
    { path: 'convertor/text', ...convertor },
    { path: 'convertor/ssml', ...convertor },
    { path: 'convertor/*', loader: convertorRedirectLoader },
    { path: 'pricing', lazy: page(() => import('./routes/pricing')), handle: localised },
    { path: 'contact', lazy: page(() => import('./routes/contact')), handle: localised },
    {
      path: 'privacy-policy',
      lazy: page(() => import('./routes/privacy-policy')),
      handle: localised,
    },
    {
      path: 'terms-of-services',
      lazy: page(() => import('./routes/terms-of-services')),
      handle: localised,
    },
    { path: 'blog', lazy: page(() => import('./routes/blog')), handle: localised },
    {
      path: 'blog/article/:article',
      lazy: page(() => import('./routes/blog-article')),
      handle: localised,
    },
  ];
}

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const convertor: RouteObject = {
    lazy: page(() => import('./routes/convertor')),
    loader: convertorLoader(queryClient),
    handle: localised,
  };
  return [
    {
      Component: AppLayout,
      // The page's words, whatever its path (a language prefix or the visitor's preference).
      loader: languageLoader,
      shouldRevalidate: languageShouldRevalidate,
      ErrorBoundary: RouteError,
      HydrateFallback: PageLoader,
      children: [
        { index: true, loader: rootRedirectLoader },
        ...contentRoutes(convertor),
        { path: 'sitemap', lazy: page(() => import('./routes/sitemap')) },
        { path: 'sitemap.html', lazy: page(() => import('./routes/sitemap')) },
        { path: 'auth/login', lazy: page(() => import('./routes/auth/login')) },
        { path: 'auth/register', lazy: page(() => import('./routes/auth/register')) },
        {
          path: 'auth/forgotten-password',
          lazy: page(() => import('./routes/auth/forgotten-password')),
        },
        {
          path: 'auth/reset-password/:key',
          lazy: page(() => import('./routes/auth/reset-password')),
        },
        {
          path: 'auth/validate-email-address/:key',
          lazy: page(() => import('./routes/auth/validate-email-address')),
        },
        {
          // SPEC §2 "Access guard": signed-in users only.
          loader: requireAuthLoader,
          children: [
            { path: 'account', lazy: page(() => import('./routes/account/account')) },
            { path: 'account/plan', lazy: page(() => import('./routes/account/plan')) },
            { path: 'account/checkout', lazy: page(() => import('./routes/account/checkout')) },
            { path: 'file-history', lazy: page(() => import('./routes/file-history')) },
            { path: 'documents', lazy: page(() => import('./routes/documents')) },
            { path: 'pronunciations', lazy: page(() => import('./routes/pronunciations')) },
            {
              // The operator's console (issue 31): one chunk with its own words, ADMIN only.
              path: 'admin/*',
              lazy: page(() => import('./routes/admin/layout')),
            },
          ],
        },
        {
          // /{language}/...: LanguageRoot shows the convertor when the segment is not a
          // language of the country table (that path is then "any other path").
          path: ':language',
          Component: LanguageRoot,
          children: [
            { index: true, loader: languageIndexLoader, handle: localised },
            ...contentRoutes(convertor),
            { path: '*', ...convertor },
          ],
        },
        // SPEC §2: any other path shows the convertor page.
        { path: '*', ...convertor },
      ],
    },
  ];
}

export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
