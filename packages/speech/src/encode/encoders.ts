import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AudioFormat } from '@parla/contract';
import { createEncoder } from 'wasm-media-encoders';
import { pcm16 } from '../dsp/kernel.js';
import { nativeMp3Encoder } from './lame.js';
import { nativeOggEncoder } from './vorbis.js';

/**
 * Streaming encoders: `encode` takes the next PCM block and answers the bytes ready so far;
 * `finish` answers the rest. Concatenating every answer gives a valid file. wasm-media-encoders
 * wraps LAME (mp3) and libvorbis (ogg) compiled to WebAssembly: no binaries, no install script.
 */
export interface StreamEncoder {
  readonly mimeType: string;
  encode(samples: Float32Array): Uint8Array;
  finish(): Uint8Array;
}

export const MIME_TYPES: Record<AudioFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
};

/**
 * Constant bit rate, so that every player computes the true duration from the file size
 * (LAME writes no Xing/Info header here). Mono speech: 96 kbit/s for MPEG-1 rates, less for
 * the MPEG-2 and 2.5 rates, which cannot carry more than 160 and 64 kbit/s.
 */
export function mp3Bitrate(sampleRate: number): 96 | 64 | 48 | 24 {
  if (sampleRate >= 32000) return 96;
  if (sampleRate >= 22050) return 64;
  if (sampleRate >= 16000) return 48;
  return 24;
}

/** Ogg Vorbis VBR quality (0-10, as oggenc's -q): about 64 kbit/s for mono speech. */
const OGG_QUALITY = 4;

type Mp3Rate = 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;

type CompiledEncoder = Parameters<typeof createEncoder>[1];

/**
 * The package's own createMp3Encoder/createOggEncoder decode and compile their WebAssembly on
 * every call (10-25 ms, before the first byte of every request): compile each once per thread
 * and keep the compiled module.
 */
const compiled = new Map<'audio/mpeg' | 'audio/ogg', Promise<CompiledEncoder>>();

async function wasmEncoder<T extends 'audio/mpeg' | 'audio/ogg'>(mimeType: T) {
  let module = compiled.get(mimeType);
  if (!module) {
    module = (async () => {
      const file = `wasm-media-encoders/wasm/${mimeType === 'audio/mpeg' ? 'mp3' : 'ogg'}`;
      const bytes = await readFile(fileURLToPath(import.meta.resolve(file)));
      let kept: CompiledEncoder | undefined;
      await createEncoder(mimeType, bytes, (made) => {
        kept = made;
      });
      if (!kept) throw new Error(`wasm-media-encoders compiled no module for ${mimeType}`);
      return kept;
    })();
    compiled.set(mimeType, module);
    module.catch(() => compiled.delete(mimeType));
  }
  return createEncoder(mimeType, await module);
}

export interface EncoderOptions {
  /**
   * Encode through the system's library where it is installed (libmp3lame: encode/lame.ts;
   * libvorbisenc: encode/vorbis.ts), default true; false: always the WebAssembly build (tests
   * compare the two).
   */
  native?: boolean;
}

export async function createStreamEncoder(
  format: AudioFormat,
  sampleRate: number,
  options: EncoderOptions = {},
): Promise<StreamEncoder> {
  if (format === 'wav') return new WavStreamEncoder(sampleRate);
  const mimeType = MIME_TYPES[format];
  if (options.native !== false) {
    const native =
      format === 'mp3'
        ? nativeMp3Encoder(sampleRate, mp3Bitrate(sampleRate))
        : nativeOggEncoder(sampleRate, OGG_QUALITY);
    if (native) {
      return {
        mimeType,
        encode: (samples) => native.encode(samples),
        finish: () => native.finish(),
      };
    }
  }
  const encoder = await wasmEncoder(mimeType as 'audio/mpeg' | 'audio/ogg');
  if (format === 'mp3') {
    encoder.configure({
      sampleRate,
      channels: 1,
      bitrate: mp3Bitrate(sampleRate),
      // LAME would otherwise pick a lower output rate for a low bit rate.
      outputSampleRate: sampleRate as Mp3Rate,
    });
  } else {
    encoder.configure({ sampleRate, channels: 1, vbrQuality: OGG_QUALITY });
  }
  return {
    mimeType,
    // The encoders answer views into WebAssembly memory: copy before the next call.
    encode: (samples) => encoder.encode([samples]).slice(),
    finish: () => encoder.finalize().slice(),
  };
}

/** Signed 16-bit little-endian mono PCM as samples in -1..1. */
export function pcm16ToSamples(bytes: Uint8Array): Float32Array {
  const count = Math.floor(bytes.byteLength / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true) / 32768;
  return samples;
}

/** The 44-byte RIFF/WAVE header of mono 16-bit PCM; `dataBytes` unknown means streaming. */
export function wavHeader(sampleRate: number, dataBytes?: number): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  // Streams do not know their length: use the largest sizes, as espeak-ng does on stdout.
  const data = dataBytes ?? 0xffffffff - 36;
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + data, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, data, true);
  return header;
}

class WavStreamEncoder implements StreamEncoder {
  readonly mimeType = MIME_TYPES.wav;
  private started = false;
  constructor(private readonly sampleRate: number) {}
  encode(samples: Float32Array): Uint8Array {
    const body = pcm16(samples);
    if (this.started) return body;
    this.started = true;
    const header = wavHeader(this.sampleRate);
    const out = new Uint8Array(header.length + body.length);
    out.set(header);
    out.set(body, header.length);
    return out;
  }
  finish(): Uint8Array {
    return this.started ? new Uint8Array(0) : wavHeader(this.sampleRate);
  }
}
