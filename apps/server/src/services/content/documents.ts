import { randomUUID } from 'node:crypto';
import {
  ADMIN_CONTENT_MESSAGES,
  type AdminContentDocument,
  type AdminContentItem,
  type AdminContentSource,
  type ContentKind,
} from '@parla/contract';
import type { Selectable } from 'kysely';
import { stringify as stringifyYaml } from 'yaml';
import type { Db } from '../../db/database.js';
import type { ContentDocumentsTable, ContentRevisionsTable } from '../../db/schema.js';
import { type Actor, createAuditLog } from '../admin/audit-log.js';
import { parseContentFile, type ShownEntry } from './loader.js';
import { parseFrontMatter } from './markdown.js';

type DocumentRow = Selectable<ContentDocumentsTable>;
type RevisionAction = ContentRevisionsTable['action'];

export interface DocumentKey {
  kind: ContentKind;
  language: string;
  slug: string;
}

/** A mistake of the client, with the field it names (answered 4xx). */
export class ContentInputError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The text of a content file: its front matter as YAML, then its Markdown body. */
export function contentFileText(source: AdminContentSource): string {
  return `---\n${stringifyYaml(source.front_matter, { lineWidth: 0 })}---\n${source.body}`;
}

function sourceOf(text: string): AdminContentSource {
  const { data, body } = parseFrontMatter(text);
  return { front_matter: data, body };
}

/** Never edited in the console since it was seeded: a new release may replace it. */
export const untouched = (row: DocumentRow) =>
  row.seeded !== null &&
  row.draft === row.seeded &&
  row.published === row.seeded &&
  row.publish_at === null;

/**
 * Makes `entry` what visitors see for its page or article (content_pages/content_articles are
 * the published view the site reads), in the caller's transaction.
 */
export async function showEntry(trx: Db, parsed: ShownEntry, at: string) {
  const { language, slug } = parsed.entry;
  if (parsed.kind === 'pages') {
    const { entry } = parsed;
    await trx
      .deleteFrom('content_pages')
      .where('language', '=', language)
      .where('slug', '=', slug)
      .execute();
    await trx
      .insertInto('content_pages')
      .values({ ...entry, sections: JSON.stringify(entry.sections), updated_at: at })
      .execute();
    return;
  }
  const { entry } = parsed;
  await trx
    .deleteFrom('content_articles')
    .where('language', '=', language)
    .where('slug', '=', slug)
    .execute();
  await trx
    .insertInto('content_articles')
    .values({
      ...entry,
      tags: JSON.stringify(entry.tags),
      is_on_main_page: entry.is_on_main_page ? 1 : 0,
    })
    .execute();
}

/** Takes a page or article away from visitors (a release removed its file). */
export async function hideEntry(trx: Db, key: DocumentKey) {
  await trx
    .deleteFrom(key.kind === 'pages' ? 'content_pages' : 'content_articles')
    .where('language', '=', key.language)
    .where('slug', '=', key.slug)
    .execute();
}

export async function addRevision(
  trx: Db,
  key: DocumentKey,
  source: string,
  action: RevisionAction,
  actor: Actor,
  at: string,
) {
  await trx
    .insertInto('content_revisions')
    .values({
      id: randomUUID(),
      kind: key.kind,
      language: key.language,
      slug: key.slug,
      source,
      action,
      actor_email: actor?.email ?? null,
      created_at: at,
    })
    .execute();
}

export interface ContentDocumentsOptions {
  /** Whether a cover picture of that name exists. */
  imageExists: (name: string) => boolean | Promise<boolean>;
  now?: () => Date;
}

/**
 * The console's side of the content (issue 31 §2, decision 054): drafts, publications (now or
 * at a time), revisions. Every change is audited in its own transaction; the caller tells the
 * content store when visitors' content changed.
 */
export function createContentDocuments(db: Db, options: ContentDocumentsOptions) {
  const now = options.now ?? (() => new Date());

  function itemOf(row: DocumentRow): AdminContentItem {
    let title = row.slug;
    let group = row.slug;
    try {
      const { data } = parseFrontMatter(row.draft);
      if (typeof data.title === 'string') title = data.title;
      if (row.kind === 'articles' && typeof data.translation === 'string') group = data.translation;
    } catch {
      // A draft is validated when saved; a broken one still lists under its slug.
    }
    return {
      kind: row.kind,
      language: row.language,
      slug: row.slug,
      group,
      title,
      state: row.publish_at ? 'scheduled' : row.published === null ? 'draft' : 'published',
      changed: row.draft !== row.published,
      publish_at: row.publish_at,
      published_at: row.published_at,
      updated_at: row.updated_at,
    };
  }

  async function row(trx: Db, key: DocumentKey) {
    return trx
      .selectFrom('content_documents')
      .selectAll()
      .where('kind', '=', key.kind)
      .where('language', '=', key.language)
      .where('slug', '=', key.slug)
      .executeTakeFirst();
  }

  async function existing(trx: Db, key: DocumentKey) {
    const found = await row(trx, key);
    if (!found) {
      throw new ContentInputError(
        404,
        'slug',
        ADMIN_CONTENT_MESSAGES.unknownDocument(key.kind, key.language, key.slug),
      );
    }
    return found;
  }

  /** The file made into what the site shows, or a 400 naming the front matter's field. */
  async function parse(key: DocumentKey, text: string) {
    const images = new Set<string>();
    const { data } = parseFrontMatter(text);
    const cover = (data.cover as { image?: unknown } | undefined)?.image;
    if (typeof cover === 'string' && (await options.imageExists(cover))) images.add(cover);
    const parsed = parseContentFile({ ...key, text }, (name) => images.has(name));
    if (!parsed.ok) {
      const issue = parsed.issues?.[0];
      const path = ['front_matter', ...(issue?.path ?? []).map(String)].join('.');
      if (issue?.path.join('.') === 'cover.image' && typeof cover === 'string') {
        throw new ContentInputError(400, path, ADMIN_CONTENT_MESSAGES.unknownCover(cover));
      }
      throw new ContentInputError(400, path, `${path}: ${issue?.message ?? parsed.message}`);
    }
    return parsed;
  }

  async function checkTranslation(trx: Db, key: DocumentKey, translationKey: string) {
    const taken = await trx
      .selectFrom('content_articles')
      .select('slug')
      .where('language', '=', key.language)
      .where('translation_key', '=', translationKey)
      .where('slug', '!=', key.slug)
      .executeTakeFirst();
    if (taken) {
      throw new ContentInputError(
        409,
        'front_matter.translation',
        ADMIN_CONTENT_MESSAGES.translationTaken(translationKey, key.language),
      );
    }
  }

  async function publishRow(trx: Db, found: DocumentRow, actor: Actor, at: string) {
    const parsed = await parse(found, found.draft);
    if (parsed.kind === 'articles')
      await checkTranslation(trx, found, parsed.entry.translation_key);
    await trx
      .updateTable('content_documents')
      .set({ published: found.draft, publish_at: null, published_at: at })
      .where('kind', '=', found.kind)
      .where('language', '=', found.language)
      .where('slug', '=', found.slug)
      .execute();
    await showEntry(trx, parsed, at);
    await addRevision(trx, found, found.draft, 'publish', actor, at);
  }

  const audit = (
    trx: Db,
    actor: Actor,
    action: 'content.save' | 'content.publish' | 'content.restore',
    key: DocumentKey,
    before: unknown,
    after: unknown,
  ) =>
    createAuditLog(trx).record(
      {
        actor,
        action,
        targetType: 'content',
        targetId: `${key.kind}/${key.language}/${key.slug}`,
        before,
        after,
      },
      now(),
    );

  return {
    async list(): Promise<AdminContentItem[]> {
      const rows = await db
        .selectFrom('content_documents')
        .selectAll()
        .orderBy('kind')
        .orderBy('slug')
        .orderBy('language')
        .execute();
      return rows.map(itemOf);
    },

    async get(key: DocumentKey): Promise<AdminContentDocument> {
      const found = await existing(db, key);
      const revisions = await db
        .selectFrom('content_revisions')
        .selectAll()
        .where('kind', '=', key.kind)
        .where('language', '=', key.language)
        .where('slug', '=', key.slug)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(100)
        .execute();
      return {
        item: itemOf(found),
        draft: sourceOf(found.draft),
        published: found.published === null ? null : sourceOf(found.published),
        revisions: revisions.map((revision) => ({
          id: revision.id,
          action: revision.action,
          actor_email: revision.actor_email,
          date: revision.created_at,
          source: sourceOf(revision.source),
        })),
      };
    },

    /** Saves the draft (a new document when none exists in that language); visitors see nothing yet. */
    async save(key: DocumentKey, source: AdminContentSource, actor: Actor) {
      const text = contentFileText(source);
      const parsed = await parse(key, text);
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        if (parsed.kind === 'articles')
          await checkTranslation(trx, key, parsed.entry.translation_key);
        const before = await row(trx, key);
        if (before) {
          await trx
            .updateTable('content_documents')
            .set({ draft: text, updated_at: at })
            .where('kind', '=', key.kind)
            .where('language', '=', key.language)
            .where('slug', '=', key.slug)
            .execute();
        } else {
          await trx
            .insertInto('content_documents')
            .values({
              ...key,
              draft: text,
              published: null,
              publish_at: null,
              seeded: null,
              published_at: null,
              updated_at: at,
            })
            .execute();
        }
        await addRevision(trx, key, text, 'save', actor, at);
        await audit(trx, actor, 'content.save', key, before ? { draft: before.draft } : null, {
          draft: text,
        });
      });
    },

    /**
     * Publishes the draft now (visitors see it once the caller announced the change), or at
     * `at`: the draft as it is then. Returns whether visitors' content changed.
     */
    async publish(key: DocumentKey, at: Date | null, actor: Actor): Promise<boolean> {
      const current = now();
      if (at && at.getTime() <= current.getTime()) {
        throw new ContentInputError(400, 'at', ADMIN_CONTENT_MESSAGES.publishInPast);
      }
      return db.transaction().execute(async (trx) => {
        const found = await existing(trx, key);
        const before = { published: found.published, publish_at: found.publish_at };
        if (at) {
          await parse(key, found.draft);
          await trx
            .updateTable('content_documents')
            .set({ publish_at: at.toISOString() })
            .where('kind', '=', key.kind)
            .where('language', '=', key.language)
            .where('slug', '=', key.slug)
            .execute();
          await audit(trx, actor, 'content.publish', key, before, { publish_at: at.toISOString() });
          return false;
        }
        await publishRow(trx, found, actor, current.toISOString());
        await audit(trx, actor, 'content.publish', key, before, {
          published: found.draft,
          publish_at: null,
        });
        return true;
      });
    },

    /** Makes an older revision the draft again (published by a publish, as any draft). */
    async restore(key: DocumentKey, id: string, actor: Actor) {
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        const found = await existing(trx, key);
        const revision = await trx
          .selectFrom('content_revisions')
          .select('source')
          .where('id', '=', id)
          .where('kind', '=', key.kind)
          .where('language', '=', key.language)
          .where('slug', '=', key.slug)
          .executeTakeFirst();
        if (!revision)
          throw new ContentInputError(404, 'id', ADMIN_CONTENT_MESSAGES.unknownRevision(id));
        await trx
          .updateTable('content_documents')
          .set({ draft: revision.source, updated_at: at })
          .where('kind', '=', key.kind)
          .where('language', '=', key.language)
          .where('slug', '=', key.slug)
          .execute();
        await addRevision(trx, key, revision.source, 'restore', actor, at);
        await audit(
          trx,
          actor,
          'content.restore',
          key,
          { draft: found.draft },
          { draft: revision.source, revision: id },
        );
      });
    },

    /** Publishes the drafts whose time has come (the scheduler's task); how many it did. */
    async publishDue(): Promise<number> {
      const current = now().toISOString();
      const due = await db
        .selectFrom('content_documents')
        .selectAll()
        .where('publish_at', '<=', current)
        .execute();
      let count = 0;
      for (const candidate of due) {
        const done = await db.transaction().execute(async (trx) => {
          // Taken by clearing its time: another server running the same task finds none.
          const taken = await trx
            .updateTable('content_documents')
            .set({ publish_at: null })
            .where('kind', '=', candidate.kind)
            .where('language', '=', candidate.language)
            .where('slug', '=', candidate.slug)
            .where('publish_at', '=', candidate.publish_at)
            .executeTakeFirst();
          if (Number(taken.numUpdatedRows) === 0) return false;
          const found = await existing(trx, candidate);
          await publishRow(trx, found, null, current);
          return true;
        });
        if (done) count += 1;
      }
      return count;
    },
  };
}

export type ContentDocuments = ReturnType<typeof createContentDocuments>;
