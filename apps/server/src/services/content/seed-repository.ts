import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { type ContentTree, loadContentTree } from './loader.js';

/** Bump when the seed derives rows differently from the same files (forces a re-seed). */
const SEED_VERSION = '1';
const STATE_KEY = 'content_hash';

export interface SeedResult {
  /** False when the database already held this exact tree. */
  seeded: boolean;
  languages: number;
  pages: number;
  articles: number;
}

/**
 * Makes the content tables hold exactly the files of `root` (SPEC §3 content model, issue 7).
 * Idempotent: when the files have not changed since the last seed nothing is written. Runs in
 * one transaction, so readers see the old content or the new, never half; on PostgreSQL an
 * advisory lock keeps several servers starting together from seeding at the same time.
 */
export async function seedContent(db: Db, root: string): Promise<SeedResult> {
  const tree = loadContentTree(root);
  const hash = `${SEED_VERSION}:${tree.hash}`;
  const counts = {
    languages: tree.languages.length,
    pages: tree.pages.length,
    articles: tree.articles.length,
  };
  const seeded = await db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(hashtext('parla content seed'))`.execute(trx);
    }
    const state = await trx
      .selectFrom('content_state')
      .select('value')
      .where('key', '=', STATE_KEY)
      .executeTakeFirst();
    if (state?.value === hash) return false;
    await replaceContent(trx, tree);
    if (state) {
      await trx
        .updateTable('content_state')
        .set({ value: hash })
        .where('key', '=', STATE_KEY)
        .execute();
    } else {
      await trx.insertInto('content_state').values({ key: STATE_KEY, value: hash }).execute();
    }
    return true;
  });
  return { seeded, ...counts };
}

async function replaceContent(trx: Db, tree: ContentTree) {
  await trx.deleteFrom('content_articles').execute();
  await trx.deleteFrom('content_pages').execute();
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
  const now = new Date().toISOString();
  for (const page of tree.pages) {
    await trx
      .insertInto('content_pages')
      .values({ ...page, sections: JSON.stringify(page.sections), updated_at: now })
      .execute();
  }
  for (const article of tree.articles) {
    await trx
      .insertInto('content_articles')
      .values({
        ...article,
        tags: JSON.stringify(article.tags),
        is_on_main_page: article.is_on_main_page ? 1 : 0,
      })
      .execute();
  }
}
