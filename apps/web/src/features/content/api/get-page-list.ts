import { type PageList, PageListSchema } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface PageListOptions {
  /** Answer every language that has pages, not only this one. */
  translatedLanguages: boolean;
  /** Add the app's own screens (editors, login, …) to the pages. */
  currentTemplates: boolean;
}

/** GET /content/pages/{language}?provides_translated_languages&provides_current_templates. */
export function getPageList(language: string, options: PageListOptions): Promise<PageList> {
  return api.get(`/content/pages/${encodeURIComponent(language)}`, {
    query: {
      provides_translated_languages: options.translatedLanguages,
      provides_current_templates: options.currentTemplates,
    },
    schema: PageListSchema,
  });
}

export function pageListQueryOptions(language: string, options: PageListOptions) {
  return queryOptions({
    queryKey: ['content', 'page-list', language, options],
    queryFn: () => getPageList(language, options),
    retry: false,
  });
}
