/**
 * @parla/speech — Parla's speech engine, usable on its own (no HTTP, no users).
 *
 * - `listVoices(config)`: every engine's languages with their voices (SPEC §3
 *   "Language"/"Voice").
 * - `synthesize(request, config)`: the request is the library's `SpeechRequest` (request.ts;
 *   `speechRequestFromSettings` maps the product's payload to it); answers the encoded
 *   audio, its mime type, duration, sample rate, word/sentence marks and `warnings`
 *   (`SpeechWarning`: code, message, line, column) for markup it could not render as asked.
 * - `synthesizeStream(request, config)`: the same, sentence by sentence, as an async iterable.
 * - `SpeechPool`: the same calls on worker threads, with a disk cache; one per process.
 * - `SpeechEngine`, `engineRegistry`: the engine interface and the configured engines.
 * - `parseSsml(text)`: the SSML dialect of docs/ssml.md, with line:column errors.
 * - `parsePls(file)`, `toPls(lexicon)`: W3C PLS 1.0 pronunciation lexicons; a request's
 *   `lexicons` apply them (lexicons/apply.ts); `ssmlLexiconNames(text)` lists those its SSML
 *   `<lexicon uri>` names, for the caller to pass as `lexiconLibrary`.
 * - `speechMarks(text, marks)`, `subtitles(speechMarks, duration, format)`: a rendering's
 *   marks in Polly's speech-mark shape, offsets into the text as typed; WebVTT and SRT.
 *
 * - `installAny`, `installVoice`, `removeVoice`, `fetchCatalogue`: neural voices from Piper's
 *   catalogue, sherpa-onnx's Kokoro releases, an address or a file (docs/neural-voices.md);
 *   `npm run voices` is their command line.
 *
 * See README.md for the pipeline, the backends and how effects are made.
 */
export type { DocumentItem, Prosody, SpeechDocument } from './document.js';
export type { Pcm } from './dsp/dsp.js';
export { EFFECT_PRESETS, type EffectPreset } from './effects.js';
export {
  createStreamEncoder,
  MIME_TYPES,
  pcm16ToSamples,
  type StreamEncoder,
  wavHeader,
} from './encode/encoders.js';
export { chapterComments, withVorbisComments } from './encode/vorbis-comments.js';
export type { AzureConfig } from './engines/azure/index.js';
export type { BackendChoice } from './engines/espeak/backends.js';
export { nativeAvailable } from './engines/espeak/backends.js';
export { EXTRA_LANGUAGES } from './engines/espeak/catalogue.js';
export type { EspeakConfig } from './engines/espeak/index.js';
export type { OpenAiConfig } from './engines/openai/index.js';
export { UnreachableError } from './engines/piper/download.js';
export type { PiperConfig } from './engines/piper/index.js';
export {
  type CatalogueVoice,
  DEFAULT_CATALOGUE_URL,
  fetchCatalogue,
  type InstallOptions,
  installAny,
  installFromUrl,
  installLocalVoice,
  installVoice,
  removeVoice,
} from './engines/piper/install.js';
export {
  DEFAULT_KOKORO_BASE_URL,
  KOKORO_MODELS,
  type KokoroModel,
  kokoroModel,
} from './engines/piper/kokoro-catalogue.js';
export {
  type InstalledVoice,
  MANIFEST_FILE,
  scanVoices,
  type VoiceManifest,
} from './engines/piper/manifest.js';
export { NEURAL_EFFECTS } from './engines/piper/voices.js';
export type { PollyConfig } from './engines/polly/index.js';
export { EngineRegistry, engineRegistry, type SpeechConfig } from './engines/registry.js';
export type { ProviderStatus } from './engines/remote/provider.js';
export type {
  EngineCapabilities,
  EngineVoice,
  RenderedSegment,
  Segment,
  SpeechEngine,
} from './engines/types.js';
export {
  deserializeError,
  isClientError,
  type SerializedSpeechError,
  type SourcePosition,
  SPEECH_ERROR_CODES,
  SpeechError,
  type SpeechErrorCode,
  SsmlError,
  serializeError,
} from './errors.js';
export { type SpeechLexicon, ssmlLexiconNames } from './lexicons/apply.js';
export { PlsError, type PlsLexicon, parsePls, toPls } from './lexicons/pls.js';
export { speechMarks, speechMarksOf, subtitles } from './marks.js';
export { type Normalised, normaliseSayAs } from './normalise/say-as.js';
export { CACHE_VERSION, cacheKey } from './pool/cache.js';
export {
  callerFullError,
  type PoolCaller,
  type PooledResult,
  queueFullError,
  resultFromChunks,
  SpeechPool,
  type SpeechPoolOptions,
  WORK_SECONDS_PER_CHARACTER,
} from './pool/pool.js';
export { checkSettings, speechRequestFromSettings } from './product.js';
export { type CheckedRequest, type SpeechRequest, SpeechRequestSchema } from './request.js';
export { SSML_LIMITS } from './ssml/limits.js';
export { escapeXml, looksLikeSsml, parseSsml } from './ssml/parser.js';
export {
  type Mark,
  type SynthesisChunk,
  type SynthesisOptions,
  type SynthesisResult,
  synthesize,
  synthesizeStream,
} from './synthesize.js';
export { catalogueSummary, listVoices, naturalVoiceCount, selectVoices } from './voices.js';
/** `npm run voices` and `parla voices`: available, install, list, remove (docs/neural-voices.md). */
export { main as voicesMain } from './voices-cli.js';
export {
  formatWarning,
  SPEECH_WARNING_CODES,
  type SpeechWarning,
  type SpeechWarningCode,
} from './warnings.js';
