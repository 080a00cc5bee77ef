import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ADMIN_CONTENT_MESSAGES,
  AdminAuditListSchema,
  type AdminContentDocument,
  AdminContentDocumentSchema,
  AdminContentListSchema,
  AdminContentPreviewSchema,
  PageContentSchema,
} from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../../test/redis.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { createLocalStorage } from '../../lib/storage/local.js';
import { setRole } from '../../services/admin/administrators.js';
import { createContentImages } from '../../services/content/images.js';
import { DEFAULT_CONTENT_DIR } from '../../services/content/loader.js';
import { exportContent } from '../../services/content/seed-repository.js';

/*
 * The console's Content (issue 31 §2, decision 054), on a database of this file's own (its
 * edits would change every other file's pages), seeded from a copy of content/ that a test
 * changes as a new release would.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-admin-content-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const contentDir = path.join(dataDir, 'content');
cpSync(DEFAULT_CONTENT_DIR, contentDir, { recursive: true });
const ownUrl = await ownDatabaseUrl('content');
const env = { DATABASE_URL: ownUrl || `sqlite:${path.join(dataDir, 'parla.sqlite')}` };
const start = (more: Record<string, string> = {}) =>
  createTestApp({
    config: testConfig({ ...env, ...more }),
    contentDir,
    contentPublicationEveryMs: 200,
  });
const app = await start();
await app.ready();

type App = typeof app;
const signedIn = await signedInUser(app);
expect((await setRole(app.db, { id: signedIn.user.id }, 'ADMIN', null)).ok).toBe(true);

const admin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, on: App = app) =>
  on.inject({
    method,
    url,
    headers: { authorization: signedIn.authorization },
    ...(payload && { payload }),
  });

const PRICING = '/api/admin/content/pages/fr/pricing';

async function documentOf(url: string): Promise<AdminContentDocument> {
  const response = await admin('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return AdminContentDocumentSchema.parse(response.json());
}

async function visitorPage(language: string, slug: string, on: App = app) {
  const response = await on.inject({
    method: 'GET',
    url: `/api/content/pages/${language}/${slug}`,
  });
  return {
    status: response.statusCode,
    page: response.statusCode === 200 ? PageContentSchema.parse(response.json()) : undefined,
  };
}

const headline = async (on: App = app) =>
  (await visitorPage('fr', 'pricing', on)).page?.sections.find((s) => s.id === 'header')?.tags[0]
    ?.content;

async function latestAudit() {
  const response = await admin('GET', '/api/admin/audit?per_page=1');
  return AdminAuditListSchema.parse(response.json()).items[0];
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** Every file under `dir`, as relative path → bytes. */
function filesOf(dir: string, under = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) {
      for (const [name, bytes] of filesOf(dir, relative)) files.set(name, bytes);
    } else {
      files.set(relative, readFileSync(path.join(dir, relative)));
    }
  }
  return files;
}

describe(`the console's content (${TEST_DATABASE_KIND})`, () => {
  it('exports exactly the seed files (content export round trip)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'parla-export-'));
    try {
      const storage = createLocalStorage(path.join(dataDir, 'export-storage'));
      await exportContent(app.db, out, createContentImages(storage, contentDir));
      const seed = filesOf(contentDir);
      seed.delete('README.md');
      const exported = filesOf(out);
      expect([...exported.keys()].sort()).toEqual([...seed.keys()].sort());
      for (const [name, bytes] of seed) expect(exported.get(name)?.equals(bytes), name).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('lists every page and article of every language with its state', async () => {
    const response = await admin('GET', '/api/admin/content');
    expect(response.statusCode).toBe(200);
    const list = AdminContentListSchema.parse(response.json());
    expect(list.languages.map((language) => language.code)).toEqual([
      'default',
      'fr',
      'de',
      'es',
      'ar',
    ]);
    const pricing = list.items.filter((item) => item.kind === 'pages' && item.slug === 'pricing');
    expect(pricing.map((item) => item.language).sort()).toEqual([
      'ar',
      'de',
      'default',
      'es',
      'fr',
    ]);
    expect(pricing.every((item) => item.state === 'published' && !item.changed)).toBe(true);
    const ssml = list.items.filter((item) => item.group === 'what-is-ssml');
    expect(ssml.length).toBe(5);
  });

  it('keeps a draft from visitors until it is published, then shows it with the sitemap and the SEO answers', async () => {
    const before = await documentOf(PRICING);
    expect(before.draft.front_matter.title).toBe('Tarifs');
    const saved = await admin('PUT', PRICING, {
      front_matter: { ...before.draft.front_matter, title: 'Nos tarifs' },
      body: 'Un **nouveau** paragraphe.\n',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const draft = AdminContentDocumentSchema.parse(saved.json());
    expect(draft.item).toMatchObject({ state: 'published', changed: true, title: 'Nos tarifs' });
    expect(await headline()).toBe('Tarifs');
    expect(await latestAudit()).toMatchObject({
      action: 'content.save',
      target_type: 'content',
      target_id: 'pages/fr/pricing',
      actor_email: signedIn.user.email,
    });

    const published = await admin('POST', `${PRICING}/publish`, {});
    expect(published.statusCode, published.body).toBe(200);
    expect(AdminContentDocumentSchema.parse(published.json()).item).toMatchObject({
      state: 'published',
      changed: false,
    });
    expect(await headline()).toBe('Nos tarifs');
    const { page } = await visitorPage('fr', 'pricing');
    expect(page?.sections.find((s) => s.id === 'body')?.tags[0]?.content).toBe(
      '<p>Un <strong>nouveau</strong> paragraphe.</p>\n',
    );
    const meta = await app.inject({
      method: 'GET',
      url: '/api/seo/meta?type=pages&language=fr&path=/pricing',
    });
    expect(meta.json().main.title).toBe('Nos tarifs | Parla');
    const audit = await latestAudit();
    expect(audit?.action).toBe('content.publish');
    expect(JSON.stringify(audit?.after)).toContain('title: Nos tarifs');

    // A new page in French: invisible as a draft, in the sitemap once published.
    const faq = '/api/admin/content/pages/fr/aide';
    const created = await admin('PUT', faq, {
      front_matter: { title: 'Aide', description: 'Les questions fréquentes.', category: 'Main' },
      body: '',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(AdminContentDocumentSchema.parse(created.json()).item.state).toBe('draft');
    expect((await visitorPage('fr', 'aide')).status).toBe(404);
    const sitemap = async () => (await app.inject({ method: 'GET', url: '/sitemap.xml' })).body;
    expect(await sitemap()).not.toContain('/fr/aide');
    expect((await admin('POST', `${faq}/publish`, { at: null })).statusCode).toBe(200);
    expect((await visitorPage('fr', 'aide')).status).toBe(200);
    expect(await sitemap()).toContain('/fr/aide');
  });

  it('restores an older revision as the draft', async () => {
    const current = await documentOf(PRICING);
    const seeded = current.revisions.find((revision) => revision.action === 'seed');
    expect(seeded?.source.front_matter.title).toBe('Tarifs');
    const restored = await admin('POST', `${PRICING}/revisions/${seeded?.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    const document = AdminContentDocumentSchema.parse(restored.json());
    expect(document.draft).toEqual(seeded?.source);
    expect(document.revisions[0]?.action).toBe('restore');
    // Still a draft: visitors see the published title until it is published again.
    expect(await headline()).toBe('Nos tarifs');
    expect((await latestAudit())?.action).toBe('content.restore');
  });

  it('publishes a scheduled draft at its time, not before', async () => {
    const at = new Date(Date.now() + 1500);
    const scheduled = await admin('POST', `${PRICING}/publish`, { at: at.toISOString() });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(AdminContentDocumentSchema.parse(scheduled.json()).item).toMatchObject({
      state: 'scheduled',
      publish_at: at.toISOString(),
    });
    expect(await headline()).toBe('Nos tarifs');
    await until(async () => (await headline()) === 'Tarifs', 10_000);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect((await documentOf(PRICING)).item).toMatchObject({
      state: 'published',
      publish_at: null,
    });
  });

  it('answers every mistake with a 4xx naming the field', async () => {
    const cases: [string, string, object | undefined, number, string, string | undefined][] = [
      [
        'PUT',
        PRICING,
        { front_matter: { description: 'x', category: 'Main' }, body: '' },
        400,
        'front_matter.title',
        undefined,
      ],
      [
        'PUT',
        '/api/admin/content/articles/fr/nouvel-article',
        { front_matter: { title: 'T', preview: 'P', tags: [], published: '2026-01-01' }, body: '' },
        400,
        'front_matter.tags',
        undefined,
      ],
      [
        'PUT',
        '/api/admin/content/articles/fr/nouvel-article',
        { front_matter: { title: 'T', preview: 'P', tags: ['a'], published: 'hier' }, body: '' },
        400,
        'front_matter.published',
        undefined,
      ],
      [
        'PUT',
        '/api/admin/content/articles/fr/nouvel-article',
        {
          front_matter: {
            title: 'T',
            preview: 'P',
            tags: ['a'],
            published: '2026-01-01',
            cover: { image: 'none.svg', alt: '' },
          },
          body: '',
        },
        400,
        'front_matter.cover.image',
        ADMIN_CONTENT_MESSAGES.unknownCover('none.svg'),
      ],
      [
        'PUT',
        '/api/admin/content/articles/fr/nouvel-article',
        {
          front_matter: {
            title: 'T',
            preview: 'P',
            tags: ['a'],
            published: '2026-01-01',
            translation: 'what-is-ssml',
          },
          body: '',
        },
        409,
        'front_matter.translation',
        ADMIN_CONTENT_MESSAGES.translationTaken('what-is-ssml', 'fr'),
      ],
      [
        'PUT',
        '/api/admin/content/pages/xx/pricing',
        { front_matter: { title: 'T', description: 'D', category: 'Main' }, body: '' },
        404,
        'language',
        ADMIN_CONTENT_MESSAGES.unknownLanguage('xx'),
      ],
      [
        'PUT',
        '/api/admin/content/pages/fr/Bad_Slug',
        { front_matter: {}, body: '' },
        400,
        'slug',
        undefined,
      ],
      [
        'PUT',
        '/api/admin/content/posts/fr/pricing',
        { front_matter: {}, body: '' },
        400,
        'kind',
        undefined,
      ],
      [
        'POST',
        `${PRICING}/publish`,
        { at: '2000-01-01T00:00:00Z' },
        400,
        'at',
        ADMIN_CONTENT_MESSAGES.publishInPast,
      ],
      [
        'POST',
        '/api/admin/content/pages/fr/nothing/publish',
        {},
        404,
        'slug',
        ADMIN_CONTENT_MESSAGES.unknownDocument('pages', 'fr', 'nothing'),
      ],
      [
        'POST',
        `${PRICING}/revisions/nope/restore`,
        undefined,
        404,
        'id',
        ADMIN_CONTENT_MESSAGES.unknownRevision('nope'),
      ],
      [
        'GET',
        '/api/admin/content/articles/fr/nothing',
        undefined,
        404,
        'slug',
        ADMIN_CONTENT_MESSAGES.unknownDocument('articles', 'fr', 'nothing'),
      ],
    ];
    for (const [method, url, payload, status, field, message] of cases) {
      const response = await admin(method as 'PUT', url, payload);
      expect(response.statusCode, `${method} ${url} ${response.body}`).toBe(status);
      const body = response.json() as { message: string; errors?: { path: string }[] };
      expect(
        body.errors?.map((error) => error.path),
        url,
      ).toContain(field);
      if (message) expect(body.message).toBe(message);
    }
  });

  it('uploads a picture to the storage, serves it, and lets a cover use it', async () => {
    // The smallest PNG: one transparent pixel.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const name = `pixel-${Date.now()}.png`;
    const uploaded = await admin('POST', '/api/admin/content/images', {
      name,
      data: png.toString('base64'),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().images).toContainEqual({ name, src: `/api/content/images/${name}` });
    const served = await app.inject({ method: 'GET', url: `/api/content/images/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const audit = await latestAudit();
    expect(audit).toMatchObject({
      action: 'content.image',
      target_id: `images/${name}`,
      after: { name, bytes: png.length },
    });

    const again = await admin('POST', '/api/admin/content/images', {
      name,
      data: png.toString('base64'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ADMIN_CONTENT_MESSAGES.imageTaken(name));
    const lying = await admin('POST', '/api/admin/content/images', {
      name: 'x.png',
      data: Buffer.from('<svg></svg>').toString('base64'),
    });
    expect(lying.statusCode).toBe(400);
    expect(lying.json().message).toBe(ADMIN_CONTENT_MESSAGES.imageNotOfType('x.png'));

    const article = await admin('PUT', '/api/admin/content/articles/fr/une-image', {
      front_matter: {
        title: 'Une image',
        preview: 'Un pixel.',
        tags: ['Test'],
        published: '2026-11-01',
        cover: { image: name, alt: 'Un pixel' },
      },
      body: 'Texte.',
    });
    expect(article.statusCode, article.body).toBe(200);
    expect(
      (await admin('POST', '/api/admin/content/articles/fr/une-image/publish', {})).statusCode,
    ).toBe(200);
    const shown = await app.inject({
      method: 'GET',
      url: '/api/content/blog/article/fr/une-image',
    });
    expect(shown.json().cover).toEqual({ src: `/api/content/images/${name}`, alt: 'Un pixel' });
  });

  it('renders a preview with the site’s Markdown and sanitiser', async () => {
    const response = await admin('POST', '/api/admin/content/preview', {
      body: '## Titre\n\n<script>alert(1)</script>[lien](javascript:alert(2))',
    });
    expect(response.statusCode).toBe(200);
    const { html } = response.json() as { html: string };
    expect(html).toContain('<h2>Titre</h2>');
    expect(html).not.toMatch(/<script|href="javascript/);

    // A page's sections as the site shows them: visible by default, the counts written in.
    const page = await admin('POST', '/api/admin/content/preview', {
      body: '',
      language: 'fr',
      sections: [
        {
          id: 'intro',
          tags: [{ type: 'text', content: '{{voices}} voix dans {{languages}} langues' }],
        },
        { id: 'faq', visibility: 'hidden', tags: [] },
      ],
    });
    expect(page.statusCode, page.body).toBe(200);
    const shown = AdminContentPreviewSchema.parse(page.json());
    expect(shown.html).toBe('');
    expect(shown.sections.map((section) => [section.id, section.visibility])).toEqual([
      ['intro', 'visible'],
      ['faq', 'hidden'],
    ]);
    expect(shown.sections[0]?.tags[0]?.content).toMatch(
      /^[\d\s\u202f\u00a0]+ voix dans \d+ langues$/,
    );
    // A section without its id is a 400 naming it.
    const bad = await admin('POST', '/api/admin/content/preview', {
      body: '',
      sections: [{ tags: [] }],
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('sections');
  });

  it('keeps what was edited when a new release changes the files, and takes the rest', async () => {
    // The release: pricing (edited in the console) and contact (not) change, a page is new.
    const edit = (file: string, change: (text: string) => string) =>
      writeFileSync(
        path.join(contentDir, file),
        change(readFileSync(path.join(contentDir, file), 'utf8')),
      );
    edit('pages/fr/pricing.md', (text) => text.replace('title: Tarifs', 'title: Tarifs 2027'));
    edit('pages/fr/contact.md', (text) => text.replace(/^title: .*$/m, 'title: Écrivez-nous'));
    writeFileSync(
      path.join(contentDir, 'pages/fr/presse.md'),
      '---\ntitle: Presse\ndescription: Le kit presse.\ncategory: Main\n---\n',
    );
    const current = await documentOf(PRICING);
    const front_matter = { ...current.draft.front_matter, title: 'Tarifs de la console' };
    expect((await admin('PUT', PRICING, { front_matter, body: '' })).statusCode).toBe(200);
    expect((await admin('POST', `${PRICING}/publish`, {})).statusCode).toBe(200);
    const restarted = await start();
    await restarted.ready();
    try {
      expect(await headline(restarted)).toBe('Tarifs de la console');
      expect(
        (await visitorPage('fr', 'contact', restarted)).page?.sections[0]?.tags[0]?.content,
      ).toBe('Écrivez-nous');
      expect((await visitorPage('fr', 'presse', restarted)).status).toBe(200);
      // The page made in the console stays too.
      expect((await visitorPage('fr', 'aide', restarted)).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});

const redis = await testRedis('the content publication message');
describe.skipIf(!redis.reachable)('with Redis', () => {
  it('shows a publication on another server at once', async () => {
    const shared = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redis.prefix };
    const first = await start(shared);
    const second = await start(shared);
    await Promise.all([first.ready(), second.ready()]);
    try {
      const operator = await signedInUser(first);
      expect((await setRole(first.db, { id: operator.user.id }, 'ADMIN', null)).ok).toBe(true);
      const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
        first.inject({
          method,
          url,
          headers: { authorization: operator.authorization },
          ...(payload && { payload }),
        });
      const current = AdminContentDocumentSchema.parse((await call('GET', PRICING)).json());
      const title = `Tarifs ${Date.now()}`;
      await headline(second); // read into the second server's memory
      expect(
        (
          await call('PUT', PRICING, {
            ...current.draft,
            front_matter: { ...current.draft.front_matter, title },
          })
        ).statusCode,
      ).toBe(200);
      expect((await call('POST', `${PRICING}/publish`, {})).statusCode).toBe(200);
      // Well within the store's minute: the message, not the expiry, made it visible.
      const waited = await until(async () => (await headline(second)) === title, 5000);
      expect(waited).toBeLessThan(5000);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});
