import {
  type AudioFormat,
  sampleRateError,
  type VoiceEffect,
  type VoiceSettings,
  VoiceSettingsSchema,
} from '@parla/contract';
import type { DocumentItem, VoiceGender } from './document.js';
import {
  applyGain,
  bleep,
  concat,
  firstSound,
  inBreath,
  lastSound,
  lowPass,
  silence,
  softLimit,
  trimSilence,
} from './dsp/dsp.js';
import { pitchShift } from './dsp/pitch.js';
import { resample } from './dsp/resample.js';
import { presetFor, variantFile } from './effects.js';
import { createStreamEncoder, MIME_TYPES, pcm16, wavHeader } from './encode/encoders.js';
import type { EspeakBackend } from './engine/backend.js';
import {
  type BackendChoice,
  defaultBackendChoice,
  selectBackend,
  wasmBackend,
} from './engine/backends.js';
import { pitchParameter, wordsPerMinute } from './engine/params.js';
import { SpeechError } from './errors.js';
import { loadNeuralModel } from './neural/engine.js';
import {
  isNeuralId,
  listNeuralVoices,
  type NeuralVoice,
  neuralVoiceForLanguage,
  resolveNeuralVoice,
} from './neural/voices.js';
import { normaliseDocument } from './normalise/document.js';
import {
  checkAudioLength,
  groupSentences,
  planSentences,
  type Sentence,
  type SpeechPiece,
  sentenceText,
} from './plan.js';
import { escapeXml, parseSsml } from './ssml/parser.js';
import { pitchPercentToSemitones, speedPercentToFactor } from './ssml/prosody-values.js';
import { type AnyVoice, type ResolvedVoice, resolveVoice, voiceForLanguage } from './voices.js';

/** The request is SPEC §3 "Voice settings", exactly as the server receives it. */
export type SynthesisRequest = VoiceSettings;

export interface SynthesisOptions {
  /** espeak-ng backend; default from PARLA_SPEECH_BACKEND, else `auto`. */
  backend?: BackendChoice;
  /**
   * Apply the product's sample-rate rules (SPEC §5, from @parla/contract: wav is 16 kHz, the
   * standard engine stops at 24 kHz). Default true. The engine itself renders every format at
   * every rate of SPEC §9; benchmarks and other users of the library may turn the rules off.
   */
  productRules?: boolean;
  /**
   * The voices directory of the neural engine (one folder per installed voice); default from
   * VOICES_DIR. Without one, only the standard engine has voices.
   */
  voicesDir?: string | undefined;
}

/** The voices directory a call uses. */
export function voicesDirOf(options: SynthesisOptions): string | undefined {
  return options.voicesDir ?? (process.env.VOICES_DIR || undefined);
}

/**
 * A word, a sentence or an SSML `<mark name>` (its name in `text`; `start` = `end`) and when
 * it is heard, in seconds from the start of the audio.
 */
export interface Mark {
  type: 'word' | 'sentence' | 'mark';
  start: number;
  end: number;
  text: string;
}

export interface SynthesisResult {
  audio: Uint8Array;
  mimeType: string;
  format: AudioFormat;
  /** Seconds of audio (the PCM length, not counting encoder padding). */
  duration: number;
  sampleRate: number;
  marks: Mark[];
  /** Which espeak-ng backend rendered it, or `neural` for a neural voice. */
  backend: 'wasm' | 'native' | 'neural';
  /** Markup understood but not (fully) rendered, each with its `line:column` when known. */
  warnings: string[];
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
  warnings: string[];
}

/** espeak-ng's output rate; a neural voice renders at its model's own rate. */
const STANDARD_RATE = 22050;

/** Finds the request's voice for its engine, or throws SpeechError. */
async function mainVoice(
  settings: VoiceSettings,
  voicesDir: string | undefined,
): Promise<AnyVoice> {
  const id = settings.voice_id;
  if (settings.engine === 'neural') {
    const voice = await resolveNeuralVoice(id, voicesDir);
    if (voice) return voice;
    if ((await listNeuralVoices(voicesDir)).length === 0) {
      throw new SpeechError(
        'unknown-voice',
        'The neural engine has no voices installed; use the standard engine.',
      );
    }
    throw new SpeechError(
      'unknown-voice',
      isNeuralId(id)
        ? `Unknown neural voice "${id}".`
        : `"${id}" is not a neural voice; choose a neural voice or the standard engine.`,
    );
  }
  if (isNeuralId(id)) {
    throw new SpeechError('unknown-voice', `The voice "${id}" needs the neural engine.`);
  }
  const voice = await resolveVoice(id);
  if (!voice) throw new SpeechError('unknown-voice', `Unknown voice "${id}".`);
  return voice;
}

/** Checks a request and answers it in a parsed form, or throws SpeechError. */
async function prepare(request: SynthesisRequest, options: SynthesisOptions) {
  const productRules = options.productRules ?? true;
  const voicesDir = voicesDirOf(options);
  const parsed = VoiceSettingsSchema.safeParse(request);
  // Without the product rules only the sample-rate refinement is waived; the fields' own
  // checks (a rate of SPEC §9, a known format) still apply.
  const issues = parsed.success
    ? []
    : parsed.error.issues.filter(
        (i) => productRules || !(i.code === 'custom' && i.path[0] === 'sample_rate'),
      );
  if (!parsed.success && issues.length > 0) {
    const issue = issues[0];
    const field = issue?.path.join('.') ?? '';
    const message = issue?.message ?? 'invalid request';
    const rateIssue = issue?.path[0] === 'sample_rate';
    throw new SpeechError(
      rateIssue ? 'sample-rate' : 'invalid-request',
      field && !rateIssue ? `${field}: ${message}` : message,
    );
  }
  const settings = parsed.success ? parsed.data : (request as VoiceSettings);
  const rateError = productRules
    ? sampleRateError(settings.engine, settings.output_format, settings.sample_rate)
    : undefined;
  if (rateError) throw new SpeechError('sample-rate', rateError);
  const voice = await mainVoice(settings, voicesDir);
  // The whole request is rendered at the main voice's rate, then resampled once.
  const rate =
    voice.engine === 'neural' ? (await loadNeuralModel(voice.installed)).sampleRate : STANDARD_RATE;
  const document = parseSsml(settings.text);
  const warnings = new Set(document.warnings);
  const voices = new VoiceLookup(voice, voicesDir, warnings);
  const normalised = await normaliseDocument(document, async (item) =>
    item.kind === 'text' ? (await voices.forItem(item)).language : voice.language,
  );
  const sentences = planSentences(normalised);
  checkAudioLength(sentences, document.sourceLength, speedPercentToFactor(settings.master_speed));
  return { settings, voice, voices, rate, voicesDir, sentences, warnings };
}

/** Resolves `<voice>` switches, remembering the answers. */
class VoiceLookup {
  private readonly cache = new Map<string, Promise<AnyVoice>>();
  constructor(
    readonly main: AnyVoice,
    private readonly voicesDir: string | undefined,
    private readonly warnings: Set<string>,
  ) {}

  forItem(item: VoiceChoice): Promise<AnyVoice> {
    const key = `${item.voice ?? ''}|${item.language ?? ''}|${item.gender ?? ''}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.lookUp(item);
      this.cache.set(key, found);
    }
    return found;
  }

  /**
   * SSML 1.1 §3.2.1 with its default `onvoicefailure="priorityselect"`: the name first; a name
   * no engine has is dropped (with a warning) and the language and gender choose.
   */
  private async lookUp(item: VoiceChoice): Promise<AnyVoice> {
    if (item.voice !== undefined) {
      const voice = isNeuralId(item.voice)
        ? await resolveNeuralVoice(item.voice, this.voicesDir)
        : await resolveVoice(item.voice);
      if (voice) return voice;
      this.warnings.add(
        `<voice name="${item.voice}"> is not a Parla voice; the voice is chosen by language and gender instead`,
      );
    }
    const mainGender = this.main.engine === 'neural' ? this.main.gender : this.main.variant.gender;
    const gender = item.gender === 'male' || item.gender === 'female' ? item.gender : mainGender;
    const language =
      item.language === undefined || speaks(this.main.language, item.language)
        ? this.main.language
        : item.language;
    if (language !== this.main.language || gender !== mainGender) {
      // A neural main voice switches to a neural voice of the language where one is installed.
      const voice =
        (this.main.engine === 'neural'
          ? await neuralVoiceForLanguage(language, gender, this.voicesDir)
          : undefined) ?? (await voiceForLanguage(language, gender));
      if (!voice) {
        throw new SpeechError('unknown-voice', `No voice speaks the language "${language}".`);
      }
      return voice;
    }
    return this.main;
  }
}

/** What a `<voice>`, `<lang>` or `xml:lang` asks for. */
type VoiceChoice = { voice?: string; language?: string; gender?: VoiceGender };

/** Whether a voice of `voiceLanguage` ("en-us") answers for `wanted` ("en-US", or just "en"). */
function speaks(voiceLanguage: string, wanted: string): boolean {
  const [have = '', haveRegion] = voiceLanguage.toLowerCase().split('-');
  const [want = '', wantRegion] = wanted.toLowerCase().split('-');
  return have === want && (wantRegion === undefined || wantRegion === haveRegion);
}

interface SentenceAudio {
  /** PCM at the requested rate, master volume applied. */
  pcm: Float32Array;
  start: number;
  duration: number;
  marks: Mark[];
  last: boolean;
}

/** The pipeline after checking: render, resample and level each sentence in turn. */
async function* renderSentences(
  prepared: Awaited<ReturnType<typeof prepare>>,
  backend: EspeakBackend,
): AsyncGenerator<SentenceAudio> {
  const { settings, voices, rate } = prepared;
  // The native program is started once per group of sentences (a neural voice renders each
  // sentence in this thread, so it is never grouped).
  const grouped = backend.name === 'native' && prepared.voice.engine === 'standard';
  const sentences = grouped ? groupSentences(prepared.sentences) : prepared.sentences;
  const renderer = new Renderer(backend, settings, voices, rate, prepared.warnings);
  let position = 0;
  // The native program runs in other processes: two groups render while this one is resampled
  // and encoded. (The WebAssembly build runs on this thread, so it gains nothing.)
  const ahead = grouped ? 2 : 0;
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
    start(index);
    const rendered = await (started[index] as Promise<RenderedSentence>);
    delete started[index];
    // Only now, so that the first sentence has the machine to itself and is heard early.
    for (let i = index + 1; i <= index + ahead; i++) start(i);
    const pcm = resample(rendered.samples, rate, settings.sample_rate);
    // After resampling, so that the limiter also catches the resampler's overshoot.
    applyGain(pcm, settings.master_volume);
    if (settings.master_volume > 0) softLimit(pcm);
    const duration = pcm.length / settings.sample_rate;
    const scale = rendered.samples.length > 0 ? duration / (rendered.samples.length / rate) : 1;
    const marks: Mark[] = rendered.marks.map((mark) => ({
      ...mark,
      start: position + mark.start * scale,
      end: position + mark.end * scale,
    }));
    const text = sentenceText(sentence);
    if (text) marks.unshift({ type: 'sentence', start: position, end: position + duration, text });
    yield { pcm, start: position, duration, marks, last: index === sentences.length - 1 };
    position += duration;
  }
}

/**
 * Seconds of the first sentence sent ahead of the rest of it: the mp3 encoder (LAME in
 * WebAssembly, about 140 times real time at 48 kHz) would otherwise hold the first bytes back
 * for as long as it takes to encode the whole sentence.
 */
const FIRST_CHUNK_SECONDS = 1;

/** The first sentence as its first second and the rest, each with the marks that start in it. */
function firstSecondAhead(sentence: SentenceAudio, sampleRate: number): SentenceAudio[] {
  const cut = Math.round(FIRST_CHUNK_SECONDS * sampleRate);
  if (sentence.pcm.length <= 2 * cut) return [sentence];
  const boundary = sentence.start + cut / sampleRate;
  return [
    {
      pcm: sentence.pcm.subarray(0, cut),
      start: sentence.start,
      duration: cut / sampleRate,
      marks: sentence.marks.filter((mark) => mark.start < boundary),
      last: false,
    },
    {
      pcm: sentence.pcm.subarray(cut),
      start: boundary,
      duration: sentence.duration - cut / sampleRate,
      marks: sentence.marks.filter((mark) => mark.start >= boundary),
      last: sentence.last,
    },
  ];
}

/**
 * Renders a request sentence by sentence. The first chunk is ready after the first sentence
 * (its first second, in fact), whatever the length of the text; concatenating every chunk's
 * bytes gives the whole file (a streamed WAV carries placeholder sizes, see
 * encode/encoders.ts).
 */
export async function* synthesizeStream(
  request: SynthesisRequest,
  options: SynthesisOptions = {},
): AsyncGenerator<SynthesisChunk> {
  const prepared = await prepare(request, options);
  const backend = await selectBackend(options.backend ?? defaultBackendChoice());
  const { output_format: format, sample_rate: sampleRate } = prepared.settings;
  const encoder = await createStreamEncoder(format, sampleRate);
  let empty = true;
  let warned = 0;
  const newWarnings = () => {
    const all = [...prepared.warnings];
    const fresh = all.slice(warned);
    warned = all.length;
    return fresh;
  };
  for await (const sentence of renderSentences(prepared, backend)) {
    const parts = empty ? firstSecondAhead(sentence, sampleRate) : [sentence];
    empty = false;
    for (const part of parts) {
      let audio = encoder.encode(part.pcm);
      if (part.last) audio = joinBytes([audio, encoder.finish()]);
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
  request: SynthesisRequest,
  options: SynthesisOptions = {},
): Promise<SynthesisResult> {
  const prepared = await prepare(request, options);
  const backend = await selectBackend(options.backend ?? defaultBackendChoice());
  const { output_format: format, sample_rate: sampleRate } = prepared.settings;
  // Each sentence is encoded as soon as it is rendered, so that only the encoded file is
  // held, never the PCM of the whole text (at 48 kHz, 4 bytes a sample: 690 MB an hour).
  const encoder = format === 'wav' ? undefined : await createStreamEncoder(format, sampleRate);
  // A WAV's header (with exact sizes) is set in front once the length is known.
  const bytes: Uint8Array[] = encoder ? [] : [new Uint8Array(0)];
  const marks: Mark[] = [];
  let samples = 0;
  for await (const sentence of renderSentences(prepared, backend)) {
    bytes.push(encoder ? encoder.encode(sentence.pcm) : pcm16(sentence.pcm));
    marks.push(...sentence.marks);
    samples += sentence.pcm.length;
  }
  if (encoder) bytes.push(encoder.finish());
  else bytes[0] = wavHeader(sampleRate, samples * 2);
  const audio = joinBytes(bytes);
  return {
    audio,
    mimeType: MIME_TYPES[format],
    format,
    duration: samples / sampleRate,
    sampleRate,
    marks,
    backend: prepared.voice.engine === 'neural' ? 'neural' : backend.name,
    warnings: [...prepared.warnings],
  };
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

interface RenderedSentence {
  samples: Float32Array;
  /** Word marks, in seconds from the start of the sentence at 22,050 Hz. */
  marks: Mark[];
}

/** Pause kept between two pieces of one sentence (e.g. around an emphasised word). */
const JOIN_GAP = 0.05;
/** Sound kept after the last word before an explicit break, and before the next word. */
const BREAK_TAIL = 0.02;
const BREAK_HEAD = 0.01;

class Renderer {
  private readonly variants = new Map<string, Promise<string>>();
  private readonly masterRate: number;
  private readonly masterPitch: number;

  constructor(
    private readonly backend: EspeakBackend,
    private readonly settings: VoiceSettings,
    private readonly voices: VoiceLookup,
    /** The rate every piece of the request is rendered at. */
    private readonly rate: number,
    private readonly warnings: Set<string>,
  ) {
    this.masterRate = speedPercentToFactor(settings.master_speed);
    this.masterPitch = pitchPercentToSemitones(settings.master_pitch);
  }

  async sentence(sentence: Sentence, afterBreak: boolean): Promise<RenderedSentence> {
    const parts: Float32Array[] = [];
    const marks: Mark[] = [];
    let length = 0;
    const units = sentence.units;
    // A mark takes no time: the units around it are each other's neighbours.
    const neighbour = (index: number, step: 1 | -1) => {
      for (let i = index + step; i >= 0 && i < units.length; i += step) {
        if (units[i]?.kind !== 'mark') return units[i];
      }
      return undefined;
    };
    for (const [index, unit] of units.entries()) {
      const previous = neighbour(index, -1);
      const next = neighbour(index, 1);
      if (unit.kind === 'mark') {
        const at = length / this.rate;
        marks.push({ type: 'mark', start: at, end: at, text: unit.name });
        continue;
      }
      if (unit.kind === 'breath') {
        const breath = this.breath(length);
        parts.push(breath);
        length += breath.length;
        continue;
      }
      if (unit.kind === 'break') {
        const pause = silence(unit.seconds, this.rate);
        parts.push(pause);
        length += pause.length;
        continue;
      }
      if (unit.kind === 'bleep') {
        const tone = bleep(unit.seconds / (this.masterRate * unit.prosody.rate), this.rate);
        applyGain(tone, unit.prosody.volume);
        parts.push(tone);
        length += tone.length;
        continue;
      }
      const piece = await this.piece(unit);
      const precededByPause = previous ? previous.kind !== 'speech' : afterBreak;
      const start = previous?.kind === 'speech' ? 0 : precededByPause ? BREAK_HEAD : undefined;
      const end = next === undefined ? undefined : next.kind === 'speech' ? JOIN_GAP : BREAK_TAIL;
      const trimmed = trimSilence(piece.samples, this.rate, {
        ...(start !== undefined && { start }),
        ...(end !== undefined && { end }),
      });
      if (piece.breaths && (previous === undefined || previous.kind === 'break')) {
        const breath = this.breath(length);
        parts.push(breath);
        length += breath.length;
      }
      const offset = length / this.rate - trimmed.cutStart / this.rate;
      const pieceEnd = (length + trimmed.samples.length) / this.rate;
      piece.words.forEach((word, i) => {
        const following = piece.words[i + 1];
        marks.push({
          type: 'word',
          start: Math.max(length / this.rate, offset + word.time),
          end: Math.min(pieceEnd, following ? offset + following.time : pieceEnd),
          text: word.text,
        });
      });
      for (const mark of piece.marks) {
        const at = Math.min(pieceEnd, Math.max(length / this.rate, offset + mark.time));
        marks.push({ type: 'mark', start: at, end: at, text: mark.name });
      }
      parts.push(trimmed.samples);
      length += trimmed.samples.length;
    }
    // Stable: a word and a mark at the same time keep their order.
    marks.sort((a, b) => a.start - b.start);
    return { samples: concat(parts), marks };
  }

  private async piece(piece: SpeechPiece): Promise<{
    samples: Float32Array;
    words: { time: number; text: string }[];
    marks: { time: number; name: string }[];
    breaths: boolean;
  }> {
    const voice = await this.voices.forItem(piece);
    const effect: VoiceEffect | undefined = piece.effect ?? this.settings.effect ?? undefined;
    const preset = presetFor(effect);
    if (voice.engine === 'neural') return this.neuralPiece(voice, piece, effect, preset);
    const rate = wordsPerMinute(this.masterRate * piece.prosody.rate * preset.rate);
    const pitch = pitchParameter(this.masterPitch + piece.prosody.pitch + preset.pitch);
    const backend = this.backend.hasLanguage(voice.espeakName) ? this.backend : await wasmBackend();
    const espeakVoice = await this.espeakVoice(backend, voice, preset.variant);
    if (!backend.phonemeInput) {
      this.fallBackFromPhonemes(piece, 'the WebAssembly build of espeak-ng');
    }
    const { ssml, spans, markOffsets } = espeakSsml(piece, preset.range, backend.phonemeInput);
    const result = await backend.render({ voice: espeakVoice, ssml, rate, pitch });
    let samples = result.samples;
    if (preset.variant === 'soft') lowPass(samples, 3500, STANDARD_RATE);
    applyGain(samples, piece.prosody.volume + preset.volume);
    // A standard voice inside a neural voice's request (a `<voice>` switch).
    samples = resample(samples, STANDARD_RATE, this.rate);
    const words = wordMarks(ssml, spans, result.words);
    // A mark is heard with the next word espeak-ng reports, else at its share of the text.
    const marks = markShares(piece).map(({ name, share }, i) => ({
      name,
      time:
        result.words.find((word) => word.offset >= (markOffsets[i] ?? 0))?.time ??
        atShare(samples, this.rate, share),
    }));
    return { samples, words, marks, breaths: preset.breaths === true };
  }

  /**
   * A piece in a neural voice. The model controls its speed (length scale); pitch goes
   * through signal processing and volume through gain; the standard-only effects need
   * espeak-ng's variants. A VITS model reports no word timings, so word marks are spread
   * over the sound in proportion to the words' lengths.
   */
  private async neuralPiece(
    voice: NeuralVoice,
    piece: SpeechPiece,
    effect: VoiceEffect | undefined,
    preset: ReturnType<typeof presetFor>,
  ) {
    if (preset.variant || preset.breaths) {
      throw new SpeechError('invalid-request', `The ${effect} effect needs the standard engine.`);
    }
    this.fallBackFromPhonemes(piece, 'a neural voice');
    const model = await loadNeuralModel(voice.installed);
    const speed = Math.min(4, Math.max(0.25, this.masterRate * piece.prosody.rate * preset.rate));
    const text = piece.parts
      .map((part) => (part.spell ? [...part.text.replace(/\s+/g, '')].join(' ') : part.text))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    let samples = model.generate(text, voice.speaker, speed);
    samples = pitchShift(
      samples,
      this.masterPitch + piece.prosody.pitch + preset.pitch,
      model.sampleRate,
    );
    applyGain(samples, piece.prosody.volume + preset.volume);
    samples = resample(samples, model.sampleRate, this.rate);
    const marks = markShares(piece).map(({ name, share }) => ({
      name,
      time: atShare(samples, this.rate, share),
    }));
    return { samples, words: spreadWords(text, samples, this.rate), marks, breaths: false };
  }

  /** An in-breath and a short rest, varied by where it falls (`length` samples in). */
  private breath(length: number): Float32Array {
    return concat([inBreath(this.rate, length + 1), silence(0.08, this.rate)]);
  }

  /** Warns about each `<phoneme>` of a piece whose engine cannot read phonemes. */
  private fallBackFromPhonemes(piece: SpeechPiece, engine: string): void {
    for (const part of piece.parts) {
      if (part.phonemes) {
        this.warnings.add(
          `<phoneme ${part.phonemes.source}>: ${engine} cannot read phonemes; "${part.text}" is read instead`,
        );
      }
    }
  }

  private async espeakVoice(
    backend: EspeakBackend,
    voice: ResolvedVoice,
    variant: 'whisper' | 'soft' | 'breathy' | undefined,
  ): Promise<string> {
    if (!variant) return voice.espeakVoice;
    if (variant === 'whisper') {
      return `${voice.espeakName}+${voice.variant.gender === 'female' ? 'whisperf' : 'whisper'}`;
    }
    const key = `${backend.name}|${variant}|${voice.variant.variant}`;
    let name = this.variants.get(key) ?? installed.get(key);
    if (!name) {
      name = (async () => {
        const base = voice.variant.variant
          ? await backend.readVariant(voice.variant.variant)
          : undefined;
        const file = variantFile(variant, voice.variant.variant, base);
        await backend.installVariant(file.name, file.contents);
        return file.name;
      })();
      installed.set(key, name);
    }
    this.variants.set(key, name);
    return `${voice.espeakName}+${await name}`;
  }
}

/** Each `<mark>` inside a piece, with the share of the piece's text before it. */
function markShares(piece: SpeechPiece): { name: string; share: number }[] {
  const total = piece.parts.reduce((sum, part) => sum + part.text.length, 0) || 1;
  let before = 0;
  const shares: { name: string; share: number }[] = [];
  for (const part of piece.parts) {
    if (part.mark !== undefined) shares.push({ name: part.mark, share: before / total });
    before += part.text.length;
  }
  return shares;
}

/** Seconds into a sound at a share of its length, from its first to its last sound. */
function atShare(samples: Float32Array, rate: number, share: number): number {
  const from = firstSound(samples) / rate;
  const to = Math.max(from, lastSound(samples) / rate);
  return from + (to - from) * share;
}

/** Word marks for audio without word timings: each word gets a share of the sound. */
function spreadWords(
  text: string,
  samples: Float32Array,
  rate: number,
): { time: number; text: string }[] {
  const words = text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0 || samples.length === 0) return [];
  const from = firstSound(samples) / rate;
  const to = Math.max(from, lastSound(samples) / rate);
  const total = words.reduce((sum, w) => sum + w.length + 1, 0);
  let done = 0;
  return words.map((word) => {
    const time = from + ((to - from) * done) / total;
    done += word.length + 1;
    return { time, text: word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') };
  });
}

/** Variant files are installed once per backend and thread. */
const installed = new Map<string, Promise<string>>();

interface Span {
  /** Offset of the escaped text in the SSML and of its plain form. */
  start: number;
  end: number;
}

/**
 * The espeak-ng input of a piece. Text is XML-escaped (espeak-ng reads SSML here, and would
 * swallow a bare `<`); emphasis and spelling use espeak-ng's own SSML, `<phoneme>` its `[[…]]`
 * phoneme input where the backend reads it; the effect's pitch
 * range goes through `<prosody range>` (a percentage of the voice's normal range).
 */
function espeakSsml(
  piece: SpeechPiece,
  range: number,
  phonemeInput: boolean,
): { ssml: string; spans: Span[]; markOffsets: number[] } {
  let ssml = '<speak>';
  if (range !== 50) ssml += `<prosody range="${Math.round((range / 50) * 100)}%">`;
  const spans: Span[] = [];
  const markOffsets: number[] = [];
  piece.parts.forEach((part, index) => {
    if (part.mark !== undefined) {
      markOffsets.push(ssml.length);
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
 * as `&lt;` becomes two "words"), so each event is attributed to the whitespace-separated token
 * of our text that contains it, once per token.
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
  for (const event of events) {
    const index = tokens.findIndex((t) => event.offset >= t.start && event.offset < t.end);
    if (index < 0 || index === lastToken) continue;
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

export type { DocumentItem };
