import { Box, useDirection } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useSeoMeta } from '../../hooks/use-seo-meta';
import { describeLanguage, routeLanguage } from '../../lib/languages';
import { LanguageSwitcher } from './language-switcher';
import { StartupLoader } from './page-loader';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

function isLocalisedRoute(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'localised' in handle
    ? Boolean((handle as { localised?: boolean }).localised)
    : false;
}

/**
 * The frame of every page: header, the page, footer, the startup loader and, on the
 * multi-language content pages, the language switcher. It also gives the document the route
 * language's lang and direction (Arabic reads right to left, and Mantine mirrors with it).
 */
export function AppLayout() {
  const location = useLocation();
  const matches = useMatches();
  const { language, path } = routeLanguage(location.pathname);
  const described = describeLanguage(language);
  const { setDirection } = useDirection();
  const showSwitcher = matches.some((match) => isLocalisedRoute(match.handle));
  // Every page's title, description, Open Graph, Twitter and microdata (SPEC §2, §7).
  useSeoMeta();

  useEffect(() => {
    document.documentElement.lang = described.locale;
    document.documentElement.dir = described.dir;
    setDirection(described.dir);
  }, [described.locale, described.dir, setDirection]);

  return (
    <>
      <StartupLoader />
      <a href="#main-content" className="skip-link">
        Skip to content
      </a>
      <SiteHeader language={language} />
      <Box component="main" id="main-content" tabIndex={-1} mih="60vh" pb={96}>
        <Outlet />
      </Box>
      <SiteFooter language={language} />
      {showSwitcher && (
        <LanguageSwitcher language={language} path={path} search={location.search} />
      )}
      <ScrollRestoration />
    </>
  );
}
