import { useLocation } from 'react-router';
import { localizePath, pageLanguage, routeLanguage } from '../lib/languages';

/**
 * The language of the current page (its path's, or on a page without one the visitor's
 * preferred language), the path without its prefix, and a helper for links that keep the
 * language: from a French sign-in page, `to('/convertor')` is /fr/convertor.
 */
export function useRouteLanguage() {
  const { pathname } = useLocation();
  const { path } = routeLanguage(pathname);
  const language = pageLanguage(pathname);
  return { language, path, to: (target: string) => localizePath(target, language) };
}
