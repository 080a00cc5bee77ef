import { useLocation } from 'react-router';
import { localizePath, routeLanguage } from '../lib/languages';

/** The route language of the current page, and a helper for links that keep it. */
export function useRouteLanguage() {
  const { pathname } = useLocation();
  const { language, path } = routeLanguage(pathname);
  return { language, path, to: (target: string) => localizePath(target, language) };
}
