import {
  ADMIN_VOICE_MESSAGES,
  AdminAvailableVoicesSchema,
  AdminInstalledParamsSchema,
  AdminInstallInputSchema,
  AdminLanguageInputSchema,
  type AdminVoiceCatalogue,
  AdminVoiceCatalogueSchema,
  AdminVoiceInputSchema,
  AdminVoiceInstallStateSchema,
  ErrorResponseSchema,
  type Language,
} from '@parla/contract';
import { fetchCatalogue, kokoroModel, removeVoice } from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import type { SpeechService } from '../../lib/speech.js';
import { createAuditLog } from '../../services/admin/audit-log.js';
import type { VoiceInstaller } from '../../services/voice-installer.js';
import {
  availableVoices,
  folderOfVoice,
  installedVoices,
} from '../../services/voices/voice-files.js';
import type { VoiceSettingsStore } from '../../services/voices/voice-settings.js';
import { createVoiceSettingsRepository } from '../../services/voices/voice-settings-repository.js';

export interface AdminVoicesOptions {
  db: Db;
  /** The whole catalogue, hidden voices included (not the site's view of it). */
  speech: Pick<SpeechService, 'listVoices'>;
  settings: VoiceSettingsStore;
  installer: VoiceInstaller;
  voicesDir: string;
  piperBase: string | undefined;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

/** A 4xx naming the field, in the shape of the validation errors. */
const refuse = (reply: FastifyReply, status: 400 | 404 | 409, path: string, message: string) =>
  reply.code(status).send({ message, errors: [{ path, message }] });

const actorOf = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email });

/**
 * The console's Voices (issue 31 §6, decision 052), registered under the console's guard
 * (routes.ts): the catalogue with the operator's settings, hiding voices and languages, the
 * default voice per language, and installing and removing natural voices.
 */
export const adminVoiceRoutes: FastifyPluginAsyncZod<AdminVoicesOptions> = async (app, options) => {
  const { db, settings, installer, voicesDir } = options;

  async function catalogue(): Promise<AdminVoiceCatalogue> {
    const [languages, rules, installed] = await Promise.all([
      options.speech.listVoices(),
      settings.rules(),
      installedVoices(voicesDir),
    ]);
    const folders = new Set(installed.map((voice) => voice.name));
    return {
      languages: languages.map((language) => {
        const code = language.language_code.toLowerCase();
        return {
          language_code: language.language_code,
          language_name: language.language_name,
          hidden: rules.hiddenLanguages.has(code),
          default_voice_id: rules.defaults.get(code) ?? null,
          voices: language.voices.map((voice) => {
            const folder = folderOfVoice(voice.id);
            return {
              id: voice.id,
              name: voice.name,
              gender: voice.gender,
              engine: voice.engine,
              provider: voice.provider ?? null,
              hidden: rules.hiddenVoices.has(voice.id),
              installed: folder && folders.has(folder) ? folder : null,
            };
          }),
        };
      }),
      installed,
    };
  }

  const languageOf = (languages: Language[], code: string) =>
    languages.find((language) => language.language_code.toLowerCase() === code);

  app.get(
    '/voices',
    {
      schema: {
        tags,
        summary:
          'Every voice of the catalogue by language, hidden or not, with the default per language and the installed natural voices (size, licence)',
        security: bearer,
        response: { 200: AdminVoiceCatalogueSchema, ...errors },
      },
    },
    async () => catalogue(),
  );

  app.put(
    '/voices/voice',
    {
      schema: {
        tags,
        summary: 'Hide a voice from the site and the API, or show it again',
        security: bearer,
        body: AdminVoiceInputSchema,
        response: { 200: AdminVoiceCatalogueSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { voice_id, hidden } = request.body;
      const languages = await options.speech.listVoices();
      if (!languages.some((language) => language.voices.some((voice) => voice.id === voice_id))) {
        return refuse(reply, 400, 'voice_id', ADMIN_VOICE_MESSAGES.unknownVoice(voice_id));
      }
      await db.transaction().execute(async (trx) => {
        const repository = createVoiceSettingsRepository(trx);
        const before = await repository.voiceHidden(voice_id);
        await repository.setVoiceHidden(voice_id, hidden);
        await createAuditLog(trx).record({
          actor: actorOf(request),
          action: 'voice.visibility',
          targetType: 'voice',
          targetId: voice_id,
          before: { hidden: before },
          after: { hidden },
        });
      });
      await settings.changed();
      return catalogue();
    },
  );

  app.put(
    '/voices/language',
    {
      schema: {
        tags,
        summary:
          'Hide a whole language or show it again, and set the voice the convertor and the API start on for it',
        security: bearer,
        body: AdminLanguageInputSchema,
        response: { 200: AdminVoiceCatalogueSchema, ...errors },
      },
    },
    async (request, reply) => {
      const code = request.body.language_code.toLowerCase();
      const { hidden, default_voice_id: defaultVoice } = request.body;
      const [languages, rules] = await Promise.all([options.speech.listVoices(), settings.rules()]);
      const language = languageOf(languages, code);
      if (!language) {
        return refuse(reply, 400, 'language_code', ADMIN_VOICE_MESSAGES.unknownLanguage(code));
      }
      if (defaultVoice) {
        if (!language.voices.some((voice) => voice.id === defaultVoice)) {
          const message = ADMIN_VOICE_MESSAGES.defaultNotOfLanguage(defaultVoice, code);
          return refuse(reply, 400, 'default_voice_id', message);
        }
        if (rules.hiddenVoices.has(defaultVoice)) {
          const message = ADMIN_VOICE_MESSAGES.defaultHidden(defaultVoice);
          return refuse(reply, 400, 'default_voice_id', message);
        }
      }
      await db.transaction().execute(async (trx) => {
        const repository = createVoiceSettingsRepository(trx);
        const before = await repository.language(code);
        const after = {
          hidden: hidden ?? before.hidden,
          default_voice_id: defaultVoice === undefined ? before.default_voice_id : defaultVoice,
        };
        await repository.setLanguage(code, after);
        await createAuditLog(trx).record({
          actor: actorOf(request),
          action: 'language.settings',
          targetType: 'language',
          targetId: code,
          before,
          after,
        });
      });
      await settings.changed();
      return catalogue();
    },
  );

  app.get(
    '/voices/available',
    {
      schema: {
        tags,
        summary:
          "Natural voices that can be installed: sherpa-onnx's Kokoro models and Piper's catalogue (PIPER_VOICES_URL)",
        security: bearer,
        response: { 200: AdminAvailableVoicesSchema, ...errors },
      },
    },
    async () => availableVoices(voicesDir, options.piperBase),
  );

  app.get(
    '/voices/install',
    {
      schema: {
        tags,
        summary: "This server's voice install: its progress, or how the last one ended",
        security: bearer,
        response: { 200: AdminVoiceInstallStateSchema, ...errors },
      },
    },
    async () => installer.consoleInstall(),
  );

  app.post(
    '/voices/install',
    {
      schema: {
        tags,
        summary:
          'Start installing a Kokoro model or a voice of Piper’s catalogue in the background (one at a time per server); follow it with GET',
        security: bearer,
        body: AdminInstallInputSchema,
        response: { 202: AdminVoiceInstallStateSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { name } = request.body;
      if (!kokoroModel(name)) {
        let known = false;
        try {
          known = (await fetchCatalogue(options.piperBase)).some(
            (voice) => voice.key === name || voice.aliases?.includes(name),
          );
        } catch (error) {
          const message = ADMIN_VOICE_MESSAGES.catalogueUnreachable((error as Error).message);
          return refuse(reply, 409, 'name', message);
        }
        if (!known) return refuse(reply, 400, 'name', ADMIN_VOICE_MESSAGES.unknownInstall(name));
      }
      if ((await installedVoices(voicesDir)).some((voice) => voice.name === name)) {
        return refuse(reply, 409, 'name', ADMIN_VOICE_MESSAGES.alreadyInstalled(name));
      }
      const started = installer.install(name);
      if (!started.started) {
        return reply.code(409).send({ message: ADMIN_VOICE_MESSAGES.installBusy(started.busy) });
      }
      await createAuditLog(db).record({
        actor: actorOf(request),
        action: 'voice.install',
        targetType: 'voice',
        targetId: name,
        before: null,
        after: { installing: name },
      });
      return reply.code(202).send(installer.consoleInstall());
    },
  );

  app.delete(
    '/voices/install',
    {
      schema: {
        tags,
        summary: "Cancel this server's voice install (its partial download is kept to resume)",
        security: bearer,
        response: { 200: AdminVoiceInstallStateSchema, ...errors },
      },
    },
    async () => {
      installer.cancel();
      return installer.consoleInstall();
    },
  );

  app.delete(
    '/voices/installed/:name',
    {
      schema: {
        tags,
        summary:
          'Remove an installed natural voice: its files leave VOICES_DIR, its voices the catalogue',
        security: bearer,
        params: AdminInstalledParamsSchema,
        response: { 200: AdminVoiceCatalogueSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const installed = (await installedVoices(voicesDir)).find((voice) => voice.name === name);
      if (!installed) {
        return reply.code(404).send({ message: ADMIN_VOICE_MESSAGES.notInstalled(name) });
      }
      const current = installer.consoleInstall();
      if (current.state === 'installing' && current.name === name) {
        return refuse(reply, 409, 'name', ADMIN_VOICE_MESSAGES.installingNow(name));
      }
      await removeVoice(voicesDir, name);
      await createAuditLog(db).record({
        actor: actorOf(request),
        action: 'voice.remove',
        targetType: 'voice',
        targetId: name,
        before: installed,
        after: null,
      });
      return catalogue();
    },
  );
};
