import type {
  AdminContentDocument,
  AdminContentItem,
  AdminContentList,
  AdminContentPreviewInput,
} from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin/layout';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, type RecordedCall, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import { imageNameOf } from './content-editor';
import { revisionDiff, siteAddress, translationRows } from './content-model';

signedInForEachTest();

const item = (
  language: string,
  slug: string,
  more: Partial<AdminContentItem> = {},
): AdminContentItem => ({
  kind: 'pages',
  language,
  slug,
  group: slug,
  title: language === 'fr' ? 'Tarifs' : 'Pricing',
  state: 'published',
  changed: false,
  publish_at: null,
  published_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...more,
});

const LIST: AdminContentList = {
  languages: [
    { code: 'default', name: 'English', direction: 'ltr' },
    { code: 'fr', name: 'French', direction: 'ltr' },
    { code: 'de', name: 'German', direction: 'ltr' },
  ],
  items: [
    item('default', 'pricing'),
    item('fr', 'pricing', { changed: true }),
    item('default', 'contact', { title: 'Contact' }),
    item('default', 'what-is-ssml', { kind: 'articles', title: 'What is SSML?' }),
    item('fr', 'qu-est-ce-que-ssml', {
      kind: 'articles',
      group: 'what-is-ssml',
      title: 'Qu’est-ce que SSML ?',
    }),
  ],
};

const source = (title: string, body: string) => ({
  front_matter: {
    title,
    description: 'Des offres simples.',
    category: 'Main',
    order: 20,
    sections: [{ id: 'features', tags: [{ type: 'title', content: 'Inclus dans chaque offre' }] }],
  },
  body,
});

const DOCUMENT: AdminContentDocument = {
  item: item('fr', 'pricing'),
  draft: source('Tarifs', 'Un paragraphe.\n'),
  published: source('Tarifs', 'Un paragraphe.\n'),
  revisions: [
    {
      id: 'r1',
      action: 'seed',
      actor_email: null,
      date: '2026-11-01T10:00:00.000Z',
      source: source('Prix', 'Un paragraphe.\n'),
    },
  ],
};

describe('the content model of the console', () => {
  it('puts the translations of each page side by side, a missing language undefined', () => {
    const pages = translationRows(LIST, 'pages');
    expect(pages.map((row) => row.group)).toEqual(['contact', 'pricing']);
    expect(pages[1]?.cells.fr?.slug).toBe('pricing');
    expect(pages[1]?.cells.de).toBeUndefined();
    const articles = translationRows(LIST, 'articles');
    expect(articles).toHaveLength(1);
    expect(articles[0]?.title).toBe('What is SSML?');
    expect(articles[0]?.cells.fr?.slug).toBe('qu-est-ce-que-ssml');
  });

  it('diffs a revision against the draft line by line', () => {
    const lines = revisionDiff(source('Prix', 'A\nB\n'), source('Tarifs', 'A\nC\n'));
    expect(lines.filter((line) => line.kind === 'removed').map((line) => line.text)).toEqual([
      '  "title": "Prix",',
      'B',
    ]);
    expect(lines.filter((line) => line.kind === 'added').map((line) => line.text)).toEqual([
      '  "title": "Tarifs",',
      'C',
    ]);
  });

  it('names an uploaded picture as the storage accepts it', () => {
    expect(imageNameOf('Ma Photo été.PNG')).toBe('ma-photo-ete.png');
    expect(imageNameOf('???.svg')).toBe('image.svg');
  });

  it('gives each document its address on the site', () => {
    expect(siteAddress('pages', 'default', 'pricing')).toBe('/pricing');
    expect(siteAddress('pages', 'fr', 'pricing')).toBe('/fr/pricing');
    expect(siteAddress('articles', 'de', 'was-ist-ssml')).toBe('/de/blog/article/was-ist-ssml');
  });
});

/** The console's API for the Content section; a PUT answers 400 naming the title when it is empty. */
function serve() {
  const calls: RecordedCall[] = [];
  let draft = DOCUMENT.draft;
  interceptFetch((call) => {
    calls.push(call);
    if (call.url === '/api/account/profile')
      return jsonResponse(200, profileOf({ user: { role: 'ADMIN' } }));
    if (call.url === '/api/admin/content') return jsonResponse(200, LIST);
    if (call.url === '/api/admin/content/preview') {
      const { body, sections = [] } = call.body as AdminContentPreviewInput;
      return jsonResponse(200, {
        html: `<p>${body.replace(/\*\*(.+)\*\*/, '<strong>$1</strong>').trim()}</p>`,
        sections: sections.map((section) => ({ visibility: 'visible', ...section })),
      });
    }
    if (call.url === '/api/admin/content/pages/fr/pricing') {
      if (call.method === 'PUT') {
        const sent = call.body as typeof draft;
        if (!sent.front_matter.title) {
          const message = 'front_matter.title: is required';
          return jsonResponse(400, { message, errors: [{ path: 'front_matter.title', message }] });
        }
        draft = sent;
      }
      return jsonResponse(200, {
        ...DOCUMENT,
        draft,
        item: { ...DOCUMENT.item, changed: draft !== DOCUMENT.draft },
      });
    }
    if (call.url.startsWith('/api/admin/content/pages/de/'))
      return jsonResponse(404, { message: 'There is no page.' });
    if (call.url === '/api/admin/content/pages/default/pricing')
      return jsonResponse(200, { ...DOCUMENT, draft: source('Pricing', 'A paragraph.\n') });
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  return calls;
}

describe('the Content section (issue 31 §2)', { timeout: 30_000 }, () => {
  it('lists the pages in every language and marks the translations that are missing', async () => {
    serve();
    renderAt('/admin/content', '/admin/*', <AdminRoute />);
    await screen.findByRole('heading', { level: 1, name: 'Content' });
    const row = (await screen.findByRole('rowheader', { name: /Pricing/ })).closest('tr');
    if (!row) throw new Error('no row for the pricing page');
    expect(within(row).getByRole('link', { name: /^Pricing, French:/ }).textContent).toContain(
      'Unpublished changes',
    );
    const missing = within(row).getByRole('link', { name: 'Pricing, German: Missing' });
    expect(missing.getAttribute('href')).toBe('/admin/content/pages/de/pricing');
  });

  it('edits the front matter and the Markdown with a live preview, names the field at fault, and saves the draft', async () => {
    const user = userEvent.setup();
    const calls = serve();
    renderAt('/admin/content/pages/fr/pricing', '/admin/*', <AdminRoute />);
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    expect((title as HTMLInputElement).value).toBe('Tarifs');
    const body = screen.getByRole('textbox', { name: /Text \(Markdown\)/ });
    await user.clear(body);
    await user.type(body, 'Un **nouveau** texte');
    const preview = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(preview.querySelector('strong')?.textContent).toBe('nouveau'), {
      timeout: 3000,
    });
    // The page's sections are in the preview as the site shows them, before its text.
    expect(within(preview).getByRole('heading', { name: 'Inclus dans chaque offre' })).toBeTruthy();
    const sent = calls.filter((call) => call.url === '/api/admin/content/preview').at(-1);
    expect(sent?.body).toMatchObject({ language: 'fr', sections: [{ id: 'features' }] });
    // Publishing waits for the draft to be saved.
    expect(
      (screen.getByRole('button', { name: 'Publish now' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    await user.clear(title);
    await user.click(screen.getByRole('button', { name: 'Save the draft' }));
    expect(await screen.findAllByText('front_matter.title: is required')).not.toHaveLength(0);

    await user.type(title, 'Nos tarifs');
    await user.click(screen.getByRole('button', { name: 'Save the draft' }));
    await screen.findByText('Draft saved. Visitors see it once it is published.');
    const saved = calls.filter((call) => call.method === 'PUT').at(-1);
    expect(saved?.body).toEqual({
      front_matter: {
        title: 'Nos tarifs',
        description: 'Des offres simples.',
        category: 'Main',
        order: 20,
        sections: [
          { id: 'features', tags: [{ type: 'title', content: 'Inclus dans chaque offre' }] },
        ],
      },
      body: 'Un **nouveau** texte',
    });
    // The other language beside it, and the search result as it will read.
    expect(screen.getByRole('region', { name: 'Another language' }).textContent).toContain(
      'A paragraph.',
    );
    expect(screen.getByRole('region', { name: 'Search result' }).textContent).toContain(
      'Nos tarifs | Parla',
    );
  });
});
