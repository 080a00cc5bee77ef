import type { Db } from '../../db/database.js';

/** What the console sets for a language: hidden or not, and the voice it starts on. */
export interface LanguageSettings {
  hidden: boolean;
  default_voice_id: string | null;
}

/** The console's voice and language settings (`voice_settings`), one row per voice or language. */
export function createVoiceSettingsRepository(db: Db) {
  return {
    all: () => db.selectFrom('voice_settings').selectAll().execute(),

    /** Whether the voice is hidden (false when it was never set). */
    async voiceHidden(voiceId: string) {
      const row = await db
        .selectFrom('voice_settings')
        .select('hidden')
        .where('kind', '=', 'voice')
        .where('id', '=', voiceId)
        .executeTakeFirst();
      return Boolean(row?.hidden);
    },

    async setVoiceHidden(voiceId: string, hidden: boolean) {
      const row = {
        kind: 'voice' as const,
        id: voiceId,
        hidden: hidden ? 1 : 0,
        default_voice_id: null,
        updated_at: new Date().toISOString(),
      };
      await db
        .insertInto('voice_settings')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['kind', 'id'])
            .doUpdateSet({ hidden: row.hidden, updated_at: row.updated_at }),
        )
        .execute();
    },

    /** The language's settings (not hidden, no default when it was never set). */
    async language(code: string): Promise<LanguageSettings> {
      const row = await db
        .selectFrom('voice_settings')
        .select(['hidden', 'default_voice_id'])
        .where('kind', '=', 'language')
        .where('id', '=', code)
        .executeTakeFirst();
      return { hidden: Boolean(row?.hidden), default_voice_id: row?.default_voice_id ?? null };
    },

    async setLanguage(code: string, settings: LanguageSettings) {
      const updated_at = new Date().toISOString();
      const values = {
        hidden: settings.hidden ? 1 : 0,
        default_voice_id: settings.default_voice_id,
      };
      await db
        .insertInto('voice_settings')
        .values({ kind: 'language', id: code, ...values, updated_at })
        .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet({ ...values, updated_at }))
        .execute();
    },
  };
}
