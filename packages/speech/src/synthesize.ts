import type { AudioFormat } from '@parla/contract';
import type { DocumentItem } from './document.js';
import { joinBytes } from './encode/bytes.js';
import { createStreamEncoder, MIME_TYPES } from './encode/encoders.js';
import { type EngineRegistry, engineRegistry, type SpeechConfig } from './engines/registry.js';
import type { SpeechEngine } from './engines/types.js';
import { SpeechError } from './errors.js';
import { applyLexicons } from './lexicons/apply.js';
import { normaliseDocument } from './normalise/document.js';
import {
  characters,
  checkAudioLength,
  groupSentences,
  packSentences,
  planSentences,
  type SpeechPiece,
  sentenceText,
} from './plan.js';
import { type CheckedRequest, checkRequest, type SpeechRequest } from './request.js';
import { maxAudioSeconds } from './ssml/limits.js';
import { parseSsml } from './ssml/parser.js';
import { pitchPercentToSemitones, speedPercentToFactor } from './ssml/prosody-values.js';
import { firstSecondAhead, WholeFileEncoder } from './stages/encode.js';
import { postProcess, type SentenceAudio } from './stages/post-process.js';
import { capabilityWarnings, type Mark, type RenderedSentence, Renderer } from './stages/render.js';
import type { SentenceCache } from './stages/sentence-cache.js';
import { mainVoice, VoiceLookup } from './stages/voices.js';
import { type SpeechWarning, Warnings } from './warnings.js';

/**
 * The pipeline, one named stage after another, naming no engine:
 *
 *   parse (ssml/parser.ts) → document (document.ts) → lexicons (lexicons/apply.ts)
 *   → normalise (normalise/) → plan (plan.ts)
 *   → render (stages/render.ts, through the voice's SpeechEngine) → post-process
 *   (stages/post-process.ts) → encode (stages/encode.ts, encode/encoders.ts)
 *
 * The request is the library's own (request.ts); the product's payload is mapped to it by
 * `speechRequestFromSettings` (product.ts).
 */

export interface SynthesisOptions extends SpeechConfig {
  /**
   * Engines built by the caller beside the configured ones, e.g. a remote engine on the main
   * thread (the pool renders requests for `local: false` engines this way).
   */
  engines?: readonly SpeechEngine[];
  /** Sentences rendered by earlier requests of this thread (stages/sentence-cache.ts). */
  sentenceCache?: SentenceCache;
}

export type { Mark };

export interface SynthesisResult {
  audio: Uint8Array;
  mimeType: string;
  format: AudioFormat;
  /** Seconds of audio (the PCM length, not counting encoder padding). */
  duration: number;
  sampleRate: number;
  marks: Mark[];
  /**
   * Markup understood but not (fully) rendered (docs/ssml.md): a code, a message, and where it
   * was typed (null for a setting of the request, such as an effect the voice lacks).
   */
  warnings: SpeechWarning[];
}

/** One step of a stream: the next bytes of the file and the marks heard in them. */
export interface SynthesisChunk {
  audio: Uint8Array;
  /** Seconds from the start of the audio at which this chunk's sound begins. */
  start: number;
  /** Seconds of audio in this chunk. */
  duration: number;
  marks: Mark[];
  mimeType: string;
  sampleRate: number;
  /** True for the last chunk, whose bytes finish the file. */
  last: boolean;
  /** Warnings (see SynthesisResult) not given with an earlier chunk. */
  warnings: SpeechWarning[];
}

/** The registry of a call: the configured engines plus the caller's own. */
export function registryOf(options: SynthesisOptions): EngineRegistry {
  const { engines = [], ...config } = options;
  return engineRegistry(config).with(engines);
}

/**
 * Runs the text stages of a checked request: parse, document, normalise, plan. The audio
 * length the plan would make is checked against what the text's length allows before anything
 * is rendered (`limit_exceeded`, ssml/limits.ts).
 */
async function prepare(checked: CheckedRequest, options: SynthesisOptions) {
  const registry = registryOf(options);
  const main = await mainVoice(registry, checked.voice);
  // The whole request is rendered at the main voice's rate, then resampled once.
  const rate = await main.engine.sampleRate(main.voice);
  const parsed = parseSsml(checked.text);
  const warnings = new Warnings(parsed.warnings);
  const voices = new VoiceLookup(registry, main, warnings);
  const languageOf = async (item: DocumentItem) =>
    item.kind === 'text' ? (await voices.forItem(item)).voice.language : main.voice.language;
  // The lexicon stage (lexicons/apply.ts): pronunciations before anything reads the words.
  const document = await applyLexicons(
    parsed,
    checked.lexicons,
    checked.lexiconLibrary,
    languageOf,
    warnings,
  );
  const normalised = await normaliseDocument(document, languageOf);
  await capabilityWarnings(normalised.items, voices, checked.effect ?? undefined, warnings);
  const offThread = await main.engine.rendersOffThread();
  const planned = planSentences(normalised);
  // Each piece's voice language: a letter of a script its voice does not read is named.
  const languages = new Map<SpeechPiece, string>();
  for (const sentence of planned) {
    for (const unit of sentence.units) {
      if (unit.kind === 'speech') languages.set(unit, (await voices.forItem(unit)).voice.language);
    }
  }
  checkAudioLength(
    planned,
    document.sourceLength,
    speedPercentToFactor(checked.speed),
    (piece) => languages.get(piece) ?? main.voice.language,
  );
  return {
    request: checked,
    maxSeconds: maxAudioSeconds(document.sourceLength),
    sourceLength: document.sourceLength,
    rate,
    offThread,
    warnings,
    // An engine that sends whole texts to a provider gets as many sentences as one call takes
    // (docs/decisions/033-whole-ssml-to-remote-voices.md); one rendering off this thread,
    // groups of sentences (one start each).
    sentences: main.engine.renderRun
      ? packSentences(planned, main.voice.capabilities.maxTextPerCall)
      : offThread
        ? groupSentences(planned)
        : planned,
    renderer: new Renderer(
      voices,
      {
        rate: speedPercentToFactor(checked.speed),
        pitch: pitchPercentToSemitones(checked.pitch),
        effect: checked.effect ?? undefined,
      },
      rate,
      options.sentenceCache,
    ),
  };
}

/**
 * Render and post-process each sentence in turn, each handed to `take` as soon as it is made:
 * its PCM may be the resampler's memory (stages/post-process.ts), which `take` reads (encodes)
 * or copies before it returns, and before any other request on this thread resamples.
 */
async function* renderSentences<T>(
  prepared: Awaited<ReturnType<typeof prepare>>,
  take: (audio: SentenceAudio) => T,
): AsyncGenerator<T> {
  const { request, rate, sentences, renderer } = prepared;
  const total = sentences.reduce((sum, sentence) => sum + characters(sentence), 0);
  let done = 0;
  let position = 0;
  // Off this thread, two groups render while this one is resampled and encoded. (An engine
  // computing on this thread gains nothing.)
  const ahead = prepared.offThread ? 2 : 0;
  const started: Promise<RenderedSentence>[] = [];
  const start = (i: number) => {
    const sentence = sentences[i];
    if (sentence && !started[i]) {
      const afterBreak = sentences[i - 1]?.units.at(-1)?.kind === 'break';
      started[i] = renderer.sentence(sentence, afterBreak);
      // Failures surface when the result is awaited below.
      started[i]?.catch(() => {});
    }
  };
  for (const [index, sentence] of sentences.entries()) {
    // A turn of the event loop between sentences: an engine rendering on this thread (the
    // WebAssembly build) settles its promises at once, and a worker would hear the pool (told
    // to end its thread, decision 059) only once the whole text is done.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    start(index);
    const rendered = await (started[index] as Promise<RenderedSentence>);
    delete started[index];
    // Only now, so that the first sentence has the machine to itself and is heard early.
    for (let i = index + 1; i <= index + ahead; i++) start(i);
    const audio = postProcess(rendered, {
      renderRate: rate,
      sampleRate: request.sampleRate,
      volume: request.volume,
      position,
      texts: sentence.texts ?? [sentenceText(sentence)],
      last: index === sentences.length - 1,
    });
    position += audio.duration;
    done += characters(sentence);
    // Before rendering more: what is rendered is paid for, and is heard.
    if (index < sentences.length - 1) checkRendered(position, done, total, prepared);
    yield take(audio);
  }
}

/**
 * The length bound held while rendering, whatever the estimate said (an engine may say more
 * than it was thought to, docs/decisions/034-cost-queues-and-crashes.md): before the next
 * sentence, the audio made so far may not pass the bound, nor, once a fifth of the bound is
 * made, may the audio that the rate so far promises for the whole text pass it by half again.
 * Either stops the rendering with `limit_exceeded`, the work spent.
 */
function checkRendered(
  position: number,
  done: number,
  total: number,
  { maxSeconds, sourceLength }: { maxSeconds: number; sourceLength: number },
): void {
  const projected = done > 0 ? (position * total) / done : position;
  const over = position > maxSeconds || (position > maxSeconds / 5 && projected > 1.5 * maxSeconds);
  if (!over) return;
  throw new SpeechError(
    'limit_exceeded',
    `This text makes more audio than its length allows: ${Math.round(position)} s from ${Math.round((100 * done) / Math.max(1, total))} % of it, and a text of ${sourceLength} characters may make at most ${maxSeconds} s (pauses included). Shorten it or speak faster.`,
    { spent: true },
  );
}

/**
 * Renders a request sentence by sentence. The first chunk is ready after the first sentence
 * (its first second, in fact), whatever the length of the text; concatenating every chunk's
 * bytes gives the whole file (a streamed WAV carries placeholder sizes, see
 * encode/encoders.ts).
 */
export async function* synthesizeStream(
  request: SpeechRequest,
  options: SynthesisOptions = {},
): AsyncGenerator<SynthesisChunk> {
  yield* streamChecked(checkRequest(request), options);
}

/**
 * `synthesizeStream` of a request `checkRequest` answered (the pool checks each request once,
 * on its own thread, for its cache key and its queue, and its workers render it as checked).
 */
export async function* streamChecked(
  request: CheckedRequest,
  options: SynthesisOptions = {},
): AsyncGenerator<SynthesisChunk> {
  const prepared = await prepare(request, options);
  const { format, sampleRate } = prepared.request;
  const encoder = await createStreamEncoder(format, sampleRate);
  let empty = true;
  let warned = 0;
  const newWarnings = () => {
    const fresh = prepared.warnings.list().slice(warned);
    warned += fresh.length;
    return fresh;
  };
  const encoded = (part: SentenceAudio) => {
    let audio = encoder.encode(part.pcm);
    if (part.last) audio = joinBytes(audio, encoder.finish());
    return { part, audio };
  };
  const steps = renderSentences(prepared, (sentence) => {
    const [first, ...later] = empty ? firstSecondAhead(sentence, sampleRate) : [sentence];
    empty = false;
    // The first second is encoded now and sent; the rest of the first sentence after it, from
    // a copy taken first (the PCM may be the resampler's memory, which the WAV encoder
    // converts in place and the next sentence rewrites).
    const rest = later.map((part) => ({ ...part, pcm: part.pcm.slice() }));
    return [encoded(first as SentenceAudio), ...rest];
  });
  for await (const parts of steps) {
    for (const step of parts) {
      const { part, audio } = 'audio' in step ? step : encoded(step);
      yield {
        audio,
        start: part.start,
        duration: part.duration,
        marks: part.marks,
        mimeType: encoder.mimeType,
        sampleRate,
        last: part.last,
        warnings: newWarnings(),
      };
    }
  }
  if (empty) {
    yield {
      audio: encoder.finish(),
      start: 0,
      duration: 0,
      marks: [],
      mimeType: encoder.mimeType,
      sampleRate,
      last: true,
      warnings: newWarnings(),
    };
  }
}

/** Renders a whole request: encoded audio, its duration and its word and sentence marks. */
export async function synthesize(
  request: SpeechRequest,
  options: SynthesisOptions = {},
): Promise<SynthesisResult> {
  return synthesizeChecked(checkRequest(request), options);
}

/** `synthesize` of a request `checkRequest` answered (see `streamChecked`). */
export async function synthesizeChecked(
  request: CheckedRequest,
  options: SynthesisOptions = {},
): Promise<SynthesisResult> {
  const prepared = await prepare(request, options);
  const { format, sampleRate } = prepared.request;
  // Each sentence is encoded as soon as it is rendered, so that only the encoded file is
  // held, never the PCM of the whole text (at 48 kHz, 4 bytes a sample: 690 MB an hour).
  const encoder = await WholeFileEncoder.create(format, sampleRate);
  const marks: Mark[] = [];
  const sentences = renderSentences(prepared, (sentence) => {
    encoder.add(sentence.pcm);
    return sentence.marks;
  });
  for await (const heard of sentences) marks.push(...heard);
  const { audio, samples } = encoder.finish();
  return {
    audio,
    mimeType: MIME_TYPES[format],
    format,
    duration: samples / sampleRate,
    sampleRate,
    marks,
    warnings: prepared.warnings.list(),
  };
}
