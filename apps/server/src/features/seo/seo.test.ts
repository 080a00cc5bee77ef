import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SeoMetaSchema } from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../../../test/test-app.js';

// A built index.html as Vite writes it: the server fills in the route's metadata.
const webRoot = mkdtempSync(path.join(tmpdir(), 'parla-web-'));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));
writeFileSync(
  path.join(webRoot, 'index.html'),
  '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <meta name="description" content="Parla" />\n    <title>Parla</title>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
);

const PUBLIC_URL = 'https://parla.test';
const app = await createTestApp({ config: testConfig({ PUBLIC_URL }), webRoot });
const meta = async (query: string) => {
  const response = await app.inject({ method: 'GET', url: `/api/seo/meta?${query}` });
  return { status: response.statusCode, body: response.json() as unknown };
};

describe(`GET /api/seo/meta (${TEST_DATABASE_KIND})`, () => {
  it("answers a content page's metadata in its language", async () => {
    const { status, body } = await meta('type=pages&language=fr&path=/privacy-policy');
    expect(status).toBe(200);
    const seo = SeoMetaSchema.parse(body);
    expect(seo.main.title).toBe('Politique de confidentialité | Parla');
    expect(seo.main.description).toMatch(/^Comment Parla Ltd collecte/);
    expect(seo.open_graph).toMatchObject({ type: 'website', title: seo.main.title });
    expect(seo.open_graph.image).toBe(`${PUBLIC_URL}/api/content/images/parla-share.svg`);
    expect(seo.twitter.title).toBe(seo.main.title);
    expect(seo.microdata.description).toBe(seo.main.description);
  });

  it("answers an article's title, preview and cover for type blog", async () => {
    const { status, body } = await meta('type=blog&language=ar&path=/blog/article/ma-hiya-ssml');
    expect(status).toBe(200);
    const seo = SeoMetaSchema.parse(body);
    expect(seo.main.title).toBe('ما هي لغة SSML؟ مقدمة عملية | Parla');
    expect(seo.open_graph.type).toBe('article');
    expect(seo.open_graph.image).toBe(`${PUBLIC_URL}/api/content/images/what-is-ssml.svg`);
    expect(seo.twitter.alt).toBe('أقواس زاوية حول موجة صوتية: ترميز الكلام');
  });

  it('reports the blog list (whatever its tag filter) as the blog page', async () => {
    const seo = SeoMetaSchema.parse((await meta('type=pages&language=de&path=/blog')).body);
    expect(seo.main.title).toBe('Blog | Parla');
    expect(seo.main.description).toMatch(/^Praktische Anleitungen/);
  });

  it("gives the app's own screens and unknown paths sensible metadata", async () => {
    const login = SeoMetaSchema.parse(
      (await meta('type=pages&language=default&path=/auth/login')).body,
    );
    expect(login.main.title).toBe('Login | Parla');
    const sitemap = SeoMetaSchema.parse(
      (await meta('type=pages&language=default&path=/sitemap.html')).body,
    );
    expect(sitemap.main.title).toBe('Sitemap | Parla');
    // Any other path shows the convertor (SPEC §2), and so does its metadata.
    const other = SeoMetaSchema.parse(
      (await meta('type=pages&language=es&path=/nothing/here')).body,
    );
    expect(other.main.title).toBe('Texto a voz | Parla');
  });

  it('answers 404 with a message for an unknown article or a language without content', async () => {
    const article = await meta('type=blog&language=default&path=/blog/article/no-such-article');
    expect(article.status).toBe(404);
    expect(article.body).toEqual({
      message: 'There is no article at /blog/article/no-such-article in this language.',
    });
    const language = await meta('type=pages&language=it&path=/pricing');
    expect(language.status).toBe(404);
    expect(language.body).toEqual({ message: "There is no content in the language 'it'." });
    const bad = await meta('type=video&language=default&path=/pricing');
    expect(bad.status).toBe(400);
  });
});

describe(`metadata in the served HTML (${TEST_DATABASE_KIND})`, () => {
  const page = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    return response.body;
  };

  it('writes title, description, Open Graph, Twitter, microdata and alternates for a crawler', async () => {
    const html = await page('/fr/terms-of-services');
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain('<title>Conditions d&#39;utilisation | Parla</title>');
    expect(html).toMatch(/<meta name="description" content="Les conditions qui s&#39;appliquent/);
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain(
      '<meta property="og:title" content="Conditions d&#39;utilisation | Parla"',
    );
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/fr/terms-of-services"`);
    expect(html).toContain('<meta name="twitter:title"');
    expect(html).toContain('<meta itemprop="name"');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/fr/terms-of-services"`);
    expect(html).toContain(
      `<link rel="alternate" hreflang="ar" href="${PUBLIC_URL}/ar/terms-of-services"`,
    );
    expect(html).toContain(
      `<link rel="alternate" hreflang="en" href="${PUBLIC_URL}/terms-of-services"`,
    );
  });

  it("fills the catalogue's counts into the convertor's description, in the page's numbers", async () => {
    // The content writes them as {{voices}} and {{languages}} (content/README.md).
    const voices = await app.inject({ method: 'GET', url: '/api/convertor/voices' });
    const languages = (voices.json() as unknown[]).length;
    for (const [url, language] of [
      ['/convertor', 'default'],
      ['/fr/convertor', 'fr'],
    ] as const) {
      const html = await page(url);
      const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
      expect(description, url).not.toContain('{{');
      expect(description, url).toContain(String(languages));
      expect(html, url).not.toMatch(/content="[^"]*\{\{/);
      const { body } = await meta(`type=pages&language=${language}&path=/convertor`);
      const seo = SeoMetaSchema.parse(body);
      expect(JSON.stringify(seo), url).not.toContain('{{');
      expect(seo.main.description).toBe(description.replace(/&#39;/g, "'"));
    }
  });

  it('serves Arabic pages right to left and articles with their own title', async () => {
    const html = await page('/ar/blog/article/waqafat-tabiiya-bi-break');
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<title>وقفات تبدو طبيعية: وسم break في SSML | Parla</title>');
    expect(html).toContain('<meta property="og:type" content="article"');
    expect(html).toContain(
      `<link rel="alternate" hreflang="en" href="${PUBLIC_URL}/blog/article/ssml-breaks-and-pauses"`,
    );
  });

  it('reports a tag-filtered blog list as the blog', async () => {
    const html = await page('/es/blog?tag=SSML');
    expect(html).toContain('<title>Blog | Parla</title>');
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/es/blog"`);
  });

  it('falls back to the convertor for an unknown article instead of failing', async () => {
    const html = await page('/blog/article/no-such-article');
    expect(html).toContain('<title>Text to speech convertor | Parla</title>');
  });
});

describe(`sitemap.xml and robots.txt (${TEST_DATABASE_KIND})`, () => {
  it('lists every page and article with its hreflang alternates', async () => {
    const response = await app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/xml');
    const xml = response.body;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    for (const path of [
      '/pricing',
      '/fr/contact',
      '/de/privacy-policy',
      '/es/blog',
      '/ar/convertor',
    ]) {
      expect(xml).toContain(`<loc>${PUBLIC_URL}${path}</loc>`);
    }
    expect(xml).toContain(`<loc>${PUBLIC_URL}/blog/article/say-as-dates-and-numbers</loc>`);
    expect(xml).toContain(
      `<xhtml:link rel="alternate" hreflang="de" href="${PUBLIC_URL}/de/blog/article/was-ist-ssml"/>`,
    );
    expect(xml).toContain(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${PUBLIC_URL}/blog/article/what-is-ssml"/>`,
    );
  });

  it('robots.txt points at the sitemap and keeps private screens out', async () => {
    const response = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(response.body).toContain('Disallow: /account');
    expect(response.body).toContain('Disallow: /api/');
  });
});
