import { PRODUCT_NAME } from '@parla/contract';
import { useEffect } from 'react';

export interface PageMeta {
  /** The page's own title; the product name is appended. */
  title: string;
  description: string;
}

function setMetaDescription(content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!element) {
    element = document.createElement('meta');
    element.name = 'description';
    document.head.append(element);
  }
  element.content = content;
}

/** The document title of a page: 'Pricing | Parla'. */
export function documentTitle(title: string): string {
  return title === PRODUCT_NAME ? title : `${title} | ${PRODUCT_NAME}`;
}

/**
 * Sets the document title and meta description of the current page at once. The layout's
 * useSeoMeta then writes the server's metadata (SPEC §7 GET /seo/meta) over them.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  useEffect(() => {
    document.title = documentTitle(title);
    setMetaDescription(description);
  }, [title, description]);
}
