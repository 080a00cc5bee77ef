import { randomInt } from 'node:crypto';
import * as koffi from 'koffi';
import { joinBytes } from './bytes.js';
import type { NativeEncoder } from './lame.js';

/**
 * libvorbis's encoder (Debian: libvorbisenc2, with libvorbis0a and libogg0) called through
 * koffi, driven as wasm-media-encoders drives its WebAssembly build: VBR at the given quality,
 * an empty comment header (vendor string only: vorbis-comments.ts writes the tags), the
 * identification header alone on the first page and the comment and setup headers flushed on
 * the next, audio from a fresh page (Vorbis I §A.2), the PCM handed over in steps of 65,536
 * samples, pages written as libogg fills them (`ogg_stream_pageout`). The same library at
 * native speed (docs/decisions/045-native-ogg-vorbis.md). Each encoder has its own state, so
 * the worker threads encode at once.
 */

/**
 * How much PCM one `vorbis_analysis_wrote` takes: the WebAssembly build's step. libvorbis
 * extrapolates the stream's start from the first step it is given (in a buffer on the C stack),
 * so the same step gives the same packets.
 */
const STEP = 65536;

// The structures the calls fill, as libogg 1.3 and libvorbis 1.3 declare them (ogg/ogg.h,
// vorbis/codec.h); only their sizes matter here, except ogg_page's, which is read.
const oggPackBuffer = koffi.struct({
  endbyte: 'long',
  endbit: 'int',
  buffer: 'void *',
  ptr: 'void *',
  storage: 'long',
});
const OggPage = koffi.struct('parla_ogg_page', {
  header: 'void *',
  header_len: 'long',
  body: 'void *',
  body_len: 'long',
});
const STRUCTS = {
  ogg_stream_state: koffi.struct({
    body_data: 'void *',
    body_storage: 'long',
    body_fill: 'long',
    body_returned: 'long',
    lacing_vals: 'void *',
    granule_vals: 'void *',
    lacing_storage: 'long',
    lacing_fill: 'long',
    lacing_packet: 'long',
    lacing_returned: 'long',
    header: koffi.array('uint8_t', 282),
    header_fill: 'int',
    e_o_s: 'int',
    b_o_s: 'int',
    serialno: 'long',
    pageno: 'long',
    packetno: 'int64_t',
    granulepos: 'int64_t',
  }),
  ogg_packet: koffi.struct({
    packet: 'void *',
    bytes: 'long',
    b_o_s: 'long',
    e_o_s: 'long',
    granulepos: 'int64_t',
    packetno: 'int64_t',
  }),
  vorbis_info: koffi.struct({
    version: 'int',
    channels: 'int',
    rate: 'long',
    bitrate_upper: 'long',
    bitrate_nominal: 'long',
    bitrate_lower: 'long',
    bitrate_window: 'long',
    codec_setup: 'void *',
  }),
  vorbis_comment: koffi.struct({
    user_comments: 'void *',
    comment_lengths: 'void *',
    comments: 'int',
    vendor: 'void *',
  }),
  vorbis_dsp_state: koffi.struct({
    analysisp: 'int',
    vi: 'void *',
    pcm: 'void *',
    pcmret: 'void *',
    pcm_storage: 'int',
    pcm_current: 'int',
    pcm_returned: 'int',
    preextrapolate: 'int',
    eofflag: 'int',
    lW: 'long',
    W: 'long',
    nW: 'long',
    centerW: 'long',
    granulepos: 'int64_t',
    sequence: 'int64_t',
    glue_bits: 'int64_t',
    time_bits: 'int64_t',
    floor_bits: 'int64_t',
    res_bits: 'int64_t',
    backend_state: 'void *',
  }),
  vorbis_block: koffi.struct({
    pcm: 'void *',
    opb: oggPackBuffer,
    lW: 'long',
    W: 'long',
    nW: 'long',
    pcmend: 'int',
    mode: 'int',
    eofflag: 'int',
    granulepos: 'int64_t',
    sequence: 'int64_t',
    vd: 'void *',
    localstore: 'void *',
    localtop: 'long',
    localalloc: 'long',
    totaluse: 'long',
    reap: 'void *',
    glue_bits: 'long',
    time_bits: 'long',
    floor_bits: 'long',
    res_bits: 'long',
    internal: 'void *',
  }),
};

type Pointer = unknown;
type Call = (...args: unknown[]) => number;

interface Vorbis {
  info_init: Call;
  encode_init_vbr: Call;
  info_clear: Call;
  comment_init: Call;
  comment_clear: Call;
  analysis_init: Call;
  block_init: Call;
  headerout: Call;
  analysis_buffer: (dsp: Pointer, count: number) => Pointer;
  analysis_wrote: Call;
  blockout: Call;
  analysis: Call;
  block_clear: Call;
  dsp_clear: Call;
  stream_init: Call;
  packetin: Call;
  pageout: (stream: Pointer, page: Record<string, unknown>) => number;
  flush: (stream: Pointer, page: Record<string, unknown>) => number;
  stream_clear: Call;
}

let opened: Vorbis | null | undefined;

/** The library's functions, or undefined where it is not installed. */
function vorbis(): Vorbis | undefined {
  if (opened === undefined) opened = load() ?? null;
  return opened ?? undefined;
}

function load(): Vorbis | undefined {
  let ogg: koffi.LibraryHandle;
  let codec: koffi.LibraryHandle;
  let encoder: koffi.LibraryHandle;
  try {
    ogg = koffi.load('libogg.so.0');
    codec = koffi.load('libvorbis.so.0');
    encoder = koffi.load('libvorbisenc.so.2');
  } catch {
    return undefined;
  }
  const out = koffi.out(koffi.pointer(OggPage));
  return {
    info_init: codec.func('vorbis_info_init', 'void', ['void *']),
    encode_init_vbr: encoder.func('vorbis_encode_init_vbr', 'int', [
      'void *',
      'long',
      'long',
      'float',
    ]),
    info_clear: codec.func('vorbis_info_clear', 'void', ['void *']),
    comment_init: codec.func('vorbis_comment_init', 'void', ['void *']),
    comment_clear: codec.func('vorbis_comment_clear', 'void', ['void *']),
    analysis_init: codec.func('vorbis_analysis_init', 'int', ['void *', 'void *']),
    block_init: codec.func('vorbis_block_init', 'int', ['void *', 'void *']),
    headerout: codec.func('vorbis_analysis_headerout', 'int', [
      'void *',
      'void *',
      'void *',
      'void *',
      'void *',
    ]),
    analysis_buffer: codec.func('vorbis_analysis_buffer', 'void *', ['void *', 'int']),
    analysis_wrote: codec.func('vorbis_analysis_wrote', 'int', ['void *', 'int']),
    blockout: codec.func('vorbis_analysis_blockout', 'int', ['void *', 'void *']),
    analysis: codec.func('vorbis_analysis', 'int', ['void *', 'void *']),
    block_clear: codec.func('vorbis_block_clear', 'int', ['void *']),
    dsp_clear: codec.func('vorbis_dsp_clear', 'void', ['void *']),
    stream_init: ogg.func('ogg_stream_init', 'int', ['void *', 'int']),
    packetin: ogg.func('ogg_stream_packetin', 'int', ['void *', 'void *']),
    pageout: ogg.func('ogg_stream_pageout', 'int', ['void *', out]),
    flush: ogg.func('ogg_stream_flush', 'int', ['void *', out]),
    stream_clear: ogg.func('ogg_stream_clear', 'int', ['void *']),
  };
}

/** Whether libvorbisenc is installed (the WebAssembly build encodes where it is not). */
export function nativeOggAvailable(): boolean {
  return vorbis() !== undefined;
}

type State = Record<keyof typeof STRUCTS, Pointer>;

/** Frees the library's state and the memory holding it (in the reverse order of set-up). */
function release(lib: Vorbis, state: State): void {
  lib.stream_clear(state.ogg_stream_state);
  lib.block_clear(state.vorbis_block);
  lib.dsp_clear(state.vorbis_dsp_state);
  lib.comment_clear(state.vorbis_comment);
  lib.info_clear(state.vorbis_info);
  for (const pointer of Object.values(state)) koffi.free(pointer);
}

/** A stream left unfinished (its listener went away) still gives its memory back. */
const unfinished = new FinalizationRegistry<{ lib: Vorbis; state: State }>(({ lib, state }) =>
  release(lib, state),
);

/**
 * A mono Ogg Vorbis encoder at `sampleRate`, VBR `quality` 0-10 (as oggenc's -q);
 * undefined without libvorbisenc.
 */
export function nativeOggEncoder(sampleRate: number, quality: number): NativeEncoder | undefined {
  const lib = vorbis();
  if (!lib) return undefined;
  // Zeroed memory: vorbis_*_clear of a structure never initialised does nothing.
  const state = Object.fromEntries(
    Object.entries(STRUCTS).map(([name, type]) => {
      const pointer = koffi.alloc('uint8_t', koffi.sizeof(type));
      new Uint8Array(koffi.view(pointer, koffi.sizeof(type))).fill(0);
      return [name, pointer];
    }),
  ) as State;
  lib.info_init(state.vorbis_info);
  if (lib.encode_init_vbr(state.vorbis_info, 1, sampleRate, quality / 10) < 0) {
    release(lib, state);
    throw new Error(`libvorbisenc refused ${sampleRate} Hz at quality ${quality}`);
  }
  lib.analysis_init(state.vorbis_dsp_state, state.vorbis_info);
  lib.block_init(state.vorbis_dsp_state, state.vorbis_block);
  lib.stream_init(state.ogg_stream_state, randomInt(-(2 ** 31), 2 ** 31));
  lib.comment_init(state.vorbis_comment);

  const pages: Uint8Array[] = [];
  /** Copies out the pages libogg has ready (every one with `flush`). */
  const takePages = (flush: boolean) => {
    const page: Record<string, unknown> = {};
    while ((flush ? lib.flush : lib.pageout)(state.ogg_stream_state, page) !== 0) {
      const header = page.header_len as number;
      const body = page.body_len as number;
      const out = new Uint8Array(header + body);
      out.set(new Uint8Array(koffi.view(page.header, header)));
      out.set(new Uint8Array(koffi.view(page.body, body)), header);
      pages.push(out);
    }
  };
  /** The pages so far in one array of its own (the pool transfers it between threads). */
  const drain = (): Uint8Array => {
    const out = pages.length === 1 ? (pages[0] as Uint8Array) : joinBytes(...pages);
    pages.length = 0;
    return out;
  };
  /** Analyses every block libvorbis can make of the PCM so far, and pages the packets. */
  const takeBlocks = () => {
    const packet = state.ogg_packet;
    while (lib.blockout(state.vorbis_dsp_state, state.vorbis_block) === 1) {
      // Without bit-rate management (plain VBR) the analysis answers the packet itself.
      check(lib.analysis(state.vorbis_block, packet), 'vorbis_analysis');
      check(lib.packetin(state.ogg_stream_state, packet), 'ogg_stream_packetin');
      takePages(false);
    }
  };

  let closed = false;
  const close = () => {
    if (!closed) release(lib, state);
    closed = true;
    unfinished.unregister(encoder);
  };
  /** A negative answer ends the stream: its memory is freed and the caller gets the error. */
  const check = (code: number, call: string) => {
    if (code >= 0) return;
    close();
    throw new Error(`libvorbis failed (${call}: ${code})`);
  };
  const encoder: NativeEncoder = {
    encode(samples) {
      if (closed) throw new Error('the Ogg Vorbis encoder is finished');
      for (let at = 0; at < samples.length; at += STEP) {
        const step = Math.min(STEP, samples.length - at);
        const channels = lib.analysis_buffer(state.vorbis_dsp_state, step);
        const first = koffi.decode(channels, 'void *');
        new Float32Array(koffi.view(first, step * 4)).set(samples.subarray(at, at + step));
        check(lib.analysis_wrote(state.vorbis_dsp_state, step), 'vorbis_analysis_wrote');
        takeBlocks();
      }
      return drain();
    },
    finish() {
      if (closed) return new Uint8Array(0);
      check(lib.analysis_wrote(state.vorbis_dsp_state, 0), 'vorbis_analysis_wrote');
      takeBlocks();
      close();
      return drain();
    },
  };
  unfinished.register(encoder, { lib, state }, encoder);

  // The three headers: the identification alone on the first page, the comment and setup
  // headers flushed onto the next, so that audio starts on a page of its own.
  const [identification, comment, setup] = [0, 1, 2].map(() =>
    koffi.alloc('uint8_t', koffi.sizeof(STRUCTS.ogg_packet)),
  );
  try {
    check(
      lib.headerout(state.vorbis_dsp_state, state.vorbis_comment, identification, comment, setup),
      'vorbis_analysis_headerout',
    );
    lib.packetin(state.ogg_stream_state, identification);
    takePages(true);
    lib.packetin(state.ogg_stream_state, comment);
    lib.packetin(state.ogg_stream_state, setup);
    takePages(true);
  } finally {
    for (const packet of [identification, comment, setup]) koffi.free(packet);
  }
  // Held until the first encode, as the WebAssembly build answers its headers with the audio.
  return encoder;
}
