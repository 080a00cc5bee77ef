import { VOICE_EFFECTS } from '@parla/contract';
import { applyGain, firstSound, floatPcm, lastSound, lowPass, type Pcm } from '../../dsp/dsp.js';
import { presetFor, variantFile } from '../../effects.js';
import { SpeechError } from '../../errors.js';
import type { SpeechPart } from '../../plan.js';
import { escapeXml } from '../../ssml/parser.js';
import type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Segment,
  SpeechEngine,
} from '../types.js';
import {
  type BackendName,
  ESPEAK_SAMPLE_RATE,
  type EspeakBackend,
  type EspeakResult,
  type EspeakWord,
} from './backend.js';
import {
  type BackendChoice,
  DEFAULT_ESPEAK_PROGRAM,
  nativeAvailable,
  nativeBackend,
  selectBackend,
  wasmBackend,
} from './backends.js';
import {
  type CatalogueLanguage,
  catalogueLanguages,
  findLanguage,
  languagesOf,
  VARIANTS,
  type VariantInfo,
  voiceId,
} from './catalogue.js';
import type { NativeSpawn } from './native-backend.js';
import { pitchParameter, wordsPerMinute } from './params.js';

export interface EspeakConfig {
  /**
   * `auto` (default): native espeak-ng when installed (libespeak-ng, else the program), else
   * the WebAssembly build; `program`: the native program only (backends.ts).
   */
  backend?: BackendChoice;
  /** The native program's name or path (default `espeak-ng`). */
  program?: string;
  /** Offer the constructed and test languages (Klingon, Quenya, …); default false. */
  extraLanguages?: boolean;
  /**
   * How the native program is started (native-backend.ts): `launcher` (default) for a
   * process that holds much memory, such as the server; `direct` for a command run once.
   */
  spawn?: NativeSpawn;
  /**
   * Word and `<mark>` times from espeak-ng's word events (default true). Without them (a
   * command that writes only audio) the native program renders alone, without the
   * WebAssembly build beside it, and marks are placed by their share of the text. (Through
   * libespeak-ng they come with the audio at no cost.)
   */
  wordTimings?: boolean;
}

/** Bump when a change to this engine changes the audio or the marks of an unchanged segment. */
const ENGINE_VERSION = 4;

/**
 * Every effect changes an espeak-ng voice's audio (see effects.ts); the engine contract test
 * proves each one.
 */
const CAPABILITIES: EngineCapabilities = {
  pitch: true,
  emphasis: true,
  rate: true,
  effects: VOICE_EFFECTS,
  nativeSsml: ['emphasis', 'say-as interpret-as="characters"', 'prosody range'],
  // The WebAssembly build and libespeak-ng report word events; the program's are the
  // WebAssembly build's (019).
  wordTimings: true,
  // The native program reads `[[…]]` as phonemes (espeakPHONEMES); the WebAssembly build not.
  phonemes: false,
  engineName: 'the WebAssembly build of espeak-ng',
  maxTextPerCall: 100_000,
};

/** Native espeak-ng: phonemes read; word timings its own (041) or the WebAssembly build's (019). */
const NATIVE_CAPABILITIES: EngineCapabilities = {
  ...CAPABILITIES,
  phonemes: true,
  engineName: 'espeak-ng',
};

interface EspeakVoice extends EngineVoice {
  espeakName: string;
  variant: VariantInfo;
}

function voiceOf(
  language: CatalogueLanguage,
  variant: VariantInfo,
  capabilities: EngineCapabilities,
): EspeakVoice {
  return {
    id: voiceId(language.code, variant.variant),
    name: `${language.name} – ${variant.name}`,
    gender: variant.gender,
    language: language.code,
    languageName: language.name,
    capabilities,
    provider: 'espeak-ng',
    espeakName: language.espeakName,
    variant,
  };
}

/** Variant files are installed once per backend and thread. */
const installed = new Map<string, Promise<string>>();

/**
 * espeak-ng, through its native program or its WebAssembly build (docs/decisions/
 * 007-speech-engine-interface.md). Voices a native install lacks are rendered by the
 * WebAssembly build, which has every language.
 */
export function createEspeakEngine(config: EspeakConfig = {}): SpeechEngine & {
  backend(): Promise<EspeakBackend>;
} {
  const program = config.program ?? DEFAULT_ESPEAK_PROGRAM;
  const choice = config.backend ?? 'auto';
  const spawn = config.spawn ?? 'launcher';
  const wordTimings = config.wordTimings ?? true;
  const library = choice !== 'program';
  let backendPromise: Promise<EspeakBackend> | undefined;
  const backend = () => {
    backendPromise ??= selectBackend(choice, program, spawn).then((found) => {
      if (found) return found;
      throw new SpeechError(
        'engine_unavailable',
        `The espeak-ng program "${program}" is not installed.`,
      );
    });
    return backendPromise;
  };
  /** Which backend renders, without loading the WebAssembly build. */
  const backendName = async (): Promise<BackendName> =>
    choice === 'wasm' || !(await nativeAvailable(program, spawn, library)) ? 'wasm' : 'native';
  const capabilities = async (): Promise<EngineCapabilities> => {
    if ((await backendName()) === 'wasm') return CAPABILITIES;
    const events = (await nativeBackend(program, spawn, library))?.wordEvents ?? false;
    return { ...NATIVE_CAPABILITIES, wordTimings: wordTimings || events };
  };
  const isOffered = (language: CatalogueLanguage) => config.extraLanguages || !language.extra;
  const offered = async () => (await catalogueLanguages()).filter(isOffered);

  /**
   * The language of a code the native program renders, found without loading the WebAssembly
   * build: only an exact code of the program's own list (another match, such as a base
   * language, may differ from the whole catalogue's).
   */
  async function nativeLanguage(code: string): Promise<CatalogueLanguage | undefined> {
    if (choice === 'wasm') return undefined;
    const native = await nativeBackend(program, spawn, library);
    if (!native) return undefined;
    const found = languagesOf(native.voiceFiles).find(
      (language) => language.code.toLowerCase() === code.toLowerCase(),
    );
    return found && isOffered(found) ? found : undefined;
  }

  async function resolve(id: string): Promise<EspeakVoice | undefined> {
    const match = /^standard:([^+\s]+)(?:\+([\w-]+))?$/i.exec(id);
    if (!match?.[1]) return undefined;
    const variant = VARIANTS.find((v) => v.variant === (match[2] ?? '').toLowerCase());
    const language =
      (await nativeLanguage(match[1])) ?? findLanguage(await offered(), match[1], (l) => l.code);
    return language && variant ? voiceOf(language, variant, await capabilities()) : undefined;
  }

  async function espeakVoice(
    chosen: EspeakBackend,
    voice: EspeakVoice,
    variant: 'whisper' | 'soft' | 'breathy' | undefined,
  ): Promise<string> {
    const own = voice.variant.variant;
    if (!variant) return own ? `${voice.espeakName}+${own}` : voice.espeakName;
    if (variant === 'whisper') {
      return `${voice.espeakName}+${voice.gender === 'female' ? 'whisperf' : 'whisper'}`;
    }
    const key = `${chosen.name}|${variant}|${own}`;
    let name = installed.get(key);
    if (!name) {
      name = (async () => {
        const base = own ? await chosen.readVariant(own) : undefined;
        const file = variantFile(variant, own, base);
        await chosen.installVariant(file.name, file.contents);
        return file.name;
      })();
      installed.set(key, name);
    }
    return `${voice.espeakName}+${await name}`;
  }

  return {
    id: 'standard',
    local: true,
    backend,
    async voices() {
      const languages = await offered();
      const own = await capabilities();
      return languages.flatMap((language) => VARIANTS.map((v) => voiceOf(language, v, own)));
    },
    resolve,
    async voiceForLanguage(language, gender) {
      const found = findLanguage(await offered(), language, (l) => l.code);
      return found ? resolve(voiceId(found.code, gender === 'female' ? 'f1' : '')) : undefined;
    },
    async sampleRate() {
      return ESPEAK_SAMPLE_RATE;
    },
    async fingerprint() {
      return `espeak-ng|${ENGINE_VERSION}|${await backendName()}|${library}|${program}|${wordTimings}`;
    },
    async render(segment: Segment): Promise<RenderedSegment> {
      const voice = await resolve(segment.voice.id);
      if (!voice) throw new SpeechError('unknown_voice', `Unknown voice "${segment.voice.id}".`);
      const preset = presetFor(segment.effect);
      const rate = wordsPerMinute(segment.rate * preset.rate);
      const pitch = pitchParameter(segment.pitch + preset.pitch);
      const main = await backend();
      const chosen = main.hasLanguage(voice.espeakName) ? main : await wasmBackend();
      const name = await espeakVoice(chosen, voice, preset.variant);
      const { ssml, spans, markOffsets } = espeakSsml(
        segment.parts,
        preset.range,
        chosen.phonemeInput,
      );
      const request = { voice: name, ssml, rate, pitch };
      // The native program reports no word events: the WebAssembly build renders the same
      // input meanwhile for its timings (docs/decisions/019-speech-marks.md). libespeak-ng
      // reports its own (041).
      const [result, reference] = await Promise.all([
        chosen.render(request),
        !chosen.wordEvents && wordTimings && spans.length > 0
          ? (async () => {
              const wasm = await wasmBackend();
              const wasmName = await espeakVoice(wasm, voice, preset.variant);
              return wasm.render({ ...request, voice: wasmName });
            })()
          : undefined,
      ]);
      const events = reference ? alignedWords(reference, result.samples) : result.words;
      const gain = segment.volume + preset.volume;
      // The 16-bit samples as they are, unless the soft effect or a gain changes them.
      let samples: Pcm = result.samples;
      if (preset.variant === 'soft' || gain !== 0) {
        const floats = floatPcm(result.samples);
        if (preset.variant === 'soft') lowPass(floats, 3500, ESPEAK_SAMPLE_RATE);
        applyGain(floats, gain);
        samples = floats;
      }
      return {
        samples,
        sampleRate: ESPEAK_SAMPLE_RATE,
        ...timings({ ssml, spans, markOffsets }, events, samples.length / ESPEAK_SAMPLE_RATE),
        breaths: preset.breaths === true,
      };
    },
    async rendersOffThread() {
      // Each native group is its own espeak-ng process.
      return (await backend()).name === 'native';
    },
    async close() {},
  };
}

/**
 * Word events of a reference rendering (the WebAssembly build) moved onto another rendering
 * of the same text (the native program, or a Piper voice, which speaks espeak-ng's phonemes):
 * the reference's span of sound is stretched over the other's.
 */
function alignedWords(
  reference: EspeakResult,
  samples: Pcm,
  sampleRate = ESPEAK_SAMPLE_RATE,
): EspeakWord[] {
  const from = firstSound(reference.samples) / ESPEAK_SAMPLE_RATE;
  const to = lastSound(reference.samples) / ESPEAK_SAMPLE_RATE;
  const targetFrom = firstSound(samples) / sampleRate;
  const targetTo = lastSound(samples) / sampleRate;
  const scale = to > from ? (targetTo - targetFrom) / (to - from) : 1;
  return reference.words.map((word) => ({
    ...word,
    time: Math.max(0, targetFrom + (word.time - from) * scale),
  }));
}

/**
 * Word and `<mark>` times of a segment from espeak-ng's word events: each word event to the
 * token of our text it falls in; a mark is heard with the next word (none at all: the pipeline
 * then places it by its share of the text).
 */
function timings(
  input: ReturnType<typeof espeakSsml>,
  events: readonly EspeakWord[],
  end: number,
): Pick<RenderedSegment, 'words' | 'marks'> {
  return {
    words: wordMarks(input.ssml, input.spans, events),
    ...(events.length > 0 && {
      marks: input.markOffsets.map(({ name, offset }) => ({
        name,
        time: events.find((word) => word.offset >= offset)?.time ?? end,
      })),
    }),
  };
}

/**
 * When each word and `<mark>` of `parts` is heard in `samples`, audio of them made by another
 * engine in `language` (a Piper voice, which speaks espeak-ng's phonemes): espeak-ng's
 * WebAssembly build says the same parts at `rate`, and its word times are stretched onto that
 * audio (docs/decisions/019-speech-marks.md). Undefined when espeak-ng lacks the language.
 */
export async function referenceTimings(
  parts: readonly SpeechPart[],
  language: string,
  rate: number,
  samples: Float32Array,
  sampleRate: number,
): Promise<Pick<RenderedSegment, 'words' | 'marks'> | undefined> {
  const found = findLanguage(await catalogueLanguages(), language, (l) => l.code);
  const wasm = await wasmBackend();
  if (!found || !wasm.hasLanguage(found.espeakName)) return undefined;
  const input = espeakSsml(parts, 50, false);
  const reference = await wasm.render({
    voice: found.espeakName,
    ssml: input.ssml,
    rate: wordsPerMinute(rate),
    pitch: pitchParameter(0),
  });
  const events = alignedWords(reference, samples, sampleRate);
  return timings(input, events, samples.length / sampleRate);
}

interface Span {
  /** Offset of the escaped text in the SSML and of its plain form. */
  start: number;
  end: number;
}

/**
 * The espeak-ng input of a segment. Text is XML-escaped (espeak-ng reads SSML here, and would
 * swallow a bare `<`); emphasis and spelling use espeak-ng's own SSML, `<phoneme>` its `[[…]]`
 * phoneme input where the backend reads it; the effect's pitch range goes through
 * `<prosody range>` (a percentage of the voice's normal range).
 */
function espeakSsml(
  parts: readonly SpeechPart[],
  range: number,
  phonemeInput: boolean,
): { ssml: string; spans: Span[]; markOffsets: { name: string; offset: number }[] } {
  let ssml = '<speak>';
  if (range !== 50) ssml += `<prosody range="${Math.round((range / 50) * 100)}%">`;
  const spans: Span[] = [];
  const markOffsets: { name: string; offset: number }[] = [];
  parts.forEach((part, index) => {
    if (part.mark !== undefined) {
      markOffsets.push({ name: part.mark, offset: ssml.length });
      return;
    }
    if (index > 0) ssml += ' ';
    let open = '';
    let close = '';
    if (part.spell) {
      open += '<say-as interpret-as="characters">';
      close = `</say-as>${close}`;
    }
    if (part.emphasis) {
      open = `<emphasis level="${part.emphasis}">${open}`;
      close += '</emphasis>';
    }
    ssml += open;
    const start = ssml.length;
    // Phonemes as `[[…]]`; the space keeps espeak-ng from reading the next tag as phonemes.
    ssml +=
      phonemeInput && part.phonemes
        ? `[[${escapeXml(part.phonemes.espeak)}]] `
        : // `[[` typed in the text is not phoneme input.
          escapeXml(part.text.replace(/\s+/g, ' ').replaceAll('[[', '[ ['));
    spans.push({ start, end: ssml.length });
    ssml += close;
  });
  if (range !== 50) ssml += '</prosody>';
  ssml += '</speak>';
  return { ssml, spans, markOffsets };
}

/**
 * Word marks from espeak-ng's word events. espeak-ng splits words its own way (an entity such
 * as `&lt;` becomes two "words"; "a" and "the" are said with a neighbour, one event for both),
 * so each event is attributed to the whitespace-separated token of our text that contains it,
 * once per token; words with no event of their own get one in speech marks (marks.ts).
 */
function wordMarks(
  ssml: string,
  spans: Span[],
  events: readonly { time: number; offset: number }[],
): { time: number; text: string }[] {
  const tokens: { start: number; end: number; text: string }[] = [];
  for (const span of spans) {
    const pattern = /\S+/g;
    const text = ssml.slice(span.start, span.end);
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      tokens.push({
        start: span.start + match.index,
        end: span.start + match.index + match[0].length,
        text: unescapeXml(match[0]),
      });
    }
  }
  const marks: { time: number; text: string }[] = [];
  let lastToken = -1;
  const tokenOf = (event: { offset: number }) =>
    tokens.findIndex((t) => event.offset >= t.start && event.offset < t.end);
  const indices = events.map(tokenOf);
  for (const [e, event] of events.entries()) {
    let index = indices[e] ?? -1;
    // A later event inside the token already marked, when the next event skips a token, is
    // that word's, misplaced: espeak-ng reports "a while" in "waiting for a while. He" one
    // character into "for". (Two events inside one token, such as `&lt;`, are left as one.)
    const following = indices[e + 1] ?? tokens.length + 1;
    if (index >= 0 && index === lastToken && following > index + 1) index += 1;
    if (index < 0 || index === lastToken || index >= tokens.length) continue;
    lastToken = index;
    const token = tokens[index];
    if (!token) continue;
    const word = token.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    marks.push({ time: event.time, text: word || token.text });
  }
  return marks;
}

function unescapeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}
