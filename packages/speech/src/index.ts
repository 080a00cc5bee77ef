/**
 * @parla/speech — Parla's speech engine, usable on its own (no HTTP, no users).
 *
 * - `listVoices(voicesDir?)`: every espeak-ng language with its voices (SPEC §3
 *   "Language"/"Voice"), plus the neural voices installed in the voices directory.
 * - `synthesize(request)`: the request is SPEC §3 "Voice settings"; answers the encoded audio,
 *   its mime type, duration, sample rate and word/sentence marks.
 * - `synthesizeStream(request)`: the same, sentence by sentence, as an async iterable.
 * - `SpeechPool`: the same calls on worker threads, with a disk cache; one per process.
 * - `parseSsml(text)`: the SSML dialect of docs/ssml.md, with line:column errors.
 *
 * - `installVoice`, `removeVoice`, `fetchCatalogue`: neural voices from Piper's catalogue
 *   (docs/neural-voices.md); `npm run voices` is their command line.
 *
 * See README.md for the pipeline, the backends and how effects are made.
 */
export type { DocumentItem, Prosody, SpeechDocument } from './document.js';
export { EFFECT_PRESETS, type EffectPreset } from './effects.js';
export type { BackendChoice } from './engines/espeak/backends.js';
export { nativeAvailable } from './engines/espeak/backends.js';
export {
  deserializeError,
  type SerializedSpeechError,
  type SourcePosition,
  SpeechError,
  type SpeechErrorCode,
  SsmlError,
  serializeError,
} from './errors.js';
export {
  type CatalogueVoice,
  DEFAULT_CATALOGUE_URL,
  fetchCatalogue,
  installVoice,
  removeVoice,
} from './engines/piper/install.js';
export {
  type InstalledVoice,
  MANIFEST_FILE,
  scanVoices,
  type VoiceManifest,
} from './engines/piper/manifest.js';
export { NEURAL_EFFECTS } from './engines/piper/voices.js';
export { type Normalised, normaliseSayAs } from './normalise/say-as.js';
export { CACHE_VERSION, cacheKey } from './pool/cache.js';
export { type PooledResult, SpeechPool, type SpeechPoolOptions } from './pool/pool.js';
export { SSML_LIMITS } from './ssml/limits.js';
export { escapeXml, looksLikeSsml, parseSsml } from './ssml/parser.js';
export {
  type Mark,
  type SynthesisChunk,
  type SynthesisOptions,
  type SynthesisRequest,
  type SynthesisResult,
  synthesize,
  synthesizeStream,
} from './synthesize.js';
export { listVoices, resolveVoice } from './voices.js';
