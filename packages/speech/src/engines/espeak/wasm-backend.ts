import {
  ESPEAK_SAMPLE_RATE,
  type EspeakBackend,
  type EspeakRequest,
  type EspeakResult,
  type EspeakWord,
} from './backend.js';

/**
 * The WebAssembly build of espeak-ng (@echogarden/espeak-ng-emscripten): no install script,
 * no binary, its 24 MB of voice data ship in the package. One instance per thread; synthesis is
 * synchronous inside it, which is why it runs in worker threads.
 */

interface WasmEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
}

interface WasmWorker {
  set_voice(name: string): number;
  set_rate(rate: number): number;
  set_pitch(pitch: number): number;
  set_range(range: number): number;
  list_voices(): {
    name: string;
    identifier: string;
    languages: { priority: number; name: string }[];
  }[];
  synthesize(text: string, callback: (samples: Int16Array, events: WasmEvent[]) => boolean): void;
}

interface WasmModule {
  eSpeakNGWorker: new () => WasmWorker;
  FS: {
    writeFile(path: string, data: string): void;
    readFile(path: string, options: { encoding: 'utf8' }): string;
  };
}

export interface WasmVoiceInfo {
  name: string;
  identifier: string;
  languages: { priority: number; name: string }[];
}

const DATA_DIR = '/usr/share/espeak-ng-data';

let shared: Promise<{ module: WasmModule; worker: WasmWorker }> | undefined;

/** One espeak-ng instance per thread: its state (voice, rate) is global to the module. */
function instance() {
  shared ??= (async () => {
    const { default: init } = await import('@echogarden/espeak-ng-emscripten');
    const module = (await init()) as WasmModule;
    return { module, worker: new module.eSpeakNGWorker() };
  })();
  return shared;
}

export async function listWasmVoices(): Promise<WasmVoiceInfo[]> {
  const { worker } = await instance();
  return worker.list_voices();
}

export class WasmBackend implements EspeakBackend {
  readonly name = 'wasm' as const;
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  readonly wordEvents = true;
  /** This build synthesises without espeakPHONEMES: `[[…]]` is read as text. */
  readonly phonemeInput = false;
  private languages: Set<string> | undefined;

  static async create(): Promise<WasmBackend> {
    const backend = new WasmBackend();
    const { worker } = await instance();
    backend.languages = new Set(
      worker.list_voices().map((v) => (v.identifier.split('/').at(-1) ?? '').toLowerCase()),
    );
    return backend;
  }

  hasLanguage(espeakName: string): boolean {
    return this.languages?.has(espeakName.toLowerCase()) ?? false;
  }

  async render(request: EspeakRequest): Promise<EspeakResult> {
    const { worker } = await instance();
    if (worker.set_voice(request.voice) !== 0) {
      throw new Error(`espeak-ng has no voice "${request.voice}"`);
    }
    worker.set_rate(Math.round(request.rate));
    worker.set_pitch(Math.round(request.pitch));
    worker.set_range(50);
    const chunks: Int16Array[] = [];
    const words: EspeakWord[] = [];
    let length = 0;
    worker.synthesize(request.ssml, (samples, events) => {
      if (samples.length > 0) {
        chunks.push(samples);
        length += samples.length;
      }
      for (const event of events) {
        if (event.type === 'word') {
          // text_position is 1-based; audio_position is in milliseconds.
          words.push({
            time: event.audio_position / 1000,
            offset: event.text_position - 1,
            length: event.word_length,
          });
        }
      }
      return false; // false = carry on
    });
    const out = new Int16Array(length);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return { samples: out, words };
  }

  async installVariant(name: string, contents: string): Promise<void> {
    const { module } = await instance();
    module.FS.writeFile(`${DATA_DIR}/voices/!v/${name}`, contents);
  }

  async readVariant(name: string): Promise<string | undefined> {
    const { module } = await instance();
    try {
      return module.FS.readFile(`${DATA_DIR}/voices/!v/${name}`, { encoding: 'utf8' });
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    // The module lives as long as the thread; nothing to release per backend.
  }
}
