import { applyGain, concat, silence, trimSilence } from '../../dsp/dsp.js';
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
import { partsToText, splitRate, splitRun, stretchBeyond } from '../remote/segment.js';
import { estimatedTimings } from '../timings.js';
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

/** Sound kept after the last word before a break and before the first after it (as render.ts). */
const BREAK_TAIL = 0.02;
const BREAK_HEAD = 0.01;

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

type SpeechItem = Extract<RunItem, { kind: 'speech' }>;

/** The plain text of speech items, as one input. */
function textOf(items: readonly SpeechItem[]): string {
  return partsToText(items.flatMap((item) => item.parts));
}

/** The item whose prosody most of the text is in (by characters), which a call is read with. */
function mostSaid(items: readonly SpeechItem[]): SpeechItem {
  const shares = new Map<string, { item: SpeechItem; characters: number }>();
  for (const item of items) {
    const key = `${item.rate}|${item.pitch}|${item.volume}`;
    const share = shares.get(key) ?? { item, characters: 0 };
    share.characters += textOf([item]).length;
    shares.set(key, share);
  }
  let best: { item: SpeechItem; characters: number } | undefined;
  for (const share of shares.values()) {
    if (!best || share.characters > best.characters) best = share;
  }
  if (!best) throw new Error('a call has speech');
  return best.item;
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
  const requestSpeech = (input: string, voice: string, speed: number) =>
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

  /**
   * A run as whole texts (docs/decisions/033-whole-ssml-to-remote-voices.md): one call per
   * stretch between breaks, as few as 4,096 characters allow, cut at sentence ends; each
   * break is our silence of its length. Plain text has one speed, pitch and volume: a call is
   * read with those of most of its text (`capabilityWarnings` warns of the rest).
   */
  const renderRun = async (run: Run): Promise<RenderedSegment> => {
    const voice = await find(run.voice.id);
    if (!voice) throw new SpeechError('unknown_voice', `Unknown voice "${run.voice.id}".`);
    const name = voice.id.split(':').slice(2).join(':');
    // The calls: whole texts between the breaks, each with the pause before it.
    const calls: { speech: SpeechItem[]; pause: number }[] = [];
    let pause = 0;
    let stretch: SpeechItem[] = [];
    const cut = () => {
      for (const items of splitRun(stretch, OPENAI_MAX_INPUT, (i) => textOf([i]).length + 1)) {
        const speech = items.filter((item): item is SpeechItem => item.kind === 'speech');
        if (!textOf(speech)) continue;
        calls.push({ speech, pause });
        pause = 0;
      }
      stretch = [];
    };
    for (const item of run.items) {
      if (item.kind === 'speech') {
        stretch.push(item);
        continue;
      }
      cut();
      pause += item.seconds;
    }
    cut();
    const pieces: Float32Array[] = [];
    const words: RenderedSegment['words'] = [];
    const marks: NonNullable<RenderedSegment['marks']> = [];
    // False once a call's marks could not be timed: the renderer places them all by share.
    let timed = true;
    // OpenAI answers 24 kHz; pieces share the rate of the first (a server answers one rate).
    let rate: number | undefined;
    let offset = 0;
    for (const [index, { speech, pause }] of calls.entries()) {
      const input = textOf(speech);
      const main = mostSaid(speech);
      const { provider: speed, stretch: beyond } = splitRate(main.rate, ...SPEED_RANGE);
      const audio = await requestSpeech(input, name, speed);
      rate ??= audio.sampleRate;
      let samples = stretchBeyond(resample(audio.samples, audio.sampleRate, rate), beyond, rate);
      samples = pitchShift(samples, main.pitch, rate);
      applyGain(samples, main.volume);
      // Around a break, the server's own silence gives way to the break's exact length.
      const pauseAfter = (calls[index + 1]?.pause ?? 0) > 0;
      samples = trimSilence(samples, rate, {
        ...(pause > 0 && { start: BREAK_HEAD }),
        ...(pauseAfter && { end: BREAK_TAIL }),
      }).samples;
      if (pause > 0) {
        const silent = silence(pause, rate);
        pieces.push(silent);
        offset += silent.length / rate;
      }
      // This API reports no word times: they are estimated (engines/timings.ts).
      const parts = speech.flatMap((item) => item.parts);
      const timings = await estimatedTimings(
        { parts, voice: run.voice },
        input,
        main.rate,
        samples,
        rate,
      );
      for (const word of timings.words) words.push({ ...word, time: offset + word.time });
      if (!timings.marks) timed = false;
      for (const mark of timings.marks ?? []) marks.push({ ...mark, time: offset + mark.time });
      pieces.push(samples);
      offset += samples.length / rate;
    }
    return {
      samples: concat(pieces),
      sampleRate: rate ?? 24_000,
      words,
      ...(timed && { marks }),
      breaths: false,
    };
  };

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
      return `openai|2|${base}|${model}|${id}`;
    },
    render: (segment) => renderRun(runOfSegment(segment)),
    renderRun,
    async rendersOffThread() {
      return true;
    },
    async close() {},
  };
}
