import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, type VoiceManifest } from '../src/engines/piper/manifest.js';
import {
  bytesField,
  floatField,
  intField,
  message,
  stringField,
} from '../src/engines/piper/protobuf.js';

/**
 * A tiny ONNX model with the signature of a Piper voice, for tests and for trying the neural
 * engine where no real model can be fetched (issue 8, item 4). It is not a speech model: it
 * answers a tone whose
 * - length is (number of phoneme ids) × HOP × length_scale samples, so `speed` changes it as
 *   it changes a real VITS model's duration;
 * - frequency is BASE_HZ + SPEAKER_STEP_HZ × sid, so every speaker of a multi-speaker model
 *   sounds different;
 * - loudness follows the phoneme ids (id mod 8), so the text changes the audio.
 * The model carries Piper's metadata (sherpa-onnx reads it: sherpa-onnx/csrc/
 * offline-tts-vits-model.cc) and a tokens.txt in Piper's phoneme-id layout.
 *
 * ONNX is protobuf; the few messages needed (onnx/onnx.proto: ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto) are written with protobuf.ts, which avoids a
 * dependency with an install script (protobufjs 6) for a test fixture.
 */

export const TEST_VOICE_HOP = 256;
export const TEST_VOICE_BASE_HZ = 180;
export const TEST_VOICE_SPEAKER_STEP_HZ = 90;

export interface TestVoiceOptions {
  /** Native sample rate (Piper's "medium" voices are 22050 Hz, "low" ones 16000). */
  sampleRate?: number;
  /** 1 gives a model without the `sid` input, like a single-speaker Piper voice. */
  speakers?: number;
  language?: string;
  /** espeak-ng voice the phonemes come from (Piper's `espeak.voice`), default en-us. */
  espeakVoice?: string;
  name?: string;
  /**
   * Leave out sherpa-onnx's metadata, as in a model from Piper's own catalogue (whose
   * settings are in a separate .onnx.json; the install command adds the metadata).
   */
  bare?: boolean;
}

// --- ONNX messages (field numbers from onnx/onnx.proto) -----------------------------------

const FLOAT = 1;
const INT64 = 7;

function tensor(name: string, type: typeof FLOAT | typeof INT64, dims: number[], values: number[]) {
  const raw = new Uint8Array(values.length * (type === FLOAT ? 4 : 8));
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => {
    if (type === FLOAT) view.setFloat32(i * 4, v, true);
    else view.setBigInt64(i * 8, BigInt(v), true);
  });
  return message(
    ...dims.map((d) => intField(1, d)),
    intField(2, type),
    stringField(8, name),
    bytesField(9, raw),
  );
}

function valueInfo(name: string, type: number, dims: (number | string)[]) {
  const shape = message(
    ...dims.map((d) => bytesField(1, typeof d === 'number' ? intField(1, d) : stringField(2, d))),
  );
  const tensorType = message(intField(1, type), bytesField(2, shape));
  return message(stringField(1, name), bytesField(2, bytesField(1, tensorType)));
}

type Attribute = { name: string; int: number } | { name: string; float: number };

function node(op: string, inputs: string[], outputs: string[], attributes: Attribute[] = []) {
  return message(
    ...inputs.map((i) => stringField(1, i)),
    ...outputs.map((o) => stringField(2, o)),
    stringField(3, `${op}_${outputs[0]}`),
    stringField(4, op),
    ...attributes.map((a) =>
      bytesField(
        5,
        'int' in a
          ? message(stringField(1, a.name), intField(3, a.int), intField(20, 2))
          : message(stringField(1, a.name), floatField(2, a.float), intField(20, 1)),
      ),
    ),
  );
}

/** The ONNX bytes of the test voice. */
export function testVoiceModel(options: TestVoiceOptions = {}): Uint8Array {
  const sampleRate = options.sampleRate ?? 22050;
  const speakers = options.speakers ?? 1;
  const espeakVoice = options.espeakVoice ?? 'en-us';
  const initializers = [
    tensor('one_i', INT64, [], [1]),
    tensor('eight_i', INT64, [], [8]),
    tensor('hop', FLOAT, [], [TEST_VOICE_HOP]),
    tensor('zero_f', FLOAT, [], [0]),
    tensor('one_f', FLOAT, [], [1]),
    tensor('base_hz', FLOAT, [], [TEST_VOICE_BASE_HZ]),
    tensor('step_hz', FLOAT, [], [TEST_VOICE_SPEAKER_STEP_HZ]),
    tensor('omega', FLOAT, [], [(2 * Math.PI) / sampleRate]),
    tensor('amp_base', FLOAT, [], [0.2]),
    tensor('amp_step', FLOAT, [], [0.05]),
    tensor('flat', INT64, [1], [-1]),
    tensor('out_shape', INT64, [3], [1, 1, -1]),
  ];
  const nodes = [
    // Number of samples: T × hop × length_scale.
    node('Shape', ['input'], ['input_shape']),
    node('Gather', ['input_shape', 'one_i'], ['t'], [{ name: 'axis', int: 0 }]),
    node('Sub', ['t', 'one_i'], ['last_index']),
    node('Cast', ['t'], ['t_f'], [{ name: 'to', int: FLOAT }]),
    node('Gather', ['scales', 'one_i'], ['length_scale'], [{ name: 'axis', int: 0 }]),
    node('Mul', ['hop', 'length_scale'], ['samples_per_id']),
    node('Mul', ['t_f', 'samples_per_id'], ['n_f']),
    node('Floor', ['n_f'], ['n_floor']),
    node('Range', ['zero_f', 'n_floor', 'one_f'], ['n']),
    // Frequency: base + step × sid.
    ...(speakers > 1
      ? [
          node('Cast', ['sid'], ['sid_f'], [{ name: 'to', int: FLOAT }]),
          node('Mul', ['sid_f', 'step_hz'], ['sid_hz']),
          node('Add', ['base_hz', 'sid_hz'], ['hz']),
        ]
      : [node('Identity', ['base_hz'], ['hz'])]),
    node('Mul', ['hz', 'omega'], ['w']),
    node('Mul', ['n', 'w'], ['phase']),
    node('Sin', ['phase'], ['tone']),
    // Loudness from the phoneme id heard at each sample.
    node('Div', ['n', 'samples_per_id'], ['id_pos']),
    node('Floor', ['id_pos'], ['id_floor']),
    node('Cast', ['id_floor'], ['id_index_raw'], [{ name: 'to', int: INT64 }]),
    node('Min', ['id_index_raw', 'last_index'], ['id_index']),
    node('Reshape', ['input', 'flat'], ['ids']),
    node('Gather', ['ids', 'id_index'], ['id_at'], [{ name: 'axis', int: 0 }]),
    node('Mod', ['id_at', 'eight_i'], ['id_mod']),
    node('Cast', ['id_mod'], ['id_mod_f'], [{ name: 'to', int: FLOAT }]),
    node('Mul', ['id_mod_f', 'amp_step'], ['amp_extra']),
    node('Add', ['amp_base', 'amp_extra'], ['amp']),
    node('Mul', ['tone', 'amp'], ['wave']),
    node('Reshape', ['wave', 'out_shape'], ['output']),
  ];
  const inputs = [
    valueInfo('input', INT64, [1, 'phonemes']),
    valueInfo('input_lengths', INT64, [1]),
    valueInfo('scales', FLOAT, [3]),
    ...(speakers > 1 ? [valueInfo('sid', INT64, [1])] : []),
  ];
  const graph = message(
    ...nodes.map((n) => bytesField(1, n)),
    stringField(2, 'parla_test_voice'),
    ...initializers.map((t) => bytesField(5, t)),
    ...inputs.map((i) => bytesField(11, i)),
    bytesField(12, valueInfo('output', FLOAT, [1, 1, 'time'])),
  );
  // Piper's export (piper/src/python/piper_train/export_onnx.py) plus what sherpa-onnx's
  // conversion script adds (scripts/piper/add_meta_data.py).
  const metadata: Record<string, string> = {
    model_type: 'vits',
    comment: 'piper',
    language: options.language ?? 'en-us',
    voice: espeakVoice,
    has_espeak: '1',
    n_speakers: String(speakers),
    sample_rate: String(sampleRate),
    add_blank: '0',
    punctuation: '',
  };
  return message(
    intField(1, 8), // ir_version
    stringField(2, 'parla make-test-voice'),
    bytesField(7, graph),
    bytesField(8, message(stringField(1, ''), intField(2, 13))), // opset 13
    ...Object.entries(options.bare ? {} : metadata).map(([key, value]) =>
      bytesField(14, message(stringField(1, key), stringField(2, value))),
    ),
  );
}

/**
 * Piper's phoneme ids: pad, begin, end, space and punctuation first, then the IPA symbols
 * espeak-ng produces (the layout of piper-phonemize's phoneme_id_map).
 */
const SYMBOLS = [
  '_',
  '^',
  '$',
  ' ',
  ..."!'(),-.:;?",
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'æçðøħŋœǀǁǂǃɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɨɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢʲˈˌːˑ˞βθχᵻⱱ',
  ...'\u0303\u0329\u032a\u032f\u033a\u033b\u0325\u030a',
  ...'ʰʷˤ↓↑→↗↘‖‿ꞌ',
];

export function testVoiceTokens(): string {
  return `${[...new Set(SYMBOLS)].map((s, id) => `${s} ${id}`).join('\n')}\n`;
}

/** Writes a test voice folder (model, tokens, manifest) and answers its manifest. */
export async function makeTestVoice(
  directory: string,
  options: TestVoiceOptions = {},
): Promise<VoiceManifest> {
  const speakers = options.speakers ?? 1;
  const model = testVoiceModel(options);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'model.onnx'), model);
  await writeFile(join(directory, 'tokens.txt'), testVoiceTokens());
  const manifest: VoiceManifest = {
    format: 1,
    name: options.name ?? 'Test voice',
    language: options.language ?? 'en-us',
    sample_rate: options.sampleRate ?? 22050,
    model: 'model.onnx',
    tokens: 'tokens.txt',
    license: 'CC0-1.0 (generated by packages/speech/scripts/make-test-voice.ts)',
    speakers: Array.from({ length: speakers }, (_, id) => ({
      id,
      name: speakers > 1 ? `Speaker ${id + 1}` : (options.name ?? 'Test voice'),
      gender: id % 2 === 0 ? 'female' : 'male',
    })),
    source: { md5: createHash('md5').update(model).digest('hex') },
  };
  await writeFile(join(directory, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Piper's voice configuration (`<voice>.onnx.json`) for the test model. */
export function testVoicePiperConfig(options: TestVoiceOptions = {}): Record<string, unknown> {
  const speakers = options.speakers ?? 1;
  const symbols = [...new Set(SYMBOLS)];
  return {
    audio: { sample_rate: options.sampleRate ?? 22050, quality: 'x_low' },
    espeak: { voice: options.espeakVoice ?? 'en-us' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_map: {},
    phoneme_id_map: Object.fromEntries(symbols.map((s, id) => [s, [id]])),
    num_symbols: symbols.length,
    num_speakers: speakers,
    speaker_id_map:
      speakers > 1
        ? Object.fromEntries(Array.from({ length: speakers }, (_, i) => [`speaker_${i + 1}`, i]))
        : {},
    language: { code: options.language ?? 'en_US' },
    dataset: options.name ?? 'test',
    piper_version: '1.0.0',
  };
}

// --- Kokoro -------------------------------------------------------------------------------

/** Kokoro's style vectors: 510 token lengths × 256 values per speaker (sherpa-onnx's layout). */
export const KOKORO_STYLE_DIM = [510, 1, 256] as const;

/**
 * A tiny ONNX model with the signature of Kokoro-82M as sherpa-onnx runs it
 * (offline-tts-kokoro-model.cc: inputs tokens [1, T], style [1, 256], speed [1]; output the
 * waveform), for tests. It answers a tone whose length is T × HOP / speed samples and whose
 * frequency is BASE_HZ + the style's first value: each speaker's style row (voices.bin,
 * `testKokoroStyles`) gives it its own pitch.
 */
export function testKokoroModel(
  options: {
    speakers?: number;
    sampleRate?: number;
    /** 2 for a multi-language model (Kokoro v1.0), run with a language and lexicons. */
    version?: number;
    /** Kokoro's names (`af_heart`: American English, female); test names otherwise. */
    speakerNames?: string[];
  } = {},
) {
  const speakers = options.speakerNames?.length ?? options.speakers ?? 2;
  const sampleRate = options.sampleRate ?? 24000;
  const initializers = [
    tensor('one_i', INT64, [], [1]),
    tensor('zero_i', INT64, [], [0]),
    tensor('hop', FLOAT, [], [TEST_VOICE_HOP]),
    tensor('zero_f', FLOAT, [], [0]),
    tensor('one_f', FLOAT, [], [1]),
    tensor('base_hz', FLOAT, [], [TEST_VOICE_BASE_HZ]),
    tensor('omega', FLOAT, [], [(2 * Math.PI) / sampleRate]),
    tensor('amp', FLOAT, [], [0.3]),
    tensor('flat', INT64, [1], [-1]),
  ];
  const nodes = [
    node('Shape', ['tokens'], ['tokens_shape']),
    node('Gather', ['tokens_shape', 'one_i'], ['t'], [{ name: 'axis', int: 0 }]),
    node('Cast', ['t'], ['t_f'], [{ name: 'to', int: FLOAT }]),
    node('Reshape', ['speed', 'flat'], ['speed_flat']),
    node('Gather', ['speed_flat', 'zero_i'], ['speed_0'], [{ name: 'axis', int: 0 }]),
    node('Div', ['hop', 'speed_0'], ['samples_per_token']),
    node('Mul', ['t_f', 'samples_per_token'], ['n_f']),
    node('Floor', ['n_f'], ['n_floor']),
    node('Range', ['zero_f', 'n_floor', 'one_f'], ['n']),
    node('Reshape', ['style', 'flat'], ['style_flat']),
    node('Gather', ['style_flat', 'zero_i'], ['style_0'], [{ name: 'axis', int: 0 }]),
    node('Add', ['base_hz', 'style_0'], ['hz']),
    node('Mul', ['hz', 'omega'], ['w']),
    node('Mul', ['n', 'w'], ['phase']),
    node('Sin', ['phase'], ['tone']),
    node('Mul', ['tone', 'amp'], ['audio']),
  ];
  const inputs = [
    valueInfo('tokens', INT64, [1, 'tokens']),
    valueInfo('style', FLOAT, [1, KOKORO_STYLE_DIM[2]]),
    valueInfo('speed', FLOAT, [1]),
  ];
  const graph = message(
    ...nodes.map((n) => bytesField(1, n)),
    stringField(2, 'parla_test_kokoro'),
    ...initializers.map((t) => bytesField(5, t)),
    ...inputs.map((i) => bytesField(11, i)),
    bytesField(12, valueInfo('audio', FLOAT, ['samples'])),
  );
  // What sherpa-onnx's scripts/kokoro/add-meta-data.py writes.
  const metadata: Record<string, string> = {
    model_type: 'kokoro',
    language: 'English',
    has_espeak: '1',
    voice: 'en-us',
    version: String(options.version ?? 1),
    sample_rate: String(sampleRate),
    n_speakers: String(speakers),
    style_dim: KOKORO_STYLE_DIM.join(','),
    speaker_names: (
      options.speakerNames ??
      Array.from({ length: speakers }, (_, i) => (i % 2 ? `am_test${i}` : `af_test${i}`))
    ).join(','),
  };
  return message(
    intField(1, 8),
    stringField(2, 'parla make-test-kokoro'),
    bytesField(7, graph),
    bytesField(8, message(stringField(1, ''), intField(2, 13))),
    ...Object.entries(metadata).map(([key, value]) =>
      bytesField(14, message(stringField(1, key), stringField(2, value))),
    ),
  );
}

/** voices.bin for the test Kokoro model: speaker i's style starts with i × SPEAKER_STEP_HZ. */
export function testKokoroStyles(speakers = 2): Uint8Array {
  const [rows, , width] = KOKORO_STYLE_DIM;
  const floats = new Float32Array(speakers * rows * width);
  for (let speaker = 0; speaker < speakers; speaker++) {
    for (let row = 0; row < rows; row++) {
      floats[(speaker * rows + row) * width] = speaker * TEST_VOICE_SPEAKER_STEP_HZ;
    }
  }
  return new Uint8Array(floats.buffer);
}

/** Writes a Kokoro test voice folder (model, voices.bin, tokens, manifest). */
export async function makeTestKokoroVoice(
  directory: string,
  options: { speakers?: number; name?: string } = {},
): Promise<VoiceManifest> {
  const speakers = options.speakers ?? 2;
  const model = testKokoroModel({ speakers });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'model.onnx'), model);
  await writeFile(join(directory, 'voices.bin'), testKokoroStyles(speakers));
  await writeFile(join(directory, 'tokens.txt'), testVoiceTokens());
  const manifest: VoiceManifest = {
    format: 1,
    architecture: 'kokoro',
    name: options.name ?? 'Kokoro test',
    language: 'en-us',
    sample_rate: 24000,
    model: 'model.onnx',
    tokens: 'tokens.txt',
    voices: 'voices.bin',
    license: 'CC0-1.0 (generated for tests)',
    speakers: Array.from({ length: speakers }, (_, id) => ({
      id,
      name: id % 2 ? `Test ${id} (male)` : `Test ${id} (female)`,
      gender: id % 2 ? 'male' : 'female',
    })),
    source: { md5: createHash('md5').update(model).digest('hex') },
  };
  await writeFile(join(directory, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
