import * as koffi from 'koffi';
import type { EspeakRequest, EspeakWord } from './backend.js';
import type { EspeakVoiceFile } from './catalogue.js';

/**
 * libespeak-ng (Debian: libespeak-ng1) called through koffi: one rendering gives the audio and
 * its word events (docs/decisions/041-espeak-ng-library-in-its-host-process.md). The library
 * keeps its state in process globals and is not reentrant, so it is loaded only in the small
 * host process each Parla thread forks (launcher.ts), one rendering at a time; a fault inside it
 * ends that process, not the server.
 */

/** What one rendering answers: 16-bit samples at the library's rate and the word events. */
export interface LibraryRendering {
  samples: Int16Array;
  words: EspeakWord[];
}

export interface EspeakLibrary {
  readonly sampleRate: number;
  /** The system's espeak-ng-data directory, as `espeak-ng --version` prints it ("Data at"). */
  readonly dataPath: string;
  /** The voice files, as `espeak-ng --voices` lists them (same order, same names). */
  readonly voiceFiles: EspeakVoiceFile[];
  /** `dataPath`: the directory holding espeak-ng-data (a writable mirror), or the system's. */
  render(request: EspeakRequest, dataPath: string | undefined): LibraryRendering;
}

/** The library's file names, most specific first. */
const LIBRARY_NAMES = ['libespeak-ng.so.1', 'libespeak-ng.so', 'libespeak-ng.dylib'];

const AUDIO_OUTPUT_SYNCHRONOUS = 2;
const EVENT_LIST_TERMINATED = 0;
const EVENT_WORD = 1;
/** espeak_PARAMETER */
const RATE = 1;
const VOLUME = 2;
const PITCH = 3;
const RANGE = 4;
/**
 * The flags the `espeak-ng` program renders with (`-m`): UTF-8 text, SSML, `[[…]]` read as
 * phonemes, the pause at the end: the same audio as the program's.
 */
const SYNTH_FLAGS = 0x1 | 0x10 | 0x100 | 0x1000;
/** Milliseconds of audio per callback: fewer, larger calls across the FFI. */
const BUFFER_MS = 1000;

/** Opens the library, or answers undefined where it is not installed or does not start. */
export function openEspeakLibrary(): EspeakLibrary | undefined {
  let lib: koffi.LibraryHandle | undefined;
  for (const name of LIBRARY_NAMES) {
    try {
      lib = koffi.load(name);
      break;
    } catch {
      // not this name
    }
  }
  if (!lib) return undefined;
  const Event = koffi.struct({
    type: 'int',
    unique_identifier: 'uint',
    text_position: 'int',
    length: 'int',
    audio_position: 'int',
    sample: 'int',
    user_data: 'void *',
    id: koffi.union({ number: 'int', name: 'const char *', string: koffi.array('char', 8) }),
  });
  const eventSize = koffi.sizeof(Event);
  const Callback = koffi.proto('int espeak_synth_cb(void *wav, int count, void *events)');
  const initialize = lib.func(
    'int espeak_Initialize(int output, int buflength, str path, int options)',
  );
  const terminate = lib.func('int espeak_Terminate(void)');
  const setCallback = lib.func('void espeak_SetSynthCallback(espeak_synth_cb *cb)');
  const setVoice = lib.func('int espeak_SetVoiceByName(str name)');
  const setParameter = lib.func('int espeak_SetParameter(int parameter, int value, int relative)');
  const info = lib.func('const char *espeak_Info(_Out_ const char **path)');
  const listVoices = lib.func('void *espeak_ListVoices(void *spec)');
  const Voice = koffi.struct({
    name: 'const char *',
    languages: 'void *',
    identifier: 'const char *',
    gender: 'uchar',
    age: 'uchar',
    variant: 'uchar',
    xx1: 'uchar',
    score: 'int',
    spare: 'void *',
  });
  const synth = lib.func(
    'int espeak_Synth(str text, size_t size, uint position, int type, uint end, uint flags, void *id, void *user)',
  );

  let chunks: Int16Array[] = [];
  let words: EspeakWord[] = [];
  const callback = koffi.register((wav: unknown, count: number, events: unknown) => {
    if (count > 0 && wav) chunks.push(new Int16Array(koffi.view(wav, count * 2)).slice());
    for (let at = 0; events; at += eventSize) {
      const event = koffi.decode(events, at, Event) as {
        type: number;
        text_position: number;
        length: number;
        audio_position: number;
      };
      if (event.type === EVENT_LIST_TERMINATED) break;
      if (event.type === EVENT_WORD) {
        // text_position counts characters from 1; audio_position is in milliseconds.
        words.push({
          time: event.audio_position / 1000,
          offset: event.text_position - 1,
          length: event.length,
        });
      }
    }
    return 0; // 0 = carry on
  }, koffi.pointer(Callback));

  let path: string | undefined;
  let sampleRate = 0;
  const start = (dataPath: string | undefined) => {
    if (sampleRate > 0) terminate();
    sampleRate = initialize(AUDIO_OUTPUT_SYNCHRONOUS, BUFFER_MS, dataPath ?? null, 0);
    if (sampleRate <= 0) throw new Error('libespeak-ng did not start');
    setCallback(callback);
    path = dataPath;
  };
  let dataPath: string;
  let voiceFiles: EspeakVoiceFile[];
  try {
    start(undefined);
    const found: (string | null)[] = [null];
    info(found);
    if (!found[0]) return undefined;
    dataPath = found[0];
    voiceFiles = listed(listVoices(null), Voice);
  } catch {
    return undefined;
  }

  return {
    dataPath,
    voiceFiles,
    get sampleRate() {
      return sampleRate;
    },
    render(request, dataPath) {
      // A new data directory (the mirror holding custom variants): read it from now on.
      if (dataPath !== path) start(dataPath);
      if (setVoice(request.voice) !== 0) {
        throw new Error(`espeak-ng has no voice "${request.voice}"`);
      }
      setParameter(RATE, Math.round(request.rate), 0);
      setParameter(PITCH, Math.round(request.pitch), 0);
      setParameter(RANGE, 50, 0);
      setParameter(VOLUME, 100, 0);
      chunks = [];
      words = [];
      const text = Buffer.from(`${request.ssml}\0`, 'utf8');
      const status = synth(text, text.length, 0, 0, 0, SYNTH_FLAGS, null, null);
      if (status !== 0) throw new Error(`libespeak-ng could not render (error ${status})`);
      const samples = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        samples.set(chunk, at);
        at += chunk.length;
      }
      const rendered = { samples, words };
      chunks = [];
      words = [];
      return rendered;
    },
  };
}

/**
 * The voices of `espeak_ListVoices(NULL)` (a null-terminated array of `espeak_VOICE *`), as the
 * program prints them with `--voices`: the first of each voice's languages (a priority byte, then
 * the code, for each), and the name with its spaces written as underscores.
 */
function listed(list: unknown, Voice: koffi.TypeObject): EspeakVoiceFile[] {
  const files: EspeakVoiceFile[] = [];
  const pointerSize = koffi.sizeof('void *');
  for (let at = 0; list; at += pointerSize) {
    const pointer = koffi.decode(list, at, 'void *');
    if (!pointer) break;
    const voice = koffi.decode(pointer, Voice) as {
      name: string;
      languages: unknown;
      identifier: string;
    };
    const language = voice.languages
      ? (koffi.decode(voice.languages, 1, 'char', -1) as string)
      : '';
    files.push({
      identifier: voice.identifier,
      name: voice.name.replaceAll(' ', '_'),
      language: language || undefined,
    });
  }
  return files;
}
