/**
 * Kokoro-82M models as sherpa-onnx publishes them: one .tar.bz2 per model on the GitHub release
 * `tts-models` of k2-fsa/sherpa-onnx, named as the folder it unpacks to
 * (https://k2-fsa.github.io/sherpa/onnx/tts/pretrained_models/kokoro.html). The host publishes
 * no checksum for these; the download checks the size the objects host announces, and the
 * install loads the model in a child process before it is listed. Sizes here are approximate
 * (for `voices available` and the progress of a first start), languages those Parla speaks
 * with the model (engines/piper/install.ts: Japanese needs a lexicon the archives lack).
 *
 * Kokoro-82M's weights are Apache-2.0 (huggingface.co/hexgrad/Kokoro-82M), which allows
 * commercial use: see docs/decisions/028-default-voices.md.
 */

export const DEFAULT_KOKORO_BASE_URL =
  'https://github.com/k2-fsa/sherpa-onnx/releases/download/tts-models/';

export interface KokoroModel {
  name: string;
  /** Approximate size of the archive in bytes. */
  size: number;
  quality: string;
  speakers: number;
  languages: string[];
  license: string;
}

const V1_0_LANGUAGES = ['en-us', 'en-gb', 'es', 'fr-fr', 'hi', 'it', 'pt-br', 'cmn'];
const V1_1_LANGUAGES = ['en-us', 'en-gb', 'cmn'];
const V0_19_LANGUAGES = ['en-us', 'en-gb'];
const LICENSE = 'Apache-2.0';

export const KOKORO_MODELS: readonly KokoroModel[] = [
  {
    name: 'kokoro-int8-multi-lang-v1_0',
    size: 132_000_000,
    quality: 'int8',
    speakers: 53,
    languages: V1_0_LANGUAGES,
    license: LICENSE,
  },
  {
    name: 'kokoro-multi-lang-v1_0',
    size: 330_000_000,
    quality: 'fp32',
    speakers: 53,
    languages: V1_0_LANGUAGES,
    license: LICENSE,
  },
  {
    name: 'kokoro-int8-multi-lang-v1_1',
    size: 140_000_000,
    quality: 'int8',
    speakers: 103,
    languages: V1_1_LANGUAGES,
    license: LICENSE,
  },
  {
    name: 'kokoro-multi-lang-v1_1',
    size: 350_000_000,
    quality: 'fp32',
    speakers: 103,
    languages: V1_1_LANGUAGES,
    license: LICENSE,
  },
  {
    name: 'kokoro-en-v0_19',
    size: 305_000_000,
    quality: 'fp32',
    speakers: 11,
    languages: V0_19_LANGUAGES,
    license: LICENSE,
  },
  {
    name: 'kokoro-int8-en-v0_19',
    size: 100_000_000,
    quality: 'int8',
    speakers: 11,
    languages: V0_19_LANGUAGES,
    license: LICENSE,
  },
];

export function kokoroModel(name: string): KokoroModel | undefined {
  return KOKORO_MODELS.find((model) => model.name === name);
}

/** The release download address of a model (`<base><name>.tar.bz2`). */
export function kokoroUrl(model: KokoroModel, base = DEFAULT_KOKORO_BASE_URL): string {
  return new URL(`${model.name}.tar.bz2`, base.endsWith('/') ? base : `${base}/`).href;
}

/**
 * Kokoro's own grades of its speakers ("Overall Grade" in hexgrad/Kokoro-82M's VOICES.md, as
 * kokoro-js's README reproduces them), English speakers only: the grades of the other
 * languages were not found in a source read here. The installer writes them in the manifest;
 * the best graded voice of a language is listed, and so chosen by default, first.
 */
export const KOKORO_GRADES: Readonly<Record<string, string>> = {
  af_heart: 'A',
  af_bella: 'A-',
  af_nicole: 'B-',
  af_aoede: 'C+',
  af_kore: 'C+',
  af_sarah: 'C+',
  af_alloy: 'C',
  af_nova: 'C',
  af_sky: 'C-',
  af_jessica: 'D',
  af_river: 'D',
  am_fenrir: 'C+',
  am_michael: 'C+',
  am_puck: 'C+',
  am_echo: 'D',
  am_eric: 'D',
  am_liam: 'D',
  am_onyx: 'D',
  am_santa: 'D-',
  am_adam: 'F+',
  bf_emma: 'B-',
  bf_isabella: 'C',
  bf_alice: 'D',
  bf_lily: 'D',
  bm_fable: 'C',
  bm_george: 'C',
  bm_lewis: 'D+',
  bm_daniel: 'D',
};
