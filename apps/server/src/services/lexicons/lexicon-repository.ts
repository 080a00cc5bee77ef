import { randomUUID } from 'node:crypto';
import {
  LEXICON_MESSAGES,
  type Lexicon,
  type LexiconEntry,
  type LexiconSummary,
  lexiconLimits,
  type PlanType,
  type Role,
} from '@parla/contract';
import { type SpeechLexicon, ssmlLexiconNames } from '@parla/speech';
import type { Db } from '../../db/database.js';
import type { LexiconsTable } from '../../db/schema.js';

/**
 * Pronunciation lexicons (issue 32): a user's, by name, with the plan's limits on how many and
 * how many entries; and the lexicons a conversion applies, resolved from its `lexicon_names`
 * (or the user's defaults) and the names its SSML `<lexicon uri>` gives. Only the owner's rows
 * are ever read: every query names the user.
 */

/** Whose lexicons: the user's id, plan and role (their limits). */
export interface LexiconOwner {
  id: string;
  plan_type: string;
  role: string;
}

/** A lexicon to store: what a PUT gives, JSON or PLS. */
export interface LexiconDraft {
  language: string;
  /** true/false sets it; undefined keeps what the lexicon had (false for a new one). */
  default: boolean | undefined;
  entries: LexiconEntry[];
}

export type SaveResult =
  | { ok: true; created: boolean; lexicon: Lexicon }
  | { ok: false; status: 400 | 403; message: string };

export type RenameResult =
  | { ok: true; lexicon: Lexicon }
  | { ok: false; status: 404 | 409; message: string };

/** What a conversion applies: the lexicons in order, and those its SSML may name. */
export interface ResolvedLexicons {
  applied: SpeechLexicon[];
  library: SpeechLexicon[];
}

export type Resolution = { ok: true; lexicons: ResolvedLexicons } | { ok: false; message: string };

const limitsOf = (owner: LexiconOwner) =>
  lexiconLimits(owner.plan_type as PlanType, owner.role as Role);

function summaryOf(row: LexiconsTable): LexiconSummary {
  return {
    name: row.name,
    language: row.language,
    default: row.default_position !== null,
    default_position: row.default_position,
    entries: row.entry_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function detailOf(row: LexiconsTable): Lexicon {
  return { ...summaryOf(row), entries: JSON.parse(row.entries) as LexiconEntry[] };
}

function speechLexiconOf(row: LexiconsTable): SpeechLexicon {
  return { name: row.name, language: row.language, entries: JSON.parse(row.entries) };
}

/** Two entries of one grapheme and case rule: the second could never be heard. */
function repeatedGrapheme(entries: readonly LexiconEntry[]): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries) {
    const key = entry.case_sensitive
      ? `c:${entry.grapheme}|${entry.language ?? ''}`
      : `i:${entry.grapheme.toLowerCase()}|${entry.language ?? ''}`;
    if (seen.has(key)) return entry.grapheme;
    seen.add(key);
  }
  return undefined;
}

export function createLexiconRepository(db: Db, now: () => Date = () => new Date()) {
  const own = (userId: string, from: Db = db) =>
    from.selectFrom('lexicons').where('user_id', '=', userId);

  /** The user's row, locked on PostgreSQL: lexicon writes of one user take turns. */
  const takeTurn = (trx: Db, userId: string) =>
    trx
      .updateTable('users')
      .set({ updated_at: (eb) => eb.ref('updated_at') })
      .where('id', '=', userId)
      .execute();

  return {
    limitsOf,

    async list(owner: LexiconOwner): Promise<LexiconSummary[]> {
      const rows = await own(owner.id).selectAll().orderBy('name').execute();
      return rows.map(summaryOf);
    },

    async find(userId: string, name: string): Promise<Lexicon | undefined> {
      const row = await own(userId).selectAll().where('name', '=', name).executeTakeFirst();
      return row && detailOf(row);
    },

    /**
     * Creates or replaces the owner's lexicon `name` whole, within the plan's limits (checked
     * in the transaction that writes, so two PUTs at once cannot pass the count together).
     */
    async save(owner: LexiconOwner, name: string, draft: LexiconDraft): Promise<SaveResult> {
      const limits = limitsOf(owner);
      if (draft.entries.length > limits.entries) {
        return {
          ok: false,
          status: 403,
          message: LEXICON_MESSAGES.tooManyEntries(draft.entries.length, limits.entries),
        };
      }
      const repeated = repeatedGrapheme(draft.entries);
      if (repeated !== undefined) {
        return { ok: false, status: 400, message: LEXICON_MESSAGES.graphemeRepeated(repeated) };
      }
      return db.transaction().execute(async (trx) => {
        await takeTurn(trx, owner.id);
        const named = (db: Db) => own(owner.id, db).selectAll().where('name', '=', name);
        const existing = await named(trx).executeTakeFirst();
        if (!existing) {
          const { count } = await trx
            .selectFrom('lexicons')
            .select((eb) => eb.fn.countAll<string | number>().as('count'))
            .where('user_id', '=', owner.id)
            .executeTakeFirstOrThrow();
          if (Number(count) >= limits.lexicons) {
            return {
              ok: false as const,
              status: 403 as const,
              message: LEXICON_MESSAGES.tooManyLexicons(limits.lexicons),
            };
          }
        }
        const wantsDefault = draft.default ?? existing?.default_position != null;
        let position: number | null = null;
        if (wantsDefault) {
          if (existing?.default_position != null) position = existing.default_position;
          else {
            const { last } = await trx
              .selectFrom('lexicons')
              .select((eb) => eb.fn.max('default_position').as('last'))
              .where('user_id', '=', owner.id)
              .executeTakeFirstOrThrow();
            position = Number(last ?? 0) + 1;
          }
        }
        const at = now().toISOString();
        const values = {
          language: draft.language,
          default_position: position,
          entry_count: draft.entries.length,
          entries: JSON.stringify(draft.entries),
          updated_at: at,
        };
        if (existing) {
          await trx.updateTable('lexicons').set(values).where('id', '=', existing.id).execute();
        } else {
          await trx
            .insertInto('lexicons')
            .values({ id: randomUUID(), user_id: owner.id, name, created_at: at, ...values })
            .execute();
        }
        const row = await named(trx).executeTakeFirstOrThrow();
        return { ok: true as const, created: !existing, lexicon: detailOf(row) };
      });
    },

    /**
     * Gives the user's lexicon `from` the name `to` in one transaction, keeping its entries,
     * language, creation date and place among the defaults; not a new lexicon, so the plan's
     * count is not in the way. `to` taken by another of their lexicons: 409, nothing changed.
     */
    async rename(userId: string, from: string, to: string): Promise<RenameResult> {
      return db.transaction().execute(async (trx) => {
        await takeTurn(trx, userId);
        const named = (name: string) =>
          own(userId, trx).selectAll().where('name', '=', name).executeTakeFirst();
        const existing = await named(from);
        if (!existing) {
          return {
            ok: false as const,
            status: 404 as const,
            message: LEXICON_MESSAGES.notFound(from),
          };
        }
        if (to === from) return { ok: true as const, lexicon: detailOf(existing) };
        if (await named(to)) {
          return {
            ok: false as const,
            status: 409 as const,
            message: LEXICON_MESSAGES.nameTaken(to),
          };
        }
        const changes = { name: to, updated_at: now().toISOString() };
        await trx.updateTable('lexicons').set(changes).where('id', '=', existing.id).execute();
        return { ok: true as const, lexicon: detailOf({ ...existing, ...changes }) };
      });
    },

    /** Deletes the owner's lexicon; false when they have none of that name. */
    async remove(userId: string, name: string): Promise<boolean> {
      const result = await db
        .deleteFrom('lexicons')
        .where('user_id', '=', userId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * The lexicons a conversion of `text` applies: `names` in that order (each must be the
     * user's), or the user's defaults in their order when `names` is undefined; and the user's
     * lexicons its SSML `<lexicon uri>` names (a name that is not theirs is left for synthesis
     * to report where it was written). A visitor has none.
     */
    async resolve(
      userId: string | undefined,
      names: readonly string[] | undefined,
      text: string,
    ): Promise<Resolution> {
      const referenced = ssmlLexiconNames(text);
      if (!userId) {
        const first = names?.[0];
        return first === undefined
          ? { ok: true, lexicons: { applied: [], library: [] } }
          : { ok: false, message: LEXICON_MESSAGES.unknownInConversion(first) };
      }
      const wanted = [...new Set([...(names ?? []), ...referenced])];
      let query = own(userId).selectAll();
      query =
        names === undefined
          ? query.where((eb) =>
              eb.or([
                eb('default_position', 'is not', null),
                ...(wanted.length > 0 ? [eb('name', 'in', wanted)] : []),
              ]),
            )
          : wanted.length > 0
            ? query.where('name', 'in', wanted)
            : query.where(({ lit }) => lit(false));
      const rows = await query.execute();
      const byName = new Map(rows.map((row) => [row.name, row]));
      const missing = names?.find((name) => !byName.has(name));
      if (missing !== undefined) {
        return { ok: false, message: LEXICON_MESSAGES.unknownInConversion(missing) };
      }
      const applied =
        names === undefined
          ? rows
              .filter((row) => row.default_position !== null)
              .sort((a, b) => (a.default_position ?? 0) - (b.default_position ?? 0))
          : names.map((name) => byName.get(name) as LexiconsTable);
      return {
        ok: true,
        lexicons: {
          applied: applied.map(speechLexiconOf),
          library: referenced.flatMap((name) => {
            const row = byName.get(name);
            return row ? [speechLexiconOf(row)] : [];
          }),
        },
      };
    },
  };
}

export type LexiconRepository = ReturnType<typeof createLexiconRepository>;
