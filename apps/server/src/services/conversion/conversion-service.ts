import { createHash, randomUUID } from 'node:crypto';
import {
  ADMIN_PLAN_MESSAGES,
  CONVERSIONS_AT_ONCE,
  type ConvertResult,
  countCharacters,
  PLAN_TYPES,
  type VoiceSettings,
} from '@parla/contract';
import {
  isClientError,
  MIME_TYPES,
  type PoolCaller,
  SpeechError,
  type SpeechWarning,
} from '@parla/speech';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import { addressKey } from '../../lib/limits.js';
import type { Metrics } from '../../lib/metrics.js';
import type { SpeechService, StoredSynthesis } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { createUsageLog } from '../admin/usage-log.js';
import type { LexiconRepository } from '../lexicons/lexicon-repository.js';
import { type PlanStore, termsOfUser } from '../plans/plan-store.js';
import { createConversionRepository, RETENTION_MS } from './conversion-repository.js';
import { createIdempotencyRepository } from './idempotency-repository.js';
import { type Charge, createIntentRepository, type IntentLease } from './intent-repository.js';
import { CONVERT_MESSAGES, IDEMPOTENCY_MESSAGES } from './messages.js';
import { createPreviews } from './preview.js';
import { createUsageRepository, type VisitorLimits } from './usage-repository.js';

/** A conversion's answer: its status and SPEC §7 body; `file` and `characters` when it worked. */
export interface Conversion {
  status: 200 | 400 | 402 | 500 | 503;
  body: ConvertResult & { marks_path?: string; subtitles_path?: string };
  /** The audio's file name (`<id>.<format>`) for `ConversionService.audio`. */
  file?: string;
  /** Characters charged. */
  characters?: number;
  /** A 503's seconds to wait before trying again (the Retry-After header). */
  retryAfter?: number;
}

/** Where a request's log lines go (pino's shape, so a request's logger fits). */
export interface ConversionLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Who asks for a conversion: a signed-in user, or an anonymous visitor and its address. */
export interface Caller {
  user: User | undefined;
  /** The visitor's id; asked only of anonymous callers (it may set the visitor's cookie). */
  visitor: () => string;
  ip: string;
  log: ConversionLog;
}

/** A conversion asked for with an Idempotency-Key: made, replayed, or refused. */
export type KeyedConversion =
  | { conversion: Conversion; replayed: boolean }
  | { refused: { status: 400 | 409 | 422; message: string } };

/** Where a conversion's audio is, for whoever serves it. */
export type AudioSource =
  /** Still rendering: its bytes as they come. */
  | { kind: 'live'; id: string; format: string; chunks: AsyncIterable<Uint8Array> }
  /** Stored under `key`; missing there means it expired. */
  | { kind: 'stored'; key: string; contentType: string }
  | { kind: 'failed' }
  | { kind: 'gone' };

export interface ConversionServiceOptions {
  db: Db;
  speech: SpeechService;
  storage: ObjectStorage;
  metrics: Metrics;
  plans: PlanStore;
  /** Read at each visitor's conversion: FREE's terms, which the console may change. */
  visitorLimits: () => Promise<VisitorLimits>;
  /** The lexicons a conversion applies (its `lexicon_names`, or the user's defaults). */
  lexicons: LexiconRepository;
  /** A streamed rendering nobody has read for this long is stopped (default 10 s). */
  abandonedAfterMs?: number;
  /** How long a conversion's charge stays this server's without renewal (default 30 s). */
  intentLeaseMs?: number;
}

/** A streamed rendering nobody has read for this long is stopped. */
const ABANDONED_AFTER_MS = 10_000;
/** A killed server's conversions are refunded this long after its last renewal. */
const INTENT_LEASE_MS = 30_000;

/**
 * Who asks, for the speech queue's fair share: the user, or an anonymous visitor's address
 * (the key the visitor's allowance is counted on besides its cookie, which it could renew).
 */
function speechCaller(caller: Caller): PoolCaller {
  const plan = PLAN_TYPES.find((type) => type === caller.user?.plan_type) ?? 'FREE';
  return {
    key: caller.user ? `user:${caller.user.id}` : `ip:${caller.ip}`,
    maxRequests: CONVERSIONS_AT_ONCE[plan],
  };
}

/** The warnings of a conversion's answer: only when there are some. */
const warned = (warnings: readonly SpeechWarning[]) =>
  warnings.length > 0 ? { warnings: [...warnings] } : {};

const failure = (message: string) => ({ success: false, message, path: null, duration: null });

/**
 * A conversion from validated settings to stored audio, marks and subtitles, as the convertor,
 * the public API and the OpenAI-compatible route make it: the caller's characters spent (and
 * given back when it fails), the speech rendered whole or streamed, its record written, its
 * metrics counted. It knows nothing of HTTP: routes hand it a `Caller` and answer what it
 * returns (docs/decisions/028-conversion-service.md).
 */
export function createConversionService(options: ConversionServiceOptions) {
  const { speech, storage, metrics } = options;
  const abandonedAfterMs = options.abandonedAfterMs ?? ABANDONED_AFTER_MS;
  const usage = createUsageRepository(options.db);
  const conversions = createConversionRepository(options.db, storage);
  const previews = createPreviews(speech, storage);
  const idempotency = createIdempotencyRepository(options.db);
  const intents = createIntentRepository(options.db);
  const usageLog = createUsageLog(options.db);
  // This server's hold on the charges of the conversions it renders, renewed while it lives
  // (only while it has some): a killed server's run out and are refunded (recover).
  const lease: IntentLease = { owner: randomUUID(), ms: options.intentLeaseMs ?? INTENT_LEASE_MS };
  let holding = 0;
  const renewal = setInterval(() => {
    if (holding > 0) intents.renew(lease).catch(() => undefined);
  }, lease.ms / 3);
  renewal.unref();

  type Spent =
    | { ok: false; error: string; status: 400 | 402 }
    | {
        ok: true;
        visitor: string | null;
        /** Gives the characters back (the conversion failed). */
        refund: () => Promise<void>;
        /** The conversion is stored, or keeps its charge: nothing to give back any more. */
        settle: () => Promise<void>;
      };

  /**
   * Records the charge of conversion `id` as an intent under this server's lease, and answers
   * how it ends: refunded, or settled.
   */
  async function held(id: string, charge: Charge, visitor: string | null): Promise<Spent> {
    try {
      await intents.record(id, charge, lease);
    } catch (error) {
      // Not recorded: nothing would give the charge back later, so it goes back now.
      if (charge.userId !== undefined) await usage.refundUser(charge.userId, charge.characters);
      else await usage.refundVisitor(charge.visitorKeys, charge.characters);
      throw error;
    }
    holding += 1;
    let over = false;
    const end = async (how: () => Promise<unknown>) => {
      if (over) return;
      over = true;
      holding -= 1;
      await how();
    };
    return {
      ok: true,
      visitor,
      refund: () => end(() => intents.refund(id)),
      settle: () => end(() => intents.clear(id)),
    };
  }

  /** Spends the characters of conversion `id`; answers how to end its charge, or a failure. */
  async function spend(caller: Caller, characters: number, id: string): Promise<Spent> {
    const { user } = caller;
    const perConvert = user
      ? user.count_characters_per_convert
      : (await options.plans.catalogue()).FREE.count_characters_per_convert;
    if (characters > perConvert) {
      return { ok: false, error: CONVERT_MESSAGES.tooLong(characters, perConvert), status: 400 };
    }
    if (user) {
      const spent = await usage.spendUser(user.id, characters);
      if (!spent.ok) {
        return {
          ok: false,
          error: CONVERT_MESSAGES.noCharactersLeft(spent.remaining),
          status: 402,
        };
      }
      return held(id, { userId: user.id, characters }, null);
    }
    const visitor = caller.visitor();
    const visitorLimits = await options.visitorLimits();
    const keys = [
      { key: `visitor:${visitor}`, limit: visitorLimits.perVisitor },
      { key: `ip:${addressKey(caller.ip)}`, limit: visitorLimits.perIp },
    ];
    const spent = await usage.spendVisitor(keys, characters);
    if (!spent.ok) {
      return { ok: false, error: CONVERT_MESSAGES.noCharactersLeft(spent.remaining), status: 402 };
    }
    return held(id, { visitorKeys: keys.map((k) => k.key), characters }, visitor);
  }

  const timings = (id: string) => ({
    marks_path: `/api/convertor/marks/${id}`,
    subtitles_path: `/api/convertor/subtitles/${id}`,
  });

  /**
   * One conversion, charged, rendered (whole, or streamed: answered at its first bytes) and
   * recorded.
   */
  async function convert(
    caller: Caller,
    settings: VoiceSettings,
    { stream }: { stream: boolean },
  ): Promise<Conversion> {
    const { user } = caller;
    const characters = countCharacters(settings.text);
    const { engine, output_format: format } = settings;
    // The engines of the caller's plan (as bought; a visitor has FREE's), before any charge.
    const catalogue = await options.plans.catalogue();
    if (!(user ? termsOfUser(user, catalogue) : catalogue.FREE).engines.includes(engine)) {
      metrics.conversions.inc({ engine, outcome: 'refused' });
      const plan = user?.plan_type ?? 'FREE';
      return { status: 400, body: failure(ADMIN_PLAN_MESSAGES.engineNotInPlan(engine, plan)) };
    }
    // Lexicons first: a name that is not the caller's is refused before anything is charged.
    const resolved = await options.lexicons.resolve(
      user?.id,
      settings.lexicon_names,
      settings.text,
    );
    if (!resolved.ok) {
      metrics.conversions.inc({ engine, outcome: 'refused' });
      return { status: 400, body: failure(resolved.message) };
    }
    const rules = { lexicons: resolved.lexicons, caller: speechCaller(caller) };
    const id = conversions.newId();
    const spent = await spend(caller, characters, id);
    if (!spent.ok) {
      metrics.conversions.inc({ engine, outcome: 'refused' });
      return { status: spent.status, body: failure(spent.error) };
    }
    const started = performance.now();
    const key = conversions.key(id, format);
    /** The console's record of how it ended (decision 053); never fails the conversion. */
    const logUsage = (status: 'succeeded' | 'failed', duration: number) =>
      usageLog
        .record({
          source: 'conversion',
          status,
          userId: user?.id ?? null,
          engine,
          voice: settings.voice_id,
          language: settings.language_code,
          characters,
          duration,
        })
        .catch((error: unknown) => caller.log.warn({ err: error }, 'usage not logged'));
    /** The conversion rendered: its record, so its audio and marks are found later. */
    const record = async (result: StoredSynthesis) => {
      const stored = await conversions.create({
        id,
        userId: user?.id ?? null,
        visitorId: spent.visitor,
        format: result.format,
        mimeType: result.mimeType,
        size: result.size,
        duration: result.duration,
        characters,
      });
      await spent.settle();
      await logUsage('succeeded', result.duration);
      metrics.conversions.inc({ engine, outcome: 'success' });
      metrics.characters.inc({ engine }, characters);
      metrics.synthesisSeconds.observe({ engine }, (performance.now() - started) / 1000);
      metrics.audioSeconds.inc({ engine }, result.duration);
      metrics.queueWait.observe(result.queuedSeconds);
      if (result.cached) metrics.cacheHits.inc({ engine });
      return stored;
    };
    /**
     * A conversion that failed: the characters back, unless rendering ran until it was stopped
     * (past its time or its audio bound: the work was done, and a retry is not free), and an
     * answer that says whose fault.
     */
    const failed = async (error: unknown): Promise<Conversion> => {
      if (!(error instanceof SpeechError && error.spent)) await spent.refund();
      if (error instanceof SpeechError && error.code === 'busy') {
        // Refused before rendering, like a spent allowance: not a failure of the service.
        metrics.conversions.inc({ engine, outcome: 'refused' });
        return {
          status: 503,
          body: failure(error.message),
          retryAfter: error.retryAfterSeconds ?? 1,
        };
      }
      metrics.conversionFailed(engine, error instanceof SpeechError ? error.code : 'internal');
      // Bad input, an unknown voice or a limit: the client's to fix, and the message says
      // what. Anything else is ours: logged, and answered without its internals.
      if (error instanceof SpeechError && isClientError(error.code)) {
        return { status: 400 as const, body: failure(error.message) };
      }
      await logUsage('failed', 0);
      if (error instanceof SpeechError && error.code === 'provider_unavailable') {
        caller.log.warn({ err: error }, 'voice provider failed');
        return { status: 503 as const, body: failure(error.message) };
      }
      caller.log.error({ err: error }, 'conversion failed');
      return { status: 500 as const, body: failure(CONVERT_MESSAGES.failed) };
    };

    if (stream) {
      // Answered as soon as the first bytes are out; the rest plays as it is rendered
      // (docs/decisions/018-streamed-conversions.md).
      const rendering = speech.renderLive(settings, key, id, rules);
      let answered = false;
      void rendering.done
        .then(record, async (error: unknown) => {
          // Before the answer, the failure is answered below; a rendering its listeners
          // abandoned keeps its charge (the audio was asked for, as a whole file would be).
          if (!answered) return;
          if (await speech.live.abandoned(id)) await spent.settle();
          else await failed(error);
        })
        .catch((error: unknown) => caller.log.error({ err: error }, 'streamed conversion'));
      let warnings: SpeechWarning[];
      try {
        warnings = await rendering.first;
      } catch (error) {
        return failed(error);
      }
      answered = true;
      const file = conversions.fileName(id, format);
      return {
        status: 200,
        body: {
          success: true,
          message: CONVERT_MESSAGES.converted,
          path: `/api/convertor/audio/${file}`,
          duration: null,
          streaming: true,
          ...timings(id),
          ...warned(warnings),
        },
        file,
        characters,
      };
    }

    try {
      const result = await speech.render(settings, key, rules);
      const stored = await record(result);
      return {
        status: 200,
        body: {
          success: true,
          message: CONVERT_MESSAGES.converted,
          path: `/api/convertor/audio/${stored.file}`,
          duration: result.duration,
          ...timings(id),
          ...warned(result.warnings),
        },
        file: stored.file,
        characters,
      };
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * A conversion made at most once per user and Idempotency-Key: a retry of the same request
   * gets the first answer again, charged once; the key with another request is refused, and
   * a failed first request frees its key.
   */
  async function convertOnce(
    caller: Caller,
    settings: VoiceSettings,
    { stream }: { stream: boolean },
    key: string,
  ): Promise<KeyedConversion> {
    const { user } = caller;
    if (!user)
      return { refused: { status: 400, message: IDEMPOTENCY_MESSAGES.idempotencyNeedsUser } };
    const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    if (!(await idempotency.claim(user.id, key, fingerprint))) {
      const first = await idempotency.find(user.id, key);
      if (first && first.fingerprint !== fingerprint) {
        return { refused: { status: 422, message: IDEMPOTENCY_MESSAGES.idempotencyReused } };
      }
      const done = first?.conversion_id ? await describe(first.conversion_id) : undefined;
      const [firstId = ''] = (first?.conversion_id ?? '').split('.');
      if (!done && firstId && (await intents.state(firstId)) === 'refunded') {
        // Answered, then its server died before storing it, and it was refunded: the key is
        // free again, and this retry converts (issue 28 item 8).
        await idempotency.release(user.id, key);
        return convertOnce(caller, settings, { stream }, key);
      }
      if (!done)
        return { refused: { status: 409, message: IDEMPOTENCY_MESSAGES.idempotencyRunning } };
      return { conversion: done, replayed: true };
    }
    const conversion = await convert(caller, settings, { stream });
    if (conversion.status === 200 && conversion.file) {
      await idempotency.settle(user.id, key, conversion.file);
    } else {
      await idempotency.release(user.id, key);
    }
    return { conversion, replayed: false };
  }

  /** A finished conversion's answer again (an idempotent retry), or undefined once expired. */
  async function describe(file: string): Promise<Conversion | undefined> {
    const [id = ''] = file.split('.');
    const conversion = await conversions.findLive(id);
    if (!conversion || conversions.fileName(conversion.id, conversion.format) !== file) {
      return undefined;
    }
    return {
      status: 200,
      body: {
        success: true,
        message: CONVERT_MESSAGES.converted,
        path: `/api/convertor/audio/${file}`,
        duration: conversion.duration,
        ...timings(id),
      },
      file,
      characters: conversion.characters,
    };
  }

  /** Where the audio `<id>.<format>` is: stored, still rendering (streamed), failed or gone. */
  async function audio(file: string): Promise<AudioSource> {
    const [id = '', format = ''] = file.split('.');
    const conversion = await conversions.findLive(id);
    // No record yet: it may be rendering as a stream, or have just ended, its file stored a
    // moment before its record.
    if (!conversion && /^(mp3|ogg|wav)$/.test(format)) {
      const state = await speech.live.state(id);
      const chunks = state === 'live' ? await speech.live.read(id) : undefined;
      if (chunks) return { kind: 'live', id, format, chunks };
      // Failed, or charged and never stored: its server died (and the charge was refunded).
      if (state === 'failed' || (state === undefined && (await intents.state(id)))) {
        return { kind: 'failed' };
      }
      if (state === 'ended') {
        return {
          kind: 'stored',
          key: conversions.key(id, format),
          contentType: MIME_TYPES[format as keyof typeof MIME_TYPES],
        };
      }
    }
    if (!conversion || conversions.fileName(conversion.id, conversion.format) !== file) {
      return { kind: 'gone' };
    }
    return {
      kind: 'stored',
      key: conversions.key(conversion.id, conversion.format),
      contentType: conversion.mime_type,
    };
  }

  /**
   * A listener of a streamed rendering, counted on every server; the returned function says
   * it left. The last listener gone before the end stops the rendering, but only once nobody
   * came back for a while: a player that seeks or reconnects comes back at once.
   */
  async function listen(id: string): Promise<(finished: boolean) => Promise<void>> {
    await speech.live.attach(id);
    return async (finished) => {
      const left = await speech.live.detach(id);
      if (finished || left > 0) return;
      setTimeout(async () => {
        if ((await speech.live.readers(id)) === 0 && (await speech.live.state(id)) === 'live') {
          await speech.live.abandon(id);
        }
      }, abandonedAfterMs).unref();
    };
  }

  /** A finished conversion's audio key, duration and download name (for its marks). */
  async function rendering(id: string) {
    const conversion = await conversions.findLive(id);
    return (
      conversion && {
        audioKey: conversions.key(conversion.id, conversion.format),
        duration: conversion.duration,
        name: `parla-${conversion.id}`,
      }
    );
  }

  /**
   * The speech marks so far of a conversion that is still rendering as a stream (or whose
   * rendering ended a moment before its record): undefined for any other.
   */
  async function liveMarks(id: string) {
    return (await conversions.findLive(id)) ? undefined : speech.live.marks(id);
  }

  return {
    convert,
    convertOnce,
    describe,
    audio,
    listen,
    rendering,
    liveMarks,
    /** A voice's free sample (mp3 bytes), or undefined for an unknown voice. */
    preview: previews.read,
    /** Languages with their voices, as the catalogue offers them now. */
    voices: () => speech.listVoices(),
    /** Removes expired audio with its marks; answers how many. */
    async purgeExpired() {
      await intents.purgeRefunded(new Date(Date.now() - RETENTION_MS.user));
      return conversions.purgeExpired();
    },
    /**
     * Refunds the conversions of servers that died rendering them (their leases ran out);
     * answers how many. Run at start and on a schedule.
     */
    recover: () => intents.refundExpired(),
    /** Stops renewing this server's leases (its conversions are over or handed back). */
    close: () => clearInterval(renewal),
  };
}

export type ConversionService = ReturnType<typeof createConversionService>;
