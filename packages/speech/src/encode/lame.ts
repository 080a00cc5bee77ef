import * as koffi from 'koffi';

/** A native encoder's calls (encoders.ts's StreamEncoder without its MIME type). */
export interface NativeEncoder {
  encode(samples: Float32Array): Uint8Array;
  finish(): Uint8Array;
}

/**
 * LAME (Debian: libmp3lame0) called through koffi, configured as wasm-media-encoders
 * configures its WebAssembly build (constant bit rate, no Xing/Info frame, no ID3 tag, the
 * default quality): the same encoder at native speed (docs/decisions/
 * 041-espeak-ng-library-in-its-host-process.md). Each encoder has its own LAME context, so
 * the worker threads encode at once.
 */

interface Lame {
  init(): unknown;
  setInt(name: string, context: unknown, value: number): void;
  initParams(context: unknown): number;
  encode(
    context: unknown,
    left: Float32Array,
    right: Float32Array,
    count: number,
    out: Uint8Array,
    size: number,
  ): number;
  flush(context: unknown, out: Uint8Array, size: number): number;
  close(context: unknown): void;
}

const SETTERS = [
  'lame_set_num_channels',
  'lame_set_in_samplerate',
  'lame_set_out_samplerate',
  'lame_set_bWriteVbrTag',
  'lame_set_VBR',
  'lame_set_brate',
  'lame_set_write_id3tag_automatic',
] as const;

let opened: Lame | null | undefined;

/** A stream left unfinished (its listener went away) still gives its LAME context back. */
const unfinished = new FinalizationRegistry<{ lame: Lame; gfp: unknown }>(({ lame, gfp }) =>
  lame.close(gfp),
);

/** The library's functions, or undefined where it is not installed. */
function lame(): Lame | undefined {
  if (opened === undefined) opened = load() ?? null;
  return opened ?? undefined;
}

function load(): Lame | undefined {
  let lib: koffi.LibraryHandle;
  try {
    lib = koffi.load('libmp3lame.so.0');
  } catch {
    return undefined;
  }
  const context = koffi.pointer('lame_global_flags', koffi.opaque());
  const setters = new Map(
    SETTERS.map((name) => [name, lib.func(name, 'int', [context, 'int'])] as const),
  );
  const init = lib.func('lame_init', context, []);
  const initParams = lib.func('lame_init_params', 'int', [context]);
  const encode = lib.func('lame_encode_buffer_ieee_float', 'int', [
    context,
    'float *',
    'float *',
    'int',
    'uint8_t *',
    'int',
  ]);
  const flush = lib.func('lame_encode_flush', 'int', [context, 'uint8_t *', 'int']);
  const close = lib.func('lame_close', 'int', [context]);
  return {
    init: () => init(),
    setInt: (name, gfp, value) => setters.get(name as (typeof SETTERS)[number])?.(gfp, value),
    initParams: (gfp) => initParams(gfp),
    encode: (gfp, left, right, count, out, size) => encode(gfp, left, right, count, out, size),
    flush: (gfp, out, size) => flush(gfp, out, size),
    close: (gfp) => close(gfp),
  };
}

/** Whether libmp3lame is installed (the WebAssembly build encodes where it is not). */
export function nativeMp3Available(): boolean {
  return lame() !== undefined;
}

/** A mono mp3 encoder at `sampleRate`, constant `bitrate` kbit/s; undefined without LAME. */
export function nativeMp3Encoder(sampleRate: number, bitrate: number): NativeEncoder | undefined {
  const found = lame();
  if (!found) return undefined;
  const gfp = found.init();
  if (!gfp) throw new Error('LAME could not start');
  found.setInt('lame_set_num_channels', gfp, 1);
  found.setInt('lame_set_in_samplerate', gfp, sampleRate);
  // LAME would otherwise pick a lower output rate for a low bit rate.
  found.setInt('lame_set_out_samplerate', gfp, sampleRate);
  found.setInt('lame_set_bWriteVbrTag', gfp, 0);
  found.setInt('lame_set_VBR', gfp, 0); // vbr_off
  found.setInt('lame_set_brate', gfp, bitrate);
  found.setInt('lame_set_write_id3tag_automatic', gfp, 0);
  if (found.initParams(gfp) < 0) {
    found.close(gfp);
    throw new Error(`LAME refused ${sampleRate} Hz at ${bitrate} kbit/s`);
  }
  let closed = false;
  const release = () => {
    if (!closed) found.close(gfp);
    closed = true;
    unfinished.unregister(encoder);
  };
  const fail = (code: number) => {
    release();
    return new Error(`LAME failed (${code})`);
  };
  const encoder: NativeEncoder = {
    encode(samples) {
      if (closed) throw new Error('the mp3 encoder is finished');
      // LAME's worst case: 1.25 bytes a sample and 7,200 bytes.
      const out = new Uint8Array(Math.ceil(1.25 * samples.length) + 7200);
      const written = found.encode(gfp, samples, samples, samples.length, out, out.length);
      if (written < 0) throw fail(written);
      return out.subarray(0, written);
    },
    finish() {
      if (closed) return new Uint8Array(0);
      const out = new Uint8Array(7200);
      const written = found.flush(gfp, out, out.length);
      release();
      if (written < 0) throw new Error(`LAME failed (${written})`);
      return out.subarray(0, written);
    },
  };
  unfinished.register(encoder, { lame: found, gfp }, encoder);
  return encoder;
}
