import { Box, useDirection } from '@mantine/core';
import { useEffect, useLayoutEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useSeoMeta } from '../../hooks/use-seo-meta';
import { i18nFor } from '../../lib/i18n';
import { describeLanguage, pageLanguage, routeLanguage } from '../../lib/languages';
import { StartupLoader } from './page-loader';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

function isLocalisedRoute(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'localised' in handle
    ? Boolean((handle as { localised?: boolean }).localised)
    : false;
}

/**
 * The words of the route language for everything below (header, page, footer): the
 * /:language route's loader has loaded them before the page shows.
 */
export function RouteLanguageProvider({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  const { locale } = describeLanguage(pageLanguage(pathname));
  return <I18nextProvider i18n={i18nFor(locale)}>{children}</I18nextProvider>;
}

/**
 * The frame of every page: header, the page, footer, the startup loader and, on the
 * multi-language content pages, the language switcher (in the header). It also gives the
 * document the route language's lang and direction (Arabic reads right to left, and Mantine
 * mirrors with it).
 */
export function AppLayout() {
  return (
    <RouteLanguageProvider>
      <Frame />
    </RouteLanguageProvider>
  );
}

function Frame() {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const { path } = routeLanguage(location.pathname);
  const language = pageLanguage(location.pathname);
  const described = describeLanguage(language);
  const { setDirection } = useDirection();
  const showSwitcher = matches.some((match) => isLocalisedRoute(match.handle));
  // Every page's title, description, Open Graph, Twitter and microdata (SPEC §2, §7).
  useSeoMeta();

  // The served HTML's static shell (apps/web/static-shell.ts) goes as the app draws the same
  // parts in its place, before the browser paints (issue 33 item 9).
  useLayoutEffect(() => document.getElementById('static-shell')?.remove(), []);

  useEffect(() => {
    document.documentElement.lang = described.locale;
    document.documentElement.dir = described.dir;
    setDirection(described.dir);
  }, [described.locale, described.dir, setDirection]);

  return (
    <>
      <StartupLoader />
      <a href="#main-content" className="skip-link">
        {t('layout.skipToContent')}
      </a>
      <SiteHeader
        language={language}
        switcher={showSwitcher ? { path, search: location.search } : undefined}
      />
      <Box component="main" id="main-content" tabIndex={-1} mih="60vh" pb="xl">
        <Outlet />
      </Box>
      <SiteFooter language={language} />
      <ScrollRestoration />
    </>
  );
}
