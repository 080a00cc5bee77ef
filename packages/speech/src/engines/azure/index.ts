import type { VoiceEffect } from '@parla/contract';
import type * as AzureSdk from 'microsoft-cognitiveservices-speech-sdk';
import { applyGain, concat } from '../../dsp/dsp.js';
import { pcm16ToSamples } from '../../encode/encoders.js';
import { SpeechError } from '../../errors.js';
import { AZURE_STYLES } from '../../ssml/azure-styles.js';
import { escapeXml } from '../../ssml/parser.js';
import {
  CachedList,
  failureOfStatus,
  ProviderFailure,
  type RemoteLimits,
  RemoteProvider,
} from '../remote/provider.js';
import { partsToSsml, splitParts, splitRate, stretchBeyond } from '../remote/segment.js';
import type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Segment,
  SpeechEngine,
} from '../types.js';

/**
 * Azure Speech's neural voices (docs/voices.md): the voices list from its REST API, with each
 * voice's speaking styles, and synthesis through the official Speech SDK (its WebSocket
 * connection is what reports word boundaries and bookmarks; the REST synthesis reports none)
 * of SSML with `mstts:express-as` for the SPEC's styles a voice has (and only those), as 24 kHz
 * 16-bit PCM. Voices are `neural:azure:<ShortName>`. Decision 020.
 */
export interface AzureConfig extends RemoteLimits {
  /** The resource's key, sent as `Ocp-Apim-Subscription-Key`. */
  key: string;
  /** The resource's region (`westeurope`): the address is `https://<region>.tts.speech.microsoft.com`. */
  region: string;
  /** Another address (a local test server). */
  endpoint?: string;
}

const AZURE_RATE = 24_000;
/** The SDK's offsets are in ticks of 100 ns. */
const TICKS_PER_SECOND = 10_000_000;
/** Azure's `<prosody rate>` multiplier range. */
const RATE_RANGE = [0.5, 2] as const;
/** Azure accepts up to 64 KB of SSML and 10 minutes of audio per request; we send far less. */
const MAX_TEXT = 5000;

interface AzureVoice {
  ShortName?: string;
  DisplayName?: string;
  LocalName?: string;
  Gender?: string;
  Locale?: string;
  LocaleName?: string;
  StyleList?: string[];
  VoiceType?: string;
}

interface Listed extends EngineVoice {
  shortName: string;
}

function capabilities(effects: readonly VoiceEffect[]): EngineCapabilities {
  return {
    pitch: true,
    emphasis: false,
    rate: true,
    effects,
    nativeSsml: [
      'prosody',
      'say-as interpret-as="characters"',
      'phoneme',
      'bookmark',
      'mstts:express-as',
    ],
    wordTimings: true,
    // `<phoneme alphabet="ipa">` in the SSML it is sent (remote/segment.ts).
    phonemes: true,
    engineName: 'Azure Speech',
    maxTextPerCall: MAX_TEXT,
  };
}

/** The Azure SSML of a segment. */
export function azureSsml(segment: Segment, voice: Listed, rate: number): string {
  let body = partsToSsml(segment.parts, {
    emphasis: false,
    mark: (name) => `<bookmark mark="${escapeXml(name)}"/>`,
  });
  const prosody = [`rate="${Math.round(rate * 100) / 100}"`];
  if (Math.abs(segment.pitch) >= 0.01) {
    const st = Math.round(segment.pitch * 10) / 10;
    prosody.push(`pitch="${st >= 0 ? '+' : ''}${st}st"`);
  }
  body = `<prosody ${prosody.join(' ')}>${body}</prosody>`;
  const style = segment.effect ? AZURE_STYLES[segment.effect] : undefined;
  if (style && segment.effect && voice.capabilities.effects.includes(segment.effect)) {
    body = `<mstts:express-as style="${style}">${body}</mstts:express-as>`;
  }
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="${voice.language}">` +
    `<voice name="${escapeXml(voice.shortName)}">${body}</voice></speak>`
  );
}

type Sdk = typeof AzureSdk;
let sdkLoading: Promise<Sdk> | undefined;
/** The Speech SDK (7 MB) is loaded when Azure is first asked to speak. */
const loadSdk = () => {
  sdkLoading ??= import('microsoft-cognitiveservices-speech-sdk');
  return sdkLoading;
};

/** What the SDK says of a cancelled synthesis, sorted as the other providers' failures. */
function failureOfCancellation(sdk: Sdk, details: AzureSdk.CancellationDetails): ProviderFailure {
  const detail = details.errorDetails.replace(/\s+/g, ' ').slice(0, 300);
  // A refused WebSocket upgrade: the HTTP status is in the SDK's words.
  const status = /Unexpected server response: (\d{3})/.exec(detail)?.[1];
  if (status) return failureOfStatus(Number(status), detail);
  switch (details.ErrorCode) {
    case sdk.CancellationErrorCode.AuthenticationFailure:
    case sdk.CancellationErrorCode.Forbidden:
      return new ProviderFailure('credentials', detail);
    case sdk.CancellationErrorCode.TooManyRequests:
      return new ProviderFailure('throttled', detail);
    case sdk.CancellationErrorCode.BadRequestParameters:
      return new ProviderFailure('refused', detail);
    default:
      return new ProviderFailure('down', detail);
  }
}

export function createAzureEngine(config: AzureConfig): SpeechEngine {
  const base = (config.endpoint ?? `https://${config.region}.tts.speech.microsoft.com`).replace(
    /\/+$/,
    '',
  );
  const provider = new RemoteProvider('azure', 'Azure Speech', config);
  const headers = { 'Ocp-Apim-Subscription-Key': config.key, 'User-Agent': 'Parla' };
  // The SDK's WebSocket goes to the same host as the REST calls.
  const host = config.endpoint ? new URL(base.replace(/^http/, 'ws')) : undefined;
  const failureOf = async (response: Response) =>
    failureOfStatus(
      response.status,
      `HTTP ${response.status}: ${(await response.text()).slice(0, 200) || response.statusText}`,
    );

  const catalogue = new CachedList<Listed>(async () => {
    const list = await provider.call(async (signal) => {
      const response = await fetch(`${base}/cognitiveservices/voices/list`, { headers, signal });
      if (!response.ok) throw await failureOf(response);
      return (await response.json()) as AzureVoice[];
    });
    return list.flatMap((voice): Listed[] => {
      if (!voice.ShortName || !voice.Locale) return [];
      const styles = new Set(voice.StyleList ?? []);
      const effects = (Object.entries(AZURE_STYLES) as [VoiceEffect, string][])
        .filter(([, style]) => styles.has(style))
        .map(([effect]) => effect);
      return [
        {
          id: `neural:azure:${voice.ShortName}`,
          shortName: voice.ShortName,
          name: voice.DisplayName ?? voice.LocalName ?? voice.ShortName,
          gender:
            voice.Gender === 'Male' ? 'male' : voice.Gender === 'Female' ? 'female' : 'neutral',
          language: voice.Locale,
          languageName: voice.LocaleName ?? voice.Locale,
          provider: 'azure',
          capabilities: capabilities(effects),
        },
      ];
    });
  });
  const find = async (id: string) => {
    const lower = id.toLowerCase();
    return (await catalogue.get()).find((voice) => voice.id.toLowerCase() === lower);
  };
  const strip = ({ shortName: _shortName, ...voice }: Listed): EngineVoice => voice;
  /** One request's audio (24 kHz PCM) with its word and bookmark times. */
  const speak = (ssml: string) =>
    provider.call(async (signal) => {
      const sdk = await loadSdk();
      const speechConfig = host
        ? sdk.SpeechConfig.fromHost(host, config.key)
        : sdk.SpeechConfig.fromSubscription(config.key, config.region);
      speechConfig.speechSynthesisOutputFormat =
        sdk.SpeechSynthesisOutputFormat.Raw24Khz16BitMonoPcm;
      const synthesizer = new sdk.SpeechSynthesizer(speechConfig, null);
      const words: RenderedSegment['words'] = [];
      const marks: NonNullable<RenderedSegment['marks']> = [];
      synthesizer.wordBoundary = (_, event) => {
        if (event.boundaryType === sdk.SpeechSynthesisBoundaryType.Word) {
          words.push({ time: event.audioOffset / TICKS_PER_SECOND, text: event.text });
        }
      };
      synthesizer.bookmarkReached = (_, event) => {
        marks.push({ time: event.audioOffset / TICKS_PER_SECOND, name: event.text });
      };
      try {
        const result = await new Promise<AzureSdk.SpeechSynthesisResult>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          synthesizer.speakSsmlAsync(ssml, resolve, (error) =>
            reject(new ProviderFailure('down', String(error))),
          );
        });
        if (result.reason !== sdk.ResultReason.SynthesizingAudioCompleted) {
          throw failureOfCancellation(sdk, sdk.CancellationDetails.fromResult(result));
        }
        return { samples: pcm16ToSamples(new Uint8Array(result.audioData)), words, marks };
      } finally {
        synthesizer.close();
      }
    });

  return {
    id: 'neural:azure',
    local: false,
    status: () => provider.status(),
    async voices() {
      const available = provider.status().available;
      return (await catalogue.get()).map((voice) => ({ ...strip(voice), available }));
    },
    async resolve(id) {
      const voice = await find(id);
      return voice && strip(voice);
    },
    async voiceForLanguage(language, gender) {
      const lower = language.toLowerCase();
      const speaking = (await catalogue.get()).filter(
        (voice) =>
          voice.language.toLowerCase() === lower ||
          voice.language.toLowerCase().split('-')[0] === lower,
      );
      const voice = speaking.find((v) => v.gender === gender) ?? speaking[0];
      return voice && strip(voice);
    },
    async sampleRate() {
      return AZURE_RATE;
    },
    async fingerprint(id) {
      return `azure|3|${id}|raw-24khz-16bit-mono-pcm`;
    },
    async render(segment: Segment): Promise<RenderedSegment> {
      const voice = await find(segment.voice.id);
      if (!voice) throw new SpeechError('unknown_voice', `Unknown voice "${segment.voice.id}".`);
      const { provider: rate, stretch } = splitRate(segment.rate, ...RATE_RANGE);
      const pieces: Float32Array[] = [];
      const words: RenderedSegment['words'] = [];
      const marks: NonNullable<RenderedSegment['marks']> = [];
      let offset = 0;
      for (const parts of splitParts(segment.parts, MAX_TEXT)) {
        const answer = await speak(azureSsml({ ...segment, parts }, voice, rate));
        for (const word of answer.words)
          words.push({ ...word, time: offset + word.time * stretch });
        for (const mark of answer.marks)
          marks.push({ ...mark, time: offset + mark.time * stretch });
        pieces.push(answer.samples);
        offset += (answer.samples.length / AZURE_RATE) * stretch;
      }
      const samples = stretchBeyond(concat(pieces), stretch, AZURE_RATE);
      applyGain(samples, segment.volume);
      return { samples, sampleRate: AZURE_RATE, words, marks, breaths: false };
    },
    async rendersOffThread() {
      return true;
    },
    async close() {},
  };
}
