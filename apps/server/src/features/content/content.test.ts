import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type BlogArticle,
  BlogArticleSchema,
  BlogListSchema,
  PageContentSchema,
  PageListSchema,
} from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { ContentError, loadContentTree } from '../../services/content/loader.js';
import { renderMarkdown, sanitizeArticleHtml } from '../../services/content/markdown.js';
import { createContentRepository, createContentStore } from '../../services/content/repository.js';
import { seedContent } from '../../services/content/seed-repository.js';
import { CONTENT_MESSAGES } from './routes.js';

const CONTENT_DIR = path.resolve(import.meta.dirname, '../../../../../content');
const app = await createTestApp();
const get = (url: string) => app.inject({ method: 'GET', url });

/** Every way hostile HTML tries to run something (issue 7 §3). */
const HOSTILE = [
  '<p>Hello <script>alert(1)</script>world</p>',
  '<img src="https://example.com/x.png" onerror="alert(2)">',
  '<a href="javascript:alert(3)">click</a>',
  '<a href="JaVaScRiPt:alert(4)">again</a>',
  '<a href="  javascript:alert(5)">spaced</a>',
  '<p onclick="alert(6)" style="color:red">styled</p>',
  '<iframe src="https://example.com"></iframe>',
  '<svg><script>alert(7)</script></svg>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==">data</a>',
  '<form action="https://evil.example"><input name="x"></form>',
  '<img src="javascript:alert(9)">',
  '<object data="x.swf"></object><embed src="x.swf">',
].join('\n');

function expectHarmless(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/\son\w+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
  expect(html).not.toMatch(/data:text\/html/i);
  expect(html).not.toMatch(/<(iframe|form|input|object|embed|svg)\b/i);
  expect(html).not.toMatch(/style=/i);
  expect(html).not.toContain('alert(');
}

describe(`content calls (${TEST_DATABASE_KIND})`, () => {
  it('lists the pages of a language, with every language and the app screens when asked', async () => {
    const response = await get(
      '/api/content/pages/default?provides_translated_languages=true&provides_current_templates=true',
    );
    expect(response.statusCode).toBe(200);
    const list = PageListSchema.parse(response.json());
    expect(list.languages.map((language) => language.code)).toEqual([
      'default',
      'fr',
      'de',
      'es',
      'ar',
    ]);
    expect(list.languages[0]).toEqual({ name: 'English', code: 'default' });
    const links = list.pages.map((page) => page.link);
    for (const link of [
      '/convertor',
      '/pricing',
      '/contact',
      '/privacy-policy',
      '/terms-of-services',
      '/blog',
    ]) {
      expect(links).toContain(link);
    }
    expect(list.pages.find((page) => page.link === '/privacy-policy')?.category).toBe('Main');
    expect(links).toContain('/convertor/text');
    expect(links).toContain('/auth/login');
  });

  it('answers only the asked language and no app screens by default', async () => {
    const response = await get('/api/content/pages/fr');
    const list = PageListSchema.parse(response.json());
    expect(list.languages).toEqual([{ name: 'French', code: 'fr' }]);
    expect(list.pages.map((page) => page.link).sort()).toEqual(
      [
        '/fr/blog',
        '/fr/contact',
        '/fr/convertor',
        '/fr/pricing',
        '/fr/privacy-policy',
        '/fr/terms-of-services',
      ].sort(),
    );
    const withScreens = PageListSchema.parse(
      (await get('/api/content/pages/fr?provides_current_templates=true')).json(),
    );
    const editor = withScreens.pages.find((page) => page.link === '/fr/convertor/text');
    expect(editor?.title).toBe('Éditeur de texte');
    // The auth screens exist without a language prefix only (SPEC §2).
    expect(withScreens.pages.map((page) => page.link)).toContain('/auth/login');
  });

  it('serves every main page in all five languages, linked to each other', async () => {
    for (const page of [
      'privacy-policy',
      'terms-of-services',
      'contact',
      'pricing',
      'convertor',
      'blog',
    ]) {
      for (const code of ['default', 'fr', 'de', 'es', 'ar']) {
        const response = await get(`/api/content/pages/${code}/${page}`);
        expect(response.statusCode, `${code}/${page}`).toBe(200);
        const content = PageContentSchema.parse(response.json());
        expect(content.language.code).toBe(code);
        expect(content.translations.map((translation) => translation.code)).toEqual([
          'default',
          'fr',
          'de',
          'es',
          'ar',
        ]);
        const header = content.sections.find((section) => section.id === 'header');
        expect(header?.tags[0]?.type).toBe('title');
        expect(header?.tags[0]?.content).toBeTruthy();
      }
    }
  });

  it('renders a page body as sanitised HTML, with its translations', async () => {
    const content = PageContentSchema.parse(
      (await get('/api/content/pages/de/privacy-policy')).json(),
    );
    expect(content.link).toBe('/de/privacy-policy');
    expect(content.translations).toContainEqual({
      name: 'Arabic',
      code: 'ar',
      link: '/ar/privacy-policy',
    });
    const header = content.sections.find((section) => section.id === 'header');
    expect(header?.tags[0]?.content).toBe('Datenschutzerklärung');
    const body = content.sections.find((section) => section.id === 'body')?.tags[0];
    expect(body?.type).toBe('html');
    expect(body?.content).toContain('<h2>Wer wir sind</h2>');
    expect(body?.content).toContain('<table>');
    // External links open apart, without a handle on the site.
    expect(body?.content).toContain(
      '<a href="https://ico.org.uk" rel="noopener noreferrer" target="_blank">',
    );
  });

  it('gives the convertor its intro, tiles, steps and questions', async () => {
    const content = PageContentSchema.parse((await get('/api/content/pages/es/convertor')).json());
    const ids = content.sections.map((section) => section.id);
    expect(ids).toEqual(['header', 'intro', 'info-tiles', 'how-it-works', 'faq', 'blog-teasers']);
    const tiles = content.sections.find((section) => section.id === 'info-tiles');
    expect(tiles?.tags.every((tag) => tag.type === 'tile' && tag.label && tag.content)).toBe(true);
    const faq = content.sections.find((section) => section.id === 'faq');
    expect(faq?.tags.filter((tag) => tag.type === 'question').length).toBeGreaterThanOrEqual(5);
  });

  it('fills the catalogue counts into pages, from the voice catalogue, written as each language writes numbers', async () => {
    const summary = (await get('/api/convertor/voices/summary')).json() as {
      voices: number;
      languages: number;
    };
    expect(summary.voices).toBeGreaterThan(100);
    for (const [language, locale] of [
      ['default', 'en'],
      ['fr', 'fr'],
      ['de', 'de'],
      ['ar', 'ar'],
    ] as const) {
      const page = (await get(`/api/content/pages/${language}/pricing`)).body;
      expect(page).not.toContain('{{');
      expect(page).toContain(new Intl.NumberFormat(locale).format(summary.voices));
      expect(page).toContain(String(summary.languages));
    }
    // 1,048 in English is 1.048 in German (espeak-ng alone has over a thousand voices).
    const german = (await get('/api/content/pages/de/convertor')).body;
    expect(summary.voices).toBeGreaterThanOrEqual(1000);
    expect(german).toContain(new Intl.NumberFormat('de').format(summary.voices));
    expect(german).not.toContain(summary.voices.toLocaleString('en-US'));
    const convertor = PageContentSchema.parse(
      (await get('/api/content/pages/default/convertor')).json(),
    );
    const tiles = convertor.sections.find((section) => section.id === 'info-tiles');
    expect(tiles?.tags.map((tag) => tag.label)).toContain(
      `${summary.voices.toLocaleString('en-US')} voices`,
    );
    const list = (await get('/api/content/pages/default')).body;
    expect(list).not.toContain('{{');
  });

  it('makes no claim of natural speech while no natural voice is installed (issue 29)', async () => {
    for (const [language, claim, plain] of [
      ['default', 'natural speech', 'Turn your text into speech'],
      ['fr', 'voix naturelle', 'Transformez votre texte en voix'],
      ['de', 'natürliche', 'Verwandeln Sie Ihren Text in Sprache'],
      ['es', 'voz natural', 'Convierta su texto en voz'],
      ['ar', 'كلام طبيعي', 'حوّل نصك إلى كلام'],
    ] as const) {
      const convertor = PageContentSchema.parse(
        (await get(`/api/content/pages/${language}/convertor`)).json(),
      );
      const intro = convertor.sections.find((section) => section.id === 'intro');
      expect(intro?.tags.find((tag) => tag.type === 'title')?.content).toBe(plain);
      const body = JSON.stringify(convertor);
      expect(body).not.toContain(claim);
      expect(body).not.toContain('{{');
      const pricing = (await get(`/api/content/pages/${language}/pricing`)).body;
      expect(pricing).not.toMatch(/neural|neuronal|عصبي/i);
    }
  });

  it('lists the articles of a language newest first, with their translations', async () => {
    const list = BlogListSchema.parse(
      (await get('/api/content/blog/default?provides_translated_languages=true')).json(),
    );
    expect(list.languages.map((language) => language.code)).toEqual([
      'default',
      'fr',
      'de',
      'es',
      'ar',
    ]);
    expect(list.articles.length).toBeGreaterThanOrEqual(6);
    const times = list.articles.map((article) => article.published_time);
    expect(times).toEqual([...times].sort().reverse());
    expect(list.articles.every((article) => article.tags.length > 0 && article.cover)).toBe(true);
    expect(list.articles.some((article) => article.is_on_main_page)).toBe(true);
    expect(list.articles[0]).not.toHaveProperty('content');
    const ssml = list.articles.find((article) => article.link === '/blog/article/what-is-ssml');
    expect(ssml?.translations.map((translation) => translation.code)).toEqual([
      'default',
      'fr',
      'de',
      'es',
      'ar',
    ]);

    const arabic = BlogListSchema.parse((await get('/api/content/blog/ar')).json());
    expect(arabic.languages).toEqual([{ name: 'Arabic', code: 'ar' }]);
    expect(arabic.articles.map((article) => article.link).sort()).toEqual([
      '/ar/blog/article/ma-hiya-ssml',
      '/ar/blog/article/waqafat-tabiiya-bi-break',
    ]);
  });

  it('serves an article with its body, counts and translations, its own marked as switched', async () => {
    const response = await get('/api/content/blog/article/fr/qu-est-ce-que-ssml');
    expect(response.statusCode).toBe(200);
    const article: BlogArticle = BlogArticleSchema.parse(response.json());
    expect(article.title).toBe("Qu'est-ce que le SSML ? Une introduction pratique");
    expect(article.language).toEqual({ name: 'French', code: 'fr' });
    expect(article.link).toBe('/fr/blog/article/qu-est-ce-que-ssml');
    expect(article.content).toContain('<h2>Un premier document</h2>');
    expect(article.content).toContain('&lt;speak&gt;');
    expect(article.words_count).toBeGreaterThan(300);
    expect(article.time_to_read).toBe(Math.ceil(article.words_count / 200));
    expect(article.published_time).toBe('2026-09-07T09:00:00.000Z');
    expect(article.modified_time).toBe('2026-10-12T10:30:00.000Z');
    expect(article.translations).toEqual([
      { name: 'English', code: 'default', link: '/blog/article/what-is-ssml', switched: false },
      { name: 'French', code: 'fr', link: '/fr/blog/article/qu-est-ce-que-ssml', switched: true },
      { name: 'German', code: 'de', link: '/de/blog/article/was-ist-ssml', switched: false },
      { name: 'Spanish', code: 'es', link: '/es/blog/article/que-es-ssml', switched: false },
      { name: 'Arabic', code: 'ar', link: '/ar/blog/article/ma-hiya-ssml', switched: false },
    ]);
    expect(article.cover?.src).toBe('/api/content/images/what-is-ssml.svg');
  });

  it('answers 404 with a message for an unknown language, page or article', async () => {
    const cases: Array<[string, string]> = [
      ['/api/content/pages/it', CONTENT_MESSAGES.unknownLanguage('it')],
      ['/api/content/pages/nowhere/contact', CONTENT_MESSAGES.unknownLanguage('nowhere')],
      ['/api/content/pages/fr/no-such-page', CONTENT_MESSAGES.unknownPage('no-such-page', 'fr')],
      ['/api/content/blog/it', CONTENT_MESSAGES.unknownLanguage('it')],
      [
        '/api/content/blog/article/default/no-such-article',
        CONTENT_MESSAGES.unknownArticle('no-such-article', 'default'),
      ],
      // An article exists only under its own language's slug.
      [
        '/api/content/blog/article/fr/what-is-ssml',
        CONTENT_MESSAGES.unknownArticle('what-is-ssml', 'fr'),
      ],
      ['/api/content/images/..%2F..%2Fpackage.json', CONTENT_MESSAGES.unknownImage],
      ['/api/content/images/missing.svg', CONTENT_MESSAGES.unknownImage],
    ];
    for (const [url, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ message });
    }
  });

  it('serves the cover pictures shipped with the content, unable to run anything', async () => {
    const response = await get('/api/content/images/what-is-ssml.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).toContain('<svg');
  });

  it('seeds idempotently: the same files change nothing', async () => {
    const again = await seedContent(app.db, CONTENT_DIR);
    expect(again.seeded).toBe(false);
    expect(again.languages).toBe(5);
    expect(again.articles).toBeGreaterThanOrEqual(14);
    const rows = await app.db.selectFrom('content_articles').select('slug').execute();
    expect(rows.length).toBe(again.articles);
  });
});

describe(`sanitising hostile HTML (${TEST_DATABASE_KIND})`, () => {
  const slug = `hostile-${process.pid}-${Date.now()}`;
  afterAll(async () => {
    await app.db.deleteFrom('content_articles').where('slug', '=', slug).execute();
  });

  it('strips scripts, event handlers and javascript: links from Markdown', () => {
    const html = renderMarkdown(`# Title\n\nSome **text**.\n\n${HOSTILE}\n\n[ok](https://w3.org)`);
    expectHarmless(html);
    expect(html).toContain('<strong>text</strong>');
    expect(html).toContain('href="https://w3.org"');
    expect(html).toContain('<img src="https://example.com/x.png" loading="lazy" />');
  });

  it('sanitises an article again on the way out, whatever the database holds', async () => {
    await app.db
      .insertInto('content_articles')
      .values({
        language: 'default',
        slug,
        translation_key: slug,
        title: 'Hostile',
        preview: 'An article somebody slipped into the database.',
        tags: JSON.stringify(['Test']),
        cover_image: null,
        cover_alt: null,
        published_time: '2000-01-01T00:00:00.000Z',
        modified_time: '2000-01-01T00:00:00.000Z',
        words_count: 10,
        time_to_read: 1,
        content_html: HOSTILE,
        is_on_main_page: 0,
      })
      .execute();
    // A store of its own: the app's reads its memory again only when content is published.
    const store = createContentStore(app.db);
    const found = await createContentRepository(store).article('default', slug);
    await store.close();
    const article = BlogArticleSchema.parse(found);
    expectHarmless(article.content);
    expect(article.content).toContain('<p>Hello world</p>');
    expect(sanitizeArticleHtml(article.content)).toBe(article.content);
  });
});

describe('the content tree loader', () => {
  function tree(files: Record<string, string>) {
    const root = mkdtempSync(path.join(tmpdir(), 'parla-content-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
    return root;
  }
  const LANGUAGES =
    '- { code: default, name: English, native_name: English, locale: en }\n- { code: fr, name: French, native_name: Français, locale: fr }\n';

  it('links translations through their translation key and counts words', () => {
    const root = tree({
      'languages.yaml': LANGUAGES,
      'blog/default/hello.md':
        '---\ntitle: Hello\npreview: A greeting.\ntags: [Test]\npublished: 2026-01-02\n---\nOne two three four five.\n\n<script>alert(1)</script>',
      'blog/fr/bonjour.md':
        '---\ntitle: Bonjour\npreview: Une salutation.\ntags: [Test]\npublished: 2026-01-02\ntranslation: hello\n---\nUn deux trois.',
    });
    const loaded = loadContentTree(root);
    expect(loaded.articles.map((article) => [article.slug, article.translation_key])).toEqual([
      ['hello', 'hello'],
      ['bonjour', 'hello'],
    ]);
    expect(loaded.articles[0]?.words_count).toBe(5);
    expect(loaded.articles[0]?.content_html).not.toContain('script');
    expect(loaded.articles[0]?.published_time).toBe('2026-01-02T00:00:00.000Z');
    // The same files give the same hash: the seed is skipped.
    expect(loadContentTree(root).hash).toBe(loaded.hash);
  });

  it('names the file and the field of a mistake', () => {
    const root = tree({
      'languages.yaml': LANGUAGES,
      'blog/default/broken.md': '---\ntitle: Broken\ntags: []\npublished: someday\n---\nText.',
    });
    expect(() => loadContentTree(root)).toThrow(ContentError);
    expect(() => loadContentTree(root)).toThrow(/broken\.md is not valid content:[\s\S]*preview/);
  });

  it('refuses a language that languages.yaml does not offer', () => {
    const root = tree({
      'languages.yaml': LANGUAGES,
      'pages/de/contact.md': '---\ntitle: Kontakt\ndescription: x\ncategory: Main\n---\n',
    });
    expect(() => loadContentTree(root)).toThrow(/'de' is not a language of languages.yaml/);
  });
});
