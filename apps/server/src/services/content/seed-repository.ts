import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { addRevision, type DocumentKey, hideEntry, showEntry, untouched } from './documents.js';
import type { ContentImages } from './images.js';
import { KIND_FOLDERS, loadContentTree } from './loader.js';

/** Bump when the seed derives rows differently from the same files (forces a re-seed). */
const SEED_VERSION = '2';
const STATE_KEY = 'content_hash';
/** languages.yaml as last seeded (the export writes it back). */
const LANGUAGES_KEY = 'languages_yaml';

export interface SeedResult {
  /** False when the database already held this exact tree. */
  seeded: boolean;
  languages: number;
  pages: number;
  articles: number;
  /** Documents written from the files: new ones, and ones never edited in the console. */
  written: number;
  /** Documents edited in the console whose file changed: the console's version is kept. */
  kept: number;
}

const keyText = (key: DocumentKey) => `${key.kind}/${key.language}/${key.slug}`;

async function setState(trx: Db, key: string, value: string) {
  const found = await trx
    .selectFrom('content_state')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  if (found) {
    await trx.updateTable('content_state').set({ value }).where('key', '=', key).execute();
  } else {
    await trx.insertInto('content_state').values({ key, value }).execute();
  }
}

/**
 * Brings the files of `root` into the database (decision 054). An empty database gets them
 * all, published. Later, when the files changed (a new release): a new file is added, a file
 * whose document was never edited in the console replaces it, a removed file's unedited
 * document goes; a document edited in the console is kept as it is. Languages always follow
 * languages.yaml. Nothing is written when the files have not changed since the last start.
 * One transaction; on PostgreSQL an advisory lock keeps servers starting together in turn.
 */
export async function seedContent(db: Db, root: string, at = new Date()): Promise<SeedResult> {
  const tree = loadContentTree(root);
  const hash = `${SEED_VERSION}:${tree.hash}`;
  const counts = {
    languages: tree.languages.length,
    pages: tree.pages.length,
    articles: tree.articles.length,
  };
  const now = at.toISOString();
  return db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(hashtext('parla content seed'))`.execute(trx);
    }
    const state = await trx
      .selectFrom('content_state')
      .select('value')
      .where('key', '=', STATE_KEY)
      .executeTakeFirst();
    if (state?.value === hash) return { seeded: false, ...counts, written: 0, kept: 0 };

    await trx.deleteFrom('content_languages').execute();
    if (tree.languages.length > 0) {
      await trx
        .insertInto('content_languages')
        .values(
          tree.languages.map((language) => ({
            ...language,
            templates: JSON.stringify(language.templates),
          })),
        )
        .execute();
    }
    await setState(trx, LANGUAGES_KEY, tree.languagesText);

    const documents = new Map(
      (await trx.selectFrom('content_documents').selectAll().execute()).map((row) => [
        keyText(row),
        row,
      ]),
    );
    let written = 0;
    let kept = 0;
    for (const file of tree.files) {
      const key = { kind: file.kind, language: file.language, slug: file.slug };
      const found = documents.get(keyText(key));
      documents.delete(keyText(key));
      if (found && found.seeded === file.text) continue;
      if (found && !untouched(found)) {
        kept += 1;
        continue;
      }
      const values = {
        draft: file.text,
        published: file.text,
        seeded: file.text,
        publish_at: null,
        published_at: now,
        updated_at: now,
      };
      if (found) {
        await trx
          .updateTable('content_documents')
          .set(values)
          .where('kind', '=', key.kind)
          .where('language', '=', key.language)
          .where('slug', '=', key.slug)
          .execute();
      } else {
        await trx
          .insertInto('content_documents')
          .values({ ...key, ...values })
          .execute();
      }
      await showEntry(trx, file.shown, now);
      await addRevision(trx, key, file.text, 'seed', null, now);
      written += 1;
    }
    // What is left had a file once that a release removed.
    for (const gone of documents.values()) {
      if (!untouched(gone)) continue;
      await trx
        .deleteFrom('content_documents')
        .where('kind', '=', gone.kind)
        .where('language', '=', gone.language)
        .where('slug', '=', gone.slug)
        .execute();
      await hideEntry(trx, gone);
    }
    await setState(trx, STATE_KEY, hash);
    return { seeded: true, ...counts, written, kept };
  });
}

/**
 * Writes the published content in the layout of content/ (content/README.md), so that it can
 * seed another installation: languages.yaml, pages/, blog/ and images/. Drafts never published
 * are left out (a seed publishes what it reads). The pictures are those shipped and uploaded.
 */
export async function exportContent(
  db: Db,
  dir: string,
  images: Pick<ContentImages, 'names' | 'read'>,
): Promise<{ files: number; images: number }> {
  const languages = await db
    .selectFrom('content_state')
    .select('value')
    .where('key', '=', LANGUAGES_KEY)
    .executeTakeFirst();
  await mkdir(dir, { recursive: true });
  if (languages) await writeFile(path.join(dir, 'languages.yaml'), languages.value);
  const rows = await db
    .selectFrom('content_documents')
    .select(['kind', 'language', 'slug', 'published'])
    .where('published', 'is not', null)
    .execute();
  for (const row of rows) {
    const folder = path.join(dir, KIND_FOLDERS[row.kind], row.language);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `${row.slug}.md`), row.published ?? '');
  }
  const names = await images.names();
  if (names.length > 0) await mkdir(path.join(dir, 'images'), { recursive: true });
  for (const name of names) {
    const bytes = await images.read(name);
    if (bytes) await writeFile(path.join(dir, 'images', name), bytes);
  }
  return { files: rows.length, images: names.length };
}
