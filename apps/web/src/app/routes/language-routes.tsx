import { lazy, Suspense } from 'react';
import {
  type LoaderFunctionArgs,
  Outlet,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useLocation,
} from 'react-router';
import { loadLanguage } from '../../lib/i18n';
import {
  DEFAULT_LANGUAGE,
  localizePath,
  pageLanguage,
  rememberPageLanguage,
  routeLanguage,
} from '../../lib/languages';

const ConvertorPage = lazy(() => import('./convertor'));

/** The route language of a request URL ('default' when the first segment is not a country). */
function languageOf(request: Request): string {
  return routeLanguage(new URL(request.url).pathname).language;
}

/** The empty path goes to /convertor (SPEC §2), keeping the query (?id= of a saved file). */
export function rootRedirectLoader({ request }: LoaderFunctionArgs): Response {
  return redirect(`/convertor${new URL(request.url).search}`);
}

/** Any other /convertor/... path goes back to /convertor, in the same language. */
export function convertorRedirectLoader({ request }: LoaderFunctionArgs): Response {
  const url = new URL(request.url);
  return redirect(`${localizePath('/convertor', languageOf(request))}${url.search}`);
}

/** The convertor's paths (the home, /convertor and its tabs), in any language. */
function isConvertorPath(pathname: string): boolean {
  const { path } = routeLanguage(pathname);
  return path === '/' || path === '/convertor' || path.startsWith('/convertor/');
}

/**
 * The words of the page's language are loaded before it shows (issue 18 item 1): the path's
 * language, or on a page without one (sign-in, account…) the visitor's preferred one, which
 * reading a content page sets. The convertor loads only its own words (issue 33 item 9: its
 * first load); every other page the rest too.
 */
export async function languageLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const { pathname } = new URL(request.url);
  rememberPageLanguage(pathname);
  await loadLanguage(pageLanguage(pathname), { pages: !isConvertorPath(pathname) });
  return null;
}

/** Every navigation to another path may change the page's language. */
export function languageShouldRevalidate({
  currentUrl,
  nextUrl,
}: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname;
}

/** /{language} alone is that language's home: /{language}/convertor. */
export function languageIndexLoader({ request }: LoaderFunctionArgs): Response | null {
  const language = languageOf(request);
  return language === DEFAULT_LANGUAGE ? null : redirect(localizePath('/convertor', language));
}

/**
 * The /:language segment. When it is not a language of the country table the whole path is
 * "any other path" and shows the convertor page (SPEC §2).
 */
export function LanguageRoot() {
  const { pathname } = useLocation();
  if (routeLanguage(pathname).language === DEFAULT_LANGUAGE) {
    return (
      <Suspense fallback={null}>
        <ConvertorPage />
      </Suspense>
    );
  }
  return <Outlet />;
}
