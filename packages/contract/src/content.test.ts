import { describe, expect, it } from 'vitest';
import {
  ArticleParamsSchema,
  BlogArticleSchema,
  BlogListSchema,
  PageContentSchema,
  PageListQuerySchema,
  PageListSchema,
  PageParamsSchema,
  sitemapCategory,
} from './content.js';

const article = {
  title: 'Hello',
  link: '/blog/article/hello',
  preview: 'A first article',
  tags: ['news'],
  language: { name: 'English', code: 'default' },
  translations: [{ name: 'French', code: 'fr', link: '/fr/blog/article/hello', switched: false }],
  published_time: '2026-11-01T10:00:00Z',
  modified_time: '2026-11-02T10:00:00Z',
  words_count: 420,
  time_to_read: 2,
  content: '<p>Hello</p>',
  is_on_main_page: true,
};

describe('content schemas', () => {
  it('parses an article and a blog list (without bodies)', () => {
    expect(BlogArticleSchema.parse(article)).toEqual(article);
    const list = BlogListSchema.parse({
      languages: [{ name: 'French', code: 'fr' }],
      articles: [article],
    });
    expect(list.articles[0]).not.toHaveProperty('content');
    expect(BlogArticleSchema.safeParse({ ...article, words_count: 1.5 }).success).toBe(false);
  });

  it('parses page content with its sections and tags', () => {
    const page = {
      translations: [{ name: 'French', code: 'fr', link: '/fr/contact' }],
      language: { name: 'English', code: 'default' },
      link: '/contact',
      sections: [
        {
          id: 'intro',
          visibility: 'visible',
          tags: [
            { type: 'h1', content: 'Contact us' },
            { type: 'img', link: '/a.png', alt: 'A' },
          ],
        },
      ],
    };
    expect(PageContentSchema.parse(page).sections[0]?.tags).toHaveLength(2);
    expect(
      PageContentSchema.safeParse({
        ...page,
        sections: [{ id: 'x', visibility: 'collapsed', tags: [] }],
      }).success,
    ).toBe(false);
  });

  it('parses the page list and names the Main category Company', () => {
    const list = PageListSchema.parse({
      languages: [],
      pages: [{ category: 'Main', title: 'Pricing', link: '/pricing' }],
    });
    expect(sitemapCategory(list.pages[0]?.category ?? '')).toBe('Company');
    expect(sitemapCategory('Services')).toBe('Services');
  });

  it('validates params and query', () => {
    expect(PageParamsSchema.parse({ language: 'FR', page: 'privacy-policy' })).toEqual({
      language: 'fr',
      page: 'privacy-policy',
    });
    expect(PageParamsSchema.safeParse({ language: 'default', page: '../etc' }).success).toBe(false);
    expect(ArticleParamsSchema.safeParse({ language: 'zz', article: 'hello' }).success).toBe(false);
    expect(PageListQuerySchema.parse({ provides_translated_languages: 'true' })).toEqual({
      provides_translated_languages: true,
      provides_current_templates: false,
    });
  });
});
