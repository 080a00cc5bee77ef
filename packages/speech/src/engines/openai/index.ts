import { applyGain, concat } from '../../dsp/dsp.js';
import { pitchShift } from '../../dsp/pitch.js';
import { resample } from '../../dsp/resample.js';
import { SpeechError } from '../../errors.js';
import {
  CachedList,
  failureOfStatus,
  ProviderFailure,
  parseWav,
  type RemoteLimits,
  RemoteProvider,
} from '../remote/provider.js';
import { partsToText, splitParts, splitRate, stretchBeyond } from '../remote/segment.js';
import { estimatedTimings } from '../timings.js';
import type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Segment,
  SpeechEngine,
} from '../types.js';

/**
 * Any server that speaks OpenAI's `POST /v1/audio/speech` (OpenAI itself, and the local
 * servers that copy it), docs/voices.md. Plain text only: the engine takes the text of each
 * segment, its speed through `speed`, and pitch and volume through our signal processing;
 * emphasis, effects and phonemes are reported as not rendered. Audio is asked for as wav and
 * decoded here. Its voices are `neural:openai:<voice>`. Decision 020.
 */
export interface OpenAiConfig extends RemoteLimits {
  /** The server's base URL, with or without `/v1` (`https://api.openai.com/v1`). */
  url: string;
  /** Sent as `Authorization: Bearer`; optional for local servers. */
  key?: string;
  /** The `model` of every request (default `tts-1`). */
  model?: string;
  /** The voices to offer; without them the server's list (`GET /audio/voices`) or OpenAI's. */
  voices?: readonly string[];
  /** The language the voices are listed under (default `en-US`). */
  language?: string;
}

/** OpenAI's input limit per request, in characters. */
export const OPENAI_MAX_INPUT = 4096;
/** OpenAI's `speed` range. */
const SPEED_RANGE = [0.25, 4] as const;
/** OpenAI's own voices, offered when neither the operator nor the server names any. */
export const OPENAI_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
] as const;

const CAPABILITIES: EngineCapabilities = {
  pitch: true,
  emphasis: false,
  rate: true,
  effects: [],
  nativeSsml: [],
  wordTimings: false,
  phonemes: false,
  engineName: 'the OpenAI-compatible server',
  maxTextPerCall: OPENAI_MAX_INPUT,
};

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The `/v1` base of a configured URL. */
function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}

export function createOpenAiEngine(config: OpenAiConfig): SpeechEngine {
  const base = apiBase(config.url);
  const model = config.model ?? 'tts-1';
  const language = config.language ?? 'en-US';
  const provider = new RemoteProvider('openai', 'The OpenAI-compatible voice server', config);
  const headers = (json: boolean): Record<string, string> => ({
    ...(config.key && { authorization: `Bearer ${config.key}` }),
    ...(json && { 'content-type': 'application/json' }),
  });
  const failureOf = async (response: Response) => {
    const body = await response.text();
    let message = body.slice(0, 200);
    try {
      message = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? message;
    } catch {}
    return failureOfStatus(response.status, `HTTP ${response.status}: ${message}`);
  };

  const catalogue = new CachedList<EngineVoice>(async () => {
    let names: readonly string[] | undefined = config.voices?.length ? config.voices : undefined;
    if (!names) {
      // Servers that list their voices (Kokoro-FastAPI, openedai-speech, …) answer this.
      names = await provider.call(async (signal) => {
        const response = await fetch(`${base}/audio/voices`, { headers: headers(false), signal });
        if (response.status === 404 || response.status === 405) return undefined;
        if (!response.ok) throw await failureOf(response);
        const body = (await response.json()) as { voices?: unknown };
        const list = Array.isArray(body.voices) ? body.voices : Array.isArray(body) ? body : [];
        return list
          .map((item: unknown) =>
            typeof item === 'string'
              ? item
              : ((item as { id?: string; name?: string }).id ?? (item as { name?: string }).name),
          )
          .filter((name): name is string => typeof name === 'string' && name.length > 0);
      });
    }
    return (names?.length ? names : OPENAI_VOICES).map((name) => ({
      id: `neural:openai:${name}`,
      name: `${name.charAt(0).toUpperCase()}${name.slice(1)} (${model})`,
      gender: 'neutral' as const,
      language,
      languageName: languageName(language),
      provider: 'openai',
      capabilities: CAPABILITIES,
    }));
  });

  const find = async (id: string) => {
    const lower = id.toLowerCase();
    return (await catalogue.get()).find((voice) => voice.id.toLowerCase() === lower);
  };

  /** One request's audio: wav, decoded. */
  const speech = (input: string, voice: string, speed: number) =>
    provider.call(async (signal) => {
      const response = await fetch(`${base}/audio/speech`, {
        method: 'POST',
        headers: headers(true),
        body: JSON.stringify({ model, input, voice, response_format: 'wav', speed }),
        signal,
      });
      if (!response.ok) throw await failureOf(response);
      const bytes = new Uint8Array(await response.arrayBuffer());
      try {
        return parseWav(bytes);
      } catch (error) {
        throw error instanceof ProviderFailure
          ? error
          : new ProviderFailure('refused', String(error));
      }
    });

  return {
    id: 'neural:openai',
    local: false,
    status: () => provider.status(),
    async voices() {
      const available = provider.status().available;
      return (await catalogue.get()).map((voice) => ({ ...voice, available }));
    },
    resolve: find,
    async voiceForLanguage(wanted) {
      const [want] = wanted.toLowerCase().split('-');
      if (want !== language.toLowerCase().split('-')[0]) return undefined;
      return (await catalogue.get())[0];
    },
    async sampleRate() {
      // OpenAI answers 24 kHz; a server that answers another rate is resampled.
      return 24_000;
    },
    async fingerprint(id) {
      return `openai|1|${base}|${model}|${id}`;
    },
    async render(segment: Segment): Promise<RenderedSegment> {
      const voice = await find(segment.voice.id);
      if (!voice) throw new SpeechError('unknown_voice', `Unknown voice "${segment.voice.id}".`);
      const name = voice.id.split(':').slice(2).join(':');
      const { provider: speed, stretch } = splitRate(segment.rate, ...SPEED_RANGE);
      const pieces: Float32Array[] = [];
      let rate = 24_000;
      for (const parts of splitParts(segment.parts, OPENAI_MAX_INPUT)) {
        const input = partsToText(parts);
        if (!input) continue;
        const audio = await speech(input, name, speed);
        // Pieces of one segment share the rate of the first (a server answers one rate).
        if (pieces.length === 0) rate = audio.sampleRate;
        pieces.push(resample(audio.samples, audio.sampleRate, rate));
      }
      let samples = stretchBeyond(concat(pieces), stretch, rate);
      samples = pitchShift(samples, segment.pitch, rate);
      applyGain(samples, segment.volume);
      // This API reports no word times: they are estimated (engines/timings.ts).
      const timings = await estimatedTimings(
        segment,
        partsToText(segment.parts),
        segment.rate,
        samples,
        rate,
      );
      return { samples, sampleRate: rate, ...timings, breaths: false };
    },
    async rendersOffThread() {
      return true;
    },
    async close() {},
  };
}
