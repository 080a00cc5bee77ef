import { ADMIN_VOICE_MESSAGES, type Language, type VoiceSettings } from '@parla/contract';
import { SpeechError } from '@parla/speech';
import type { Db } from '../../db/database.js';
import type { RedisClients } from '../../lib/redis.js';
import { createSharedCache } from '../../lib/shared-cache.js';
import type { SpeechService } from '../../lib/speech.js';
import { createVoiceSettingsRepository } from './voice-settings-repository.js';

/**
 * The operator's voice settings (issue 31 §6, decision 052): voices and whole languages hidden
 * from the site and the API, and the voice each language starts on. Stored in `voice_settings`,
 * kept in memory by every server (lib/shared-cache.ts).
 */

export interface VoiceRules {
  hiddenVoices: ReadonlySet<string>;
  /** Lower-case language codes. */
  hiddenLanguages: ReadonlySet<string>;
  /** Lower-case language code → the voice it starts on. */
  defaults: ReadonlyMap<string, string>;
}

/** How long a server keeps the settings without hearing of a change (no Redis: the bound). */
export const VOICE_SETTINGS_TTL_MS = 5_000;

export interface VoiceSettingsOptions {
  ttlMs?: number;
  /** With Redis, a change is announced to the other servers at once. */
  redis?: RedisClients | undefined;
  prefix?: string;
}

/** The catalogue as the site offers it: hidden voices and languages out, defaults first. */
export function visibleCatalogue(languages: readonly Language[], rules: VoiceRules): Language[] {
  return languages.flatMap((language) => {
    const code = language.language_code.toLowerCase();
    if (rules.hiddenLanguages.has(code)) return [];
    const voices = language.voices.filter((voice) => !rules.hiddenVoices.has(voice.id));
    if (voices.length === 0) return [];
    const first = rules.defaults.get(code);
    const ordered = first
      ? [
          ...voices.filter((voice) => voice.id === first),
          ...voices.filter((voice) => voice.id !== first),
        ]
      : voices;
    return [{ ...language, voices: ordered }];
  });
}

/** Why settings naming a hidden voice or language are refused; undefined when they are not. */
export function hiddenRefusal(
  settings: Pick<VoiceSettings, 'voice_id' | 'language_code'>,
  rules: VoiceRules,
): string | undefined {
  const hidden =
    rules.hiddenVoices.has(settings.voice_id) ||
    rules.hiddenLanguages.has(settings.language_code.toLowerCase());
  return hidden ? ADMIN_VOICE_MESSAGES.hiddenVoice(settings.voice_id) : undefined;
}

export function createVoiceSettings(db: Db, options: VoiceSettingsOptions = {}) {
  const cache = createSharedCache(() => read(db), {
    topic: 'voice-settings',
    ttlMs: options.ttlMs ?? VOICE_SETTINGS_TTL_MS,
    redis: options.redis,
    ...(options.prefix !== undefined && { prefix: options.prefix }),
  });
  return { rules: cache.get, changed: cache.changed, close: cache.close };
}

async function read(db: Db): Promise<VoiceRules> {
  const rows = await createVoiceSettingsRepository(db).all();
  const hiddenVoices = new Set<string>();
  const hiddenLanguages = new Set<string>();
  const defaults = new Map<string, string>();
  for (const row of rows) {
    if (row.kind === 'voice' && row.hidden) hiddenVoices.add(row.id);
    if (row.kind === 'language') {
      if (row.hidden) hiddenLanguages.add(row.id);
      if (row.default_voice_id) defaults.set(row.id, row.default_voice_id);
    }
  }
  return { hiddenVoices, hiddenLanguages, defaults };
}

export type VoiceSettingsStore = ReturnType<typeof createVoiceSettings>;

/**
 * The speech service as the site and the API see it: its catalogue without hidden voices and
 * languages, defaults first, and a rendering naming a hidden voice refused (`unknown_voice`, a
 * 4xx naming `voice`), whoever asks for it (the convertor, the API, OpenAI's route, jobs,
 * previews).
 */
export function withVoiceSettings(speech: SpeechService, store: VoiceSettingsStore): SpeechService {
  const refuse = async (settings: VoiceSettings) => {
    const refusal = hiddenRefusal(settings, await store.rules());
    if (refusal) throw new SpeechError('unknown_voice', refusal);
  };
  return {
    ...speech,
    async listVoices() {
      const [languages, rules] = await Promise.all([speech.listVoices(), store.rules()]);
      return visibleCatalogue(languages, rules);
    },
    async render(settings, key, renderOptions) {
      await refuse(settings);
      return speech.render(settings, key, renderOptions);
    },
    renderLive(settings, key, id, renderOptions) {
      const checked = refuse(settings);
      const started = checked.then(() => speech.renderLive(settings, key, id, renderOptions));
      const first = started.then((rendering) => rendering.first);
      const done = started.then((rendering) => rendering.done);
      // Whoever awaits only `first` must not leave `done`'s refusal unhandled.
      done.catch(() => undefined);
      return { first, done };
    },
  };
}
