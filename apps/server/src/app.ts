import { createHmac, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { catalogueSummary, naturalVoiceCount } from '@parla/speech';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { createDatabase, type Db, migrateToLatest } from './db/database.js';
import { apiKeyRoutes } from './features/account/api-keys.js';
import { accountRoutes } from './features/account/routes.js';
import { adminRoutes } from './features/admin/routes.js';
import { openAiRoutes } from './features/api/openai.js';
import { publicApiRoutes } from './features/api/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { contentRoutes } from './features/content/routes.js';
import { convertorRoutes } from './features/convertor/routes.js';
import { fileRoutes } from './features/file/routes.js';
import { healthRoutes, probeFallbackRoutes } from './features/health/routes.js';
import { type JobRoutesOptions, jobRoutes } from './features/jobs/routes.js';
import { lexiconRoutes } from './features/lexicons/routes.js';
import { mailRoutes } from './features/mail/routes.js';
import { invoiceRoutes } from './features/payment/invoice-routes.js';
import { paymentRoutes } from './features/payment/routes.js';
import { createStripePaymentProvider } from './features/payment/stripe-provider.js';
import { createTestPaymentProvider } from './features/payment/test-provider.js';
import { planRoutes } from './features/plan/routes.js';
import { createIndexRenderer, seoRoutes, seoSiteRoutes } from './features/seo/routes.js';
import { createShellWriter } from './features/seo/shell.js';
import { type AbuseLimits, CONVERSIONS_PER_MINUTE, DEFAULT_ABUSE_LIMITS } from './lib/limits.js';
import { createMailer, type Mailer } from './lib/mail/mailer.js';
import { createMetrics } from './lib/metrics.js';
import { REDIS_COMMAND_TIMEOUT_MS, RedisClients } from './lib/redis.js';
import { createScheduler } from './lib/schedule.js';
import { createSpeechService, type SpeechService } from './lib/speech.js';
import { createStorage, storageName, storageNameKey } from './lib/storage/from-config.js';
import { type ObjectStorage, within } from './lib/storage/storage.js';
import { TokenService } from './lib/tokens.js';
import { authPlugin } from './plugins/auth.js';
import { connectionOptions, limitConnections } from './plugins/connections.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { metricsPlugin } from './plugins/metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { type ConversionsPerMinute, rateLimitPlugin } from './plugins/rate-limit.js';
import { loggerOptions } from './plugins/request-log.js';
import { securityPlugin } from './plugins/security.js';
import { webAppPlugin } from './plugins/web-app.js';
import { createContentDocuments } from './services/content/documents.js';
import { createContentImages } from './services/content/images.js';
import { DEFAULT_CONTENT_DIR } from './services/content/loader.js';
import { createContentStore } from './services/content/repository.js';
import { seedContent } from './services/content/seed-repository.js';
import { createConversionService } from './services/conversion/conversion-service.js';
import type { VisitorLimits } from './services/conversion/usage-repository.js';
import { createLexiconRepository } from './services/lexicons/lexicon-repository.js';
import type { PaymentProvider } from './services/payments/payment-provider.js';
import type { PlanCatalogue } from './services/plans/plan-catalogue.js';
import { createPlanStore, type PlanStore, seedPlans } from './services/plans/plan-store.js';
import { createVoiceInstaller } from './services/voice-installer.js';
import { createVoiceSettings, withVoiceSettings } from './services/voices/voice-settings.js';

export interface BuildAppOptions {
  config: Config;
  /** The built web app; defaults to apps/web/dist beside this package. */
  webRoot?: string;
  /** Limits of the routes bots target (login, register, …); tests lower them. */
  abuseLimits?: AbuseLimits;
  /** Conversions per minute by plan (lib/limits.ts); a number sets every plan's (tests). */
  conversionsPerMinute?: number | typeof CONVERSIONS_PER_MINUTE;
  /**
   * Anonymous allowances; default: the FREE plan's (in the database at start) per visitor,
   * five times that per IP.
   */
  visitorLimits?: VisitorLimits;
  /** The content tree seeded at start (features/content); defaults to content/ of the repository. */
  contentDir?: string;
  /**
   * The seed of the plans table where it lacks a plan; defaults to the configuration's (PLAN_*
   * over the defaults). The console edits the table (decision 055).
   */
  plans?: PlanCatalogue;
  /** Defaults to Stripe with STRIPE_SECRET_KEY, else the built-in test provider. */
  paymentProvider?: PaymentProvider;
  /** Converted audio and saved files; defaults to config.storage (S3 or DATA_DIR/files). */
  storage?: ObjectStorage;
  /** The clock of the saved-file purge and the login delay; tests move it. */
  now?: () => Date;
  /**
   * Prefix of this installation's keys in Redis (REDIS_URL): limits, speech queue, schedules;
   * defaults to REDIS_PREFIX (config).
   */
  redisPrefix?: string;
  /** The time one rendering may take before it is stopped; default SPEECH_RENDER_TIMEOUT_SECONDS. */
  renderTimeoutMs?: number;
  /** A streamed rendering nobody has read for this long is stopped (default 10 s); tests lower it. */
  streamAbandonedAfterMs?: number;
  /** How often drafts scheduled for publication are looked for (default 30 s); tests shorten it. */
  contentPublicationEveryMs?: number;
  /** The job runner's lease and polling (features/jobs/runner.ts); tests shorten them. */
  jobRunner?: JobRoutesOptions['runner'];
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: NodeJS.WritableStream;
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));
/** src/app.ts and dist/app.js are both three levels below the repository root. */
/** JSON bodies are small; audio uploads (multipart) set their own limit on their route. */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface App extends FastifyInstance {
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  /** The plans' terms this app enforces, as the console left them. */
  plans: PlanStore;
  /** Shutdown past its grace: hands the speech requests in hand back to the queue. */
  handBack(): Promise<void>;
}

/** Builds the whole product as one Fastify instance; tests use app.inject, server.ts listens. */
export async function buildApp({
  config,
  webRoot = DEFAULT_WEB_ROOT,
  abuseLimits = DEFAULT_ABUSE_LIMITS,
  conversionsPerMinute = CONVERSIONS_PER_MINUTE,
  plans: planSeed = config.plans,
  visitorLimits: givenVisitorLimits,
  contentDir = DEFAULT_CONTENT_DIR,
  paymentProvider,
  storage = createStorage(config.storage),
  now,
  redisPrefix = config.redisPrefix,
  renderTimeoutMs = config.renderTimeoutSeconds * 1000,
  streamAbandonedAfterMs,
  contentPublicationEveryMs = 30_000,
  jobRunner,
  logStream,
}: BuildAppOptions) {
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    ...connectionOptions(config.connections),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: BODY_LIMIT_BYTES,
  }).withTypeProvider<ZodTypeProvider>();
  // JSON bodies must be UTF-8: bytes that are not are refused (400), not read as U+FFFD.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      const error = Object.assign(new Error('The request body is not valid UTF-8.'), {
        statusCode: 400,
      });
      done(error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  limitConnections(app.server as Server, config.connections, app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The request id is in every log line; echoing it lets a user's report be matched to the logs.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const db = createDatabase(config.database, (error) =>
    app.log.warn(
      { err: error },
      'a database connection broke while idle; the next query opens another',
    ),
  );
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  await migrateToLatest(db);
  await seedPlans(db, planSeed);
  const tokens = new TokenService(config.jwtSecret);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: app.log,
  });
  app.addHook('onClose', async () => mailer.close());
  app.addHook('onClose', async () => storage.close());
  // One view of Redis for every client of this process: its outages are logged once.
  const redis = config.redisUrl ? new RedisClients(config.redisUrl, app.log) : undefined;
  const engine: SpeechService = createSpeechService({
    cacheDir: path.join(config.dataDir, 'cache', 'speech'),
    config: config.speech,
    redis,
    queuePrefix: redisPrefix,
    storage,
    renderTimeoutMs,
  });
  app.addHook('onClose', () => engine.close());
  // The operator's hidden voices and languages and default voices (decision 052): everything
  // but the console sees the catalogue through them.
  const voiceSettings = createVoiceSettings(db, { redis, prefix: redisPrefix });
  // The content: seeded from content/ into an empty database, edited in the console, kept in
  // every server's memory and read again on a publication (decision 054).
  const seed = await seedContent(db, contentDir);
  app.log.info({ contentDir, ...seed }, 'content');
  const contentStore = createContentStore(db, { redis, prefix: redisPrefix });
  app.addHook('onClose', () => contentStore.close());
  const contentImages = createContentImages(storage, contentDir);
  const contentDocuments = createContentDocuments(db, {
    imageExists: (name) => contentImages.exists(name),
    ...(now && { now }),
  });
  app.addHook('onClose', () => voiceSettings.close());
  const speech = withVoiceSettings(engine, voiceSettings);
  const plans = createPlanStore(db, { redis, prefix: redisPrefix });
  app.addHook('onClose', () => plans.close());
  // FREE's allowance as the console has it now (a change applies to visitors at once).
  const visitorLimits = async (): Promise<VisitorLimits> => {
    if (givenVisitorLimits) return givenVisitorLimits;
    const free = (await plans.catalogue()).FREE;
    // Several people may share an address (an office, a school): room for a few of them.
    return { perVisitor: free.count_characters, perIp: 5 * free.count_characters };
  };
  const voicesDir = config.speech.piper?.voicesDir ?? path.join(config.dataDir, 'voices');
  // DEFAULT_VOICES install in the background once the server is ready; espeak-ng serves meanwhile.
  const voiceInstaller = createVoiceInstaller({
    voicesDir,
    names: config.defaultVoices.names,
    piperBase: config.defaultVoices.piperBase,
    kokoroBase: config.defaultVoices.kokoroBase,
    log: app.log,
  });
  app.addHook('onReady', async () => voiceInstaller.start());
  app.addHook('onClose', () => voiceInstaller.close());
  const scheduler = createScheduler({
    redis,
    prefix: redisPrefix,
    log: app.log,
  });
  app.addHook('onReady', () => scheduler.start());
  app.addHook('onClose', () => scheduler.close());
  const metrics = createMetrics();
  // The counts the site shows (content, and the web app's static shell) are the catalogue's.
  const catalogueCounts = async () => {
    const languages = await speech.listVoices();
    return { ...catalogueSummary(languages), natural: naturalVoiceCount(languages) };
  };
  if (config.redisUrl) metrics.watchQueue(() => speech.queueCounts());
  const readiness = redis?.connection();
  app.addHook('onClose', async () => readiness?.disconnect());
  if (readiness) {
    // The speech workers check that they store audio where the servers read it (cli.ts).
    // Not awaited: a server starts while Redis is away, and says it when Redis is back.
    app.addHook('onReady', async () => {
      readiness
        .set(storageNameKey(redisPrefix), storageName(config.storage))
        .catch((error: unknown) => app.log.error({ err: error }, 'storage not announced'));
    });
  }
  const payments =
    paymentProvider ??
    (config.stripe.secretKey
      ? createStripePaymentProvider({
          secretKey: config.stripe.secretKey,
          ...(config.stripe.webhookSecret && { webhookSecret: config.stripe.webhookSecret }),
          ...(config.stripe.apiUrl && { apiUrl: config.stripe.apiUrl }),
        })
      : createTestPaymentProvider());
  app.log.info({ provider: payments.kind }, 'card payments');
  app.decorate('db', db);
  app.decorate('handBack', () => speech.handBack());
  app.decorate('tokens', tokens);
  app.decorate('mailer', mailer);
  app.decorate('plans', plans);

  await app.register(errorHandlerPlugin);
  // Cookies are signed with a key derived from the JWT secret, never with the secret itself.
  await app.register(cookie, {
    secret: createHmac('sha256', config.jwtSecret).update('parla cookies').digest('base64url'),
  });
  await app.register(securityPlugin, {
    stripe: Boolean(config.stripe.publishableKey),
    corsOrigins: config.corsOrigins,
  });
  await app.register(openApiPlugin);
  await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  await app.register(authPlugin, { db, tokens });
  // With REDIS_URL every limit is counted in Redis: N servers enforce one limit.
  // One retry: while Redis is down a limited request fails at once rather than hanging, and
  // a hung Redis fails it after the command timeout (answered 503, plugins/error-handler.ts).
  const limitsRedis = redis?.connection({
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  if (limitsRedis) app.addHook('onClose', async () => void (await limitsRedis.quit()));
  await app.register(rateLimitPlugin, {
    ...(limitsRedis && { redis: limitsRedis }),
    nameSpace: `${redisPrefix}:rate-limit:`,
  });

  const perMinute: ConversionsPerMinute =
    typeof conversionsPerMinute === 'number'
      ? {
          anonymous: conversionsPerMinute,
          FREE: conversionsPerMinute,
          BASIC: conversionsPerMinute,
          PREMIUM: conversionsPerMinute,
          BUSINESS: conversionsPerMinute,
        }
      : conversionsPerMinute;
  // Pronunciation lexicons: managed by their routes, applied by every conversion and job.
  const lexicons = createLexiconRepository(db, now);
  // One conversion service for the convertor, the public API and OpenAI's route.
  const conversions = createConversionService({
    db,
    lexicons,
    speech,
    storage,
    metrics,
    plans,
    visitorLimits,
    ...(streamAbandonedAfterMs !== undefined && { abandonedAfterMs: streamAbandonedAfterMs }),
  });
  app.addHook('onClose', async () => conversions.close());
  // Conversions charged by a server that was killed before storing them: refunded once its
  // lease ran out, at start and then every lease (docs/decisions/037).
  scheduler.every('conversion-recovery', 30_000, async () => {
    const count = await conversions.recover();
    if (count > 0) app.log.warn({ count }, 'conversions of a stopped server refunded');
  });
  scheduler.every('content-publication', contentPublicationEveryMs, async () => {
    const count = await contentDocuments.publishDue();
    if (count > 0) {
      await contentStore.changed();
      app.log.info({ count }, 'scheduled content published');
    }
  });
  scheduler.every('audio-expiry', 5 * 60 * 1000, async () => {
    const count = await conversions.purgeExpired();
    if (count > 0) app.log.info({ count }, 'expired audio removed');
  });

  await app.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) =>
        reply.code(404).send({ message: `No such API route: ${request.method} ${request.url}` }),
      );
      await api.register(healthRoutes, {
        db,
        services: {
          ...(readiness && { redis: async () => void (await readiness.ping()) }),
          ...(storage.kind === 's3' && { storage: () => storage.check() }),
        },
        providers: () => speech.providers(),
        ...(config.defaultVoices.names.length > 0 && {
          voices: () => ({ installing: voiceInstaller.installing() }),
        }),
      });
      await api.register(authRoutes, {
        prefix: '/auth',
        db,
        mailer,
        tokens,
        publicUrl: config.publicUrl,
        limits: abuseLimits,
        plans,
        ...(now && { now }),
      });
      await api.register(accountRoutes, {
        prefix: '/account',
        db,
        mailer,
        tokens,
        publicUrl: config.publicUrl,
        storage,
        plans,
      });
      await api.register(apiKeyRoutes, { prefix: '/account/api_keys', db });
      await api.register(convertorRoutes, {
        prefix: '/convertor',
        conversions,
        storage,
        conversionsPerMinute: perMinute,
      });
      await api.register(publicApiRoutes, {
        prefix: '/v1',
        conversions,
        storage,
        conversionsPerMinute: perMinute,
      });
      await api.register(lexiconRoutes, { prefix: '/lexicons', lexicons });
      await api.register(jobRoutes, {
        prefix: '/jobs',
        db,
        lexicons,
        speech,
        storage,
        scheduler,
        plans,
        ...(now && { now }),
        runner: {
          concurrency: config.jobConcurrency,
          enabled: config.runJobs,
          leaseMs: config.jobLeaseSeconds * 1000,
          mailer,
          publicUrl: config.publicUrl,
          ...jobRunner,
        },
      });
      await api.register(planRoutes, { prefix: '/plan', plans });
      await api.register(paymentRoutes, {
        prefix: '/plan',
        db,
        provider: payments,
        plans,
        mailer,
        ...(config.stripe.publishableKey && { publishableKey: config.stripe.publishableKey }),
      });
      await api.register(invoiceRoutes, {
        prefix: '/plan',
        db,
        plans,
        company: config.company,
      });
      await api.register(fileRoutes, {
        prefix: '/file',
        db,
        storage: within(storage, 'saved'),
        speech,
        scheduler,
        plans,
        ...(now && { now }),
      });
      await api.register(contentRoutes, {
        prefix: '/content',
        store: contentStore,
        images: contentImages,
        catalogueCounts,
      });
      await api.register(seoRoutes, {
        prefix: '/seo',
        store: contentStore,
        publicUrl: config.publicUrl,
        catalogueCounts,
      });
      await api.register(adminRoutes, {
        prefix: '/admin',
        db,
        mailer,
        publicUrl: config.publicUrl,
        storage,
        plans,
        provider: payments,
        company: config.company,
        overview: { speech, metrics, redis: Boolean(config.redisUrl) },
        voices: {
          speech: engine,
          settings: voiceSettings,
          installer: voiceInstaller,
          voicesDir,
          piperBase: config.defaultVoices.piperBase,
        },
        content: {
          documents: contentDocuments,
          store: contentStore,
          images: contentImages,
          catalogueCounts,
        },
      });
      await api.register(mailRoutes, {
        prefix: '/mail',
        db,
        mailer,
        contactEmail: config.contactEmail,
        limits: abuseLimits,
      });
    },
    { prefix: '/api' },
  );
  // OpenAI's speech endpoint at its own path (/v1/audio/speech), for OpenAI's SDKs.
  await app.register(openAiRoutes, {
    prefix: '/v1',
    conversions,
    storage,
    conversionsPerMinute: perMinute,
  });
  await app.register(probeFallbackRoutes);
  await app.register(seoSiteRoutes, { store: contentStore, publicUrl: config.publicUrl });
  await app.register(webAppPlugin, {
    root: webRoot,
    renderIndex: createIndexRenderer(contentStore, config.publicUrl, {
      catalogueCounts,
      writeShell: createShellWriter(webRoot, catalogueCounts),
    }),
  });
  return app as unknown as App & typeof app;
}
