import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { pageQueryOptions } from '../api/get-page';

/**
 * A content page in the route language. SPEC §4 "Content pages": when it fails to load, go to
 * the page's default route (/terms-of-services for /fr/terms-of-services); on the default
 * route itself the failure is shown instead, rather than reloading forever.
 */
export function useContentPage(page: string, defaultRoute = `/${page}`) {
  const { language, path } = useRouteLanguage();
  const navigate = useNavigate();
  const query = useQuery(pageQueryOptions(language, page));
  const atDefault = language === 'default' && path === defaultRoute;
  useEffect(() => {
    if (query.isError && !atDefault) void navigate(defaultRoute, { replace: true });
  }, [query.isError, atDefault, navigate, defaultRoute]);
  return { ...query, language, showError: query.isError && atDefault };
}
