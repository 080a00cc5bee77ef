import type {
  PollyClient,
  Engine as PollyEngineName,
  Voice as PollyVoice,
  VoiceId,
} from '@aws-sdk/client-polly';
import type { VoiceEffect } from '@parla/contract';
import { applyGain, concat } from '../../dsp/dsp.js';
import { pitchShift } from '../../dsp/pitch.js';
import { resample } from '../../dsp/resample.js';
import { decodeOggVorbis } from '../../encode/decoders.js';
import { SpeechError } from '../../errors.js';
import { escapeXml } from '../../ssml/parser.js';
import {
  CachedList,
  ProviderFailure,
  type RemoteLimits,
  RemoteProvider,
} from '../remote/provider.js';
import { partsToSsml, splitRate, splitRun, stretchBeyond } from '../remote/segment.js';
import type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Run,
  RunItem,
  SpeechEngine,
} from '../types.js';
import { runOfSegment } from '../types.js';

/**
 * Amazon Polly through the official SDK (@aws-sdk/client-polly), docs/voices.md. Its voices
 * appear under the product's two engines by Polly's own: `standard:polly:<Id>` for its
 * standard engine, `neural:polly:<Id>` for neural, and `neural:polly:<Id>~long-form` /
 * `~generative` for those engines (marked in the name). Each segment goes to Polly as Polly
 * SSML in calls of at most 3,000 billed characters; its Ogg Vorbis at the engine's best rate
 * (Polly's PCM stops at 16 kHz) is decoded, and its speech marks (words, `<mark>`s) give the
 * times. Decision 020.
 */
export interface PollyConfig extends RemoteLimits {
  region: string;
  /** Another address for Polly's API (a local test server). */
  endpoint?: string;
  /** Explicit keys; without them the SDK's default chain (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Polly bills, and accepts per call, at most this many characters of text (tags excluded). */
export const POLLY_MAX_BILLED = 3000;
/**
 * The rate asked of Polly's `ogg_vorbis`, by product engine: its standard voices' best is
 * 22,050 Hz, its neural, long-form and generative voices' 24,000 Hz (its PCM stops at 16 kHz).
 */
const POLLY_RATES = { standard: 22_050, neural: 24_000 } as const;
/** Polly's `<prosody rate>` range, 20 % to 200 %. */
const RATE_RANGE = [0.2, 2] as const;
/** The loudest `<prosody volume>` Polly takes; more is our gain. */
const POLLY_MAX_GAIN = 6;
/** The effects SPEC §9 takes from Polly; they exist on its standard voices only. */
const STANDARD_EFFECTS: readonly VoiceEffect[] = ['breathing', 'soft', 'whispered'];

const TIERS = [
  { engine: 'standard', polly: 'standard', suffix: '', label: '' },
  { engine: 'neural', polly: 'neural', suffix: '', label: '' },
  { engine: 'neural', polly: 'long-form', suffix: '~long-form', label: ' (long-form)' },
  { engine: 'neural', polly: 'generative', suffix: '~generative', label: ' (generative)' },
] as const;

interface Listed {
  voice: EngineVoice;
  pollyId: string;
  pollyEngine: PollyEngineName;
}

function capabilities(standard: boolean): EngineCapabilities {
  return {
    // Polly's neural voices take no `<prosody pitch>`: signal processing moves theirs.
    pitch: true,
    emphasis: standard,
    rate: true,
    effects: standard ? STANDARD_EFFECTS : [],
    nativeSsml: standard
      ? [
          'prosody',
          'emphasis',
          'say-as interpret-as="characters"',
          'phoneme',
          'mark',
          'amazon:effect',
        ]
      : ['prosody', 'say-as interpret-as="characters"', 'phoneme', 'mark'],
    wordTimings: true,
    // `<phoneme alphabet="ipa">` in the SSML it is sent (remote/segment.ts).
    phonemes: true,
    engineName: 'Amazon Polly',
    maxTextPerCall: POLLY_MAX_BILLED,
  };
}

/** The SDK, loaded when Polly is first called (a command that renders espeak-ng never does). */
type PollySdk = typeof import('@aws-sdk/client-polly');

/** Sorts an SDK failure into what we tell people. */
function failureOf(sdk: PollySdk, error: unknown): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  if (error instanceof sdk.PollyServiceException) {
    const status = error.$metadata.httpStatusCode ?? 500;
    const detail = `${error.name}: ${error.message}`;
    if (status === 429 || /Throttl|TooManyRequests|LimitExceeded/.test(error.name)) {
      return new ProviderFailure('throttled', detail);
    }
    if (
      status === 401 ||
      status === 403 ||
      /Signature|Unrecognized|AccessDenied|Token/.test(error.name)
    ) {
      return new ProviderFailure('credentials', detail);
    }
    return new ProviderFailure(status < 500 ? 'refused' : 'down', detail);
  }
  return new ProviderFailure('down', error instanceof Error ? error.message : String(error));
}

/** Polly's longest `<break>`: a longer pause is said as several. */
const POLLY_MAX_BREAK_MS = 10_000;

type SpeechItem = Extract<RunItem, { kind: 'speech' }>;

/** The `<prosody>` of one speech item, as Polly takes it (no pitch on its neural voices). */
function prosodyOf(item: SpeechItem, standard: boolean): string {
  const prosody = [`rate="${Math.round(splitRate(item.rate, ...RATE_RANGE).provider * 100)}%"`];
  if (standard && Math.abs(item.pitch) >= 0.01) {
    const percent = Math.round((2 ** (item.pitch / 12) - 1) * 100);
    prosody.push(`pitch="${percent >= 0 ? '+' : ''}${percent}%"`);
  }
  if (Math.abs(item.volume) >= 0.01) {
    const db = Math.round(Math.min(POLLY_MAX_GAIN, item.volume) * 10) / 10;
    prosody.push(`volume="${db >= 0 ? '+' : ''}${db}dB"`);
  }
  return prosody.join(' ');
}

/** One speech item in Polly SSML: its parts inside its `<prosody>`. */
function itemSsml(item: SpeechItem, standard: boolean): string {
  const body = partsToSsml(item.parts, {
    emphasis: standard,
    mark: (name) => `<mark name="${escapeXml(name)}"/>`,
  });
  return `<prosody ${prosodyOf(item, standard)}>${body}</prosody>`;
}

/**
 * The Polly SSML of one call: each speech item in its `<prosody>` (neighbours with the same
 * one share it), each break a `<break>` (made `stretch` times shorter when the audio is
 * stretched after), the effect around it all.
 */
export function pollySsml(
  items: readonly RunItem[],
  effect: VoiceEffect | undefined,
  standard: boolean,
  stretch = 1,
): string {
  const pieces: string[] = [];
  let open: string | undefined;
  let words: string[] = [];
  const close = () => {
    if (open !== undefined) pieces.push(`<prosody ${open}>${words.join(' ')}</prosody>`);
    open = undefined;
    words = [];
  };
  for (const item of items) {
    if (item.kind === 'break') {
      close();
      let ms = Math.round((item.seconds * 1000) / stretch);
      while (ms > 0) {
        pieces.push(`<break time="${Math.min(ms, POLLY_MAX_BREAK_MS)}ms"/>`);
        ms -= POLLY_MAX_BREAK_MS;
      }
      continue;
    }
    const prosody = prosodyOf(item, standard);
    if (prosody !== open) close();
    open = prosody;
    words.push(
      partsToSsml(item.parts, {
        emphasis: standard,
        mark: (name) => `<mark name="${escapeXml(name)}"/>`,
      }),
    );
  }
  close();
  // Punctuation after a change of prosody joins the word before it ("loudly</prosody>.").
  let body = pieces.join(' ').replace(/ (<prosody [^>]*>[,.;:!?])/g, '$1');
  if (standard && effect === 'whispered') {
    body = `<amazon:effect name="whispered">${body}</amazon:effect>`;
  } else if (standard && effect === 'soft') {
    body = `<amazon:effect phonation="soft">${body}</amazon:effect>`;
  } else if (standard && effect === 'breathing') {
    body = `<amazon:auto-breaths>${body}</amazon:auto-breaths>`;
  }
  return `<speak>${body}</speak>`;
}

/**
 * What a call counts against Polly's limits, in billed characters: its text, and half its
 * SSML (a call holds at most 6,000 characters in all, 3,000 billed).
 */
function pollySize(item: SpeechItem, standard: boolean): number {
  const ssml = itemSsml(item, standard);
  return Math.max(ssml.replace(/<[^>]*>/g, '').length + 1, Math.ceil((ssml.length + 1) / 2));
}

interface PollyMark {
  time: number;
  type: string;
  value: string;
}

/**
 * The Polly engines of one configuration (standard and neural), sharing one client, one
 * voice list and one provider record.
 */
export function createPollyEngines(config: PollyConfig): SpeechEngine[] {
  let connected: Promise<{ sdk: PollySdk; client: PollyClient }> | undefined;
  const connect = () => {
    connected ??= import('@aws-sdk/client-polly').then((sdk) => ({
      sdk,
      client: new sdk.PollyClient({
        region: config.region,
        ...(config.endpoint && { endpoint: config.endpoint }),
        ...(config.credentials && { credentials: config.credentials }),
        // Our own time-out and failure record decide; the SDK retries once.
        maxAttempts: 2,
      }),
    }));
    return connected;
  };
  const provider = new RemoteProvider('polly', 'Amazon Polly', config);
  const call = <T>(
    run: (polly: { sdk: PollySdk; client: PollyClient }, signal: AbortSignal) => Promise<T>,
  ) =>
    provider.call(async (signal) => {
      const polly = await connect();
      try {
        return await run(polly, signal);
      } catch (error) {
        throw signal.aborted ? error : failureOf(polly.sdk, error);
      }
    });

  const catalogue = new CachedList<Listed>(async () => {
    const voices: PollyVoice[] = [];
    let token: string | undefined;
    do {
      const page = await call(({ sdk, client }, abortSignal) =>
        client.send(
          new sdk.DescribeVoicesCommand({
            IncludeAdditionalLanguageCodes: false,
            ...(token && { NextToken: token }),
          }),
          { abortSignal },
        ),
      );
      voices.push(...(page.Voices ?? []));
      token = page.NextToken;
    } while (token);
    return voices.flatMap((voice) => listedOf(voice));
  });

  const byTier = async (engine: string) =>
    (await catalogue.get()).filter((listed) => listed.voice.id.startsWith(`${engine}:`));

  const engineFor = (engine: 'standard' | 'neural'): SpeechEngine => {
    const rate = POLLY_RATES[engine];
    const find = async (id: string) => {
      const lower = id.toLowerCase();
      return (await byTier(engine)).find((listed) => listed.voice.id.toLowerCase() === lower);
    };
    /**
     * A run in as few calls as Polly's limits allow, its prosody and breaks in Polly SSML.
     * What one call cannot vary (a rate past Polly's range, a neural voice's pitch, a gain past
     * +6 dB: signal processing after the call) starts a new call where it changes.
     */
    const renderRun = async (run: Run): Promise<RenderedSegment> => {
      const listed = await find(run.voice.id);
      if (!listed) throw new SpeechError('unknown_voice', `Unknown voice "${run.voice.id}".`);
      const standard = listed.pollyEngine === 'standard';
      if (!standard && run.effect && STANDARD_EFFECTS.includes(run.effect)) {
        throw new SpeechError('bad_input', `The ${run.effect} effect needs the standard engine.`);
      }
      const after = (item: SpeechItem) => ({
        stretch: splitRate(item.rate, ...RATE_RANGE).stretch,
        pitch: standard ? 0 : item.pitch,
        gain: Math.max(0, item.volume - POLLY_MAX_GAIN),
      });
      const calls = splitRun(
        run.items,
        POLLY_MAX_BILLED,
        (item) => pollySize(item, standard),
        (item) => JSON.stringify(after(item)),
      );
      const pieces: Float32Array[] = [];
      const words: RenderedSegment['words'] = [];
      const marks: NonNullable<RenderedSegment['marks']> = [];
      let offset = 0;
      for (const items of calls) {
        const first = items.find((item): item is SpeechItem => item.kind === 'speech');
        const { stretch, pitch, gain } = first ? after(first) : { stretch: 1, pitch: 0, gain: 0 };
        const request = {
          Engine: listed.pollyEngine,
          VoiceId: listed.pollyId as VoiceId,
          TextType: 'ssml' as const,
          Text: pollySsml(items, run.effect, standard, stretch),
        };
        const [decoded, speechMarks] = await Promise.all([
          call(async ({ sdk, client }, abortSignal) => {
            const answer = await client.send(
              new sdk.SynthesizeSpeechCommand({
                ...request,
                OutputFormat: 'ogg_vorbis',
                SampleRate: String(rate),
              }),
              { abortSignal },
            );
            const bytes = answer.AudioStream
              ? await answer.AudioStream.transformToByteArray()
              : new Uint8Array();
            return decodeOggVorbis(bytes).catch((error: unknown) => {
              throw new ProviderFailure('refused', `undecodable Ogg Vorbis: ${String(error)}`);
            });
          }),
          call(async ({ sdk, client }, abortSignal) => {
            const answer = await client.send(
              new sdk.SynthesizeSpeechCommand({
                ...request,
                OutputFormat: 'json',
                SpeechMarkTypes: ['word', 'ssml'],
              }),
              { abortSignal },
            );
            const body = answer.AudioStream ? await answer.AudioStream.transformToString() : '';
            return body
              .split('\n')
              .filter((line) => line.trim())
              .map((line) => JSON.parse(line) as PollyMark);
          }),
        ]);
        let samples = stretchBeyond(
          resample(decoded.samples, decoded.sampleRate, rate),
          stretch,
          rate,
        );
        if (pitch) samples = pitchShift(samples, pitch, rate);
        if (gain > 0) applyGain(samples, gain);
        for (const mark of speechMarks) {
          const time = offset + (mark.time / 1000) * stretch;
          if (mark.type === 'word') words.push({ time, text: mark.value });
          else if (mark.type === 'ssml') marks.push({ time, name: mark.value });
        }
        pieces.push(samples);
        offset += samples.length / rate;
      }
      return { samples: concat(pieces), sampleRate: rate, words, marks, breaths: false };
    };
    return {
      id: `${engine}:polly`,
      local: false,
      status: () => provider.status(),
      async voices() {
        const available = provider.status().available;
        return (await byTier(engine)).map((listed) => ({ ...listed.voice, available }));
      },
      async resolve(id) {
        return (await find(id))?.voice;
      },
      async voiceForLanguage(language, gender) {
        const lower = language.toLowerCase();
        const speaking = (await byTier(engine)).filter(
          (listed) =>
            listed.voice.language.toLowerCase() === lower ||
            listed.voice.language.toLowerCase().split('-')[0] === lower,
        );
        return (speaking.find((listed) => listed.voice.gender === gender) ?? speaking[0])?.voice;
      },
      async sampleRate() {
        return rate;
      },
      async fingerprint(id) {
        return `polly|4|${id}|ogg${rate}`;
      },
      render: (segment) => renderRun(runOfSegment(segment)),
      renderRun,
      async rendersOffThread() {
        return true;
      },
      async close() {},
    };
  };
  return [engineFor('standard'), engineFor('neural')];
}

/** A Polly voice as ours, once per engine it supports. */
function listedOf(voice: PollyVoice): Listed[] {
  if (!voice.Id || !voice.LanguageCode) return [];
  const supported = new Set<string>(voice.SupportedEngines ?? ['standard']);
  return TIERS.filter((tier) => supported.has(tier.polly)).map((tier) => ({
    pollyId: voice.Id as string,
    pollyEngine: tier.polly,
    voice: {
      id: `${tier.engine}:polly:${voice.Id}${tier.suffix}`,
      name: `${voice.Name ?? voice.Id}${tier.label}`,
      gender: voice.Gender === 'Male' ? 'male' : voice.Gender === 'Female' ? 'female' : 'neutral',
      language: voice.LanguageCode as string,
      languageName: voice.LanguageName ?? (voice.LanguageCode as string),
      provider: 'polly',
      capabilities: capabilities(tier.polly === 'standard'),
    },
  }));
}
