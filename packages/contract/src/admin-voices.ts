import * as z from 'zod/mini';
import { EngineSchema } from './convertor.js';
import { languageCode, noNul, voiceId } from './fields.js';

// The operator's console, Voices (issue 31 §6, decision 052) ---------------------------------
//
//   GET    /api/admin/voices                     AdminVoiceCatalogueSchema (every voice, hidden
//                                                 or not, with the settings and what is installed)
//   PUT    /api/admin/voices/voice               AdminVoiceInputSchema → AdminVoiceCatalogueSchema
//   PUT    /api/admin/voices/language            AdminLanguageInputSchema → AdminVoiceCatalogueSchema
//   GET    /api/admin/voices/available           AdminAvailableVoicesSchema (what can be installed)
//   GET    /api/admin/voices/install             AdminVoiceInstallStateSchema (progress)
//   POST   /api/admin/voices/install             AdminInstallInputSchema → AdminVoiceInstallStateSchema
//   DELETE /api/admin/voices/install             AdminVoiceInstallStateSchema (cancels)
//   DELETE /api/admin/voices/installed/{name}    AdminVoiceCatalogueSchema (files removed)

/** Every answer of the Voices section that a test or a screen compares word for word. */
export const ADMIN_VOICE_MESSAGES = {
  /** A conversion, a job or a preview naming a voice the operator hid. */
  hiddenVoice: (id: string) =>
    `voice: the voice "${id}" is not offered; GET /api/convertor/voices lists the voices.`,
  unknownVoice: (id: string) => `voice_id: there is no voice "${id}" in the catalogue.`,
  unknownLanguage: (code: string) => `language_code: no voice of the catalogue speaks "${code}".`,
  defaultNotOfLanguage: (id: string, code: string) =>
    `default_voice_id: the voice "${id}" does not speak "${code}".`,
  defaultHidden: (id: string) =>
    `default_voice_id: the voice "${id}" is hidden; show it before making it the default.`,
  hiddenRequired: 'hidden must be true or false.',
  nothingToChange: 'hidden or default_voice_id is required.',
  installName: 'name must be a voice of GET /api/admin/voices/available.',
  unknownInstall: (name: string) =>
    `name: "${name}" is neither a Kokoro model nor a voice of Piper's catalogue.`,
  installBusy: (name: string) =>
    `Another voice (${name}) is being installed on this server; wait for it or cancel it.`,
  alreadyInstalled: (name: string) => `name: "${name}" is already installed.`,
  notInstalled: (name: string) => `There is no installed voice "${name}".`,
  installingNow: (name: string) => `"${name}" is being installed; cancel the install instead.`,
  catalogueUnreachable: (reason: string) =>
    `Piper's catalogue could not be read (${reason}); Kokoro's models are listed.`,
} as const;

/** A voice as the console lists it: the catalogue's, with the operator's setting. */
export const AdminVoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: z.string(),
  engine: EngineSchema,
  /** Who renders it (espeak-ng, piper, polly…). */
  provider: z.nullable(z.string()),
  hidden: z.boolean(),
  /** The folder of VOICES_DIR it comes from; null for voices that are not installed files. */
  installed: z.nullable(z.string()),
});
export type AdminVoice = z.infer<typeof AdminVoiceSchema>;

export const AdminVoiceLanguageSchema = z.object({
  language_code: z.string(),
  language_name: z.string(),
  hidden: z.boolean(),
  /** The voice the convertor and the API start on for this language; null: the catalogue's first. */
  default_voice_id: z.nullable(z.string()),
  voices: z.array(AdminVoiceSchema),
});
export type AdminVoiceLanguage = z.infer<typeof AdminVoiceLanguageSchema>;

/** An installed voice of VOICES_DIR with its size on disk and licence. */
export const AdminInstalledVoiceSchema = z.object({
  name: z.string(),
  display_name: z.string(),
  language: z.string(),
  license: z.string(),
  bytes: z.number().check(z.int(), z.nonnegative()),
  speakers: z.number().check(z.int(), z.nonnegative()),
});
export type AdminInstalledVoice = z.infer<typeof AdminInstalledVoiceSchema>;

export const AdminVoiceCatalogueSchema = z.object({
  languages: z.array(AdminVoiceLanguageSchema),
  installed: z.array(AdminInstalledVoiceSchema),
});
export type AdminVoiceCatalogue = z.infer<typeof AdminVoiceCatalogueSchema>;

export const AdminVoiceInputSchema = z.object({
  voice_id: voiceId('voice_id'),
  hidden: z.boolean({ error: ADMIN_VOICE_MESSAGES.hiddenRequired }),
});
export type AdminVoiceInput = z.infer<typeof AdminVoiceInputSchema>;

export const AdminLanguageInputSchema = z
  .object({
    language_code: languageCode('language_code', 'fr-fr'),
    hidden: z.optional(z.boolean({ error: ADMIN_VOICE_MESSAGES.hiddenRequired })),
    /** A voice of the language; null goes back to the catalogue's order. */
    default_voice_id: z.optional(z.nullable(voiceId('default_voice_id'))),
  })
  .check(
    z.refine((input) => input.hidden !== undefined || input.default_voice_id !== undefined, {
      error: ADMIN_VOICE_MESSAGES.nothingToChange,
      path: ['hidden'],
    }),
  );
export type AdminLanguageInput = z.infer<typeof AdminLanguageInputSchema>;

/** A voice that can be installed: a Kokoro model of sherpa-onnx's or a voice of Piper's catalogue. */
export const AdminAvailableVoiceSchema = z.object({
  name: z.string(),
  architecture: z.enum(['kokoro', 'piper']),
  /** Piper's language code, or the languages a Kokoro model speaks. */
  language: z.string(),
  quality: z.nullable(z.string()),
  /** Bytes to download, when the host publishes it. */
  bytes: z.nullable(z.number()),
  license: z.nullable(z.string()),
  installed: z.boolean(),
});
export type AdminAvailableVoice = z.infer<typeof AdminAvailableVoiceSchema>;

export const AdminAvailableVoicesSchema = z.object({
  voices: z.array(AdminAvailableVoiceSchema),
  /** Why Piper's catalogue is missing (no network…); null when it was read. */
  problem: z.nullable(z.string()),
});
export type AdminAvailableVoices = z.infer<typeof AdminAvailableVoicesSchema>;

export const ADMIN_INSTALL_STATES = [
  'idle',
  'installing',
  'installed',
  'failed',
  'cancelled',
] as const;
export type AdminInstallState = (typeof ADMIN_INSTALL_STATES)[number];

/** This server's console install: one at a time; the last one's outcome stays until the next. */
export const AdminVoiceInstallStateSchema = z.object({
  state: z.enum(ADMIN_INSTALL_STATES),
  name: z.nullable(z.string()),
  bytes: z.number(),
  /** Bytes of the whole download, when known. */
  total: z.nullable(z.number()),
  /** Why it failed. */
  message: z.nullable(z.string()),
});
export type AdminVoiceInstallState = z.infer<typeof AdminVoiceInstallStateSchema>;

export const AdminInstallInputSchema = z.object({
  name: z
    .string({ error: ADMIN_VOICE_MESSAGES.installName })
    .check(
      z.minLength(1, { error: ADMIN_VOICE_MESSAGES.installName }),
      z.maxLength(200, { error: ADMIN_VOICE_MESSAGES.installName }),
      z.regex(/^[A-Za-z0-9][\w.-]*$/, { error: ADMIN_VOICE_MESSAGES.installName }),
      noNul,
    ),
});
export type AdminInstallInput = z.infer<typeof AdminInstallInputSchema>;

export const AdminInstalledParamsSchema = AdminInstallInputSchema;
