/**
 * Recognises an uploaded audio file by its bytes (never its name) and measures its length.
 * Knows what the convertor produces: WAV (PCM), MP3 (MPEG audio layer III) and Ogg (Vorbis or
 * Opus). Anything else is not audio we save.
 */

export type ProbedFormat = 'wav' | 'mp3' | 'ogg';

export interface ProbedAudio {
  format: ProbedFormat;
  mimeType: string;
  /** Seconds. */
  length: number;
}

const MIME = { wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg' } as const;

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

function probeWav(bytes: Buffer): ProbedAudio | undefined {
  if (bytes.length < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') {
    return undefined;
  }
  let byteRate = 0;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset, 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (byteRate <= 0) return undefined;
      const available = Math.min(size, bytes.length - offset - 8);
      return { format: 'wav', mimeType: MIME.wav, length: available / byteRate };
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MPEG_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** A layer III frame header at `offset`: its length in bytes, samples and sample rate. */
function mp3Frame(bytes: Buffer, offset: number) {
  if (offset + 4 > bytes.length) return undefined;
  const header = bytes.readUInt32BE(offset);
  if ((header & 0xffe00000) >>> 0 !== 0xffe00000) return undefined;
  const version = (header >>> 19) & 3;
  const layer = (header >>> 17) & 3;
  const bitrateIndex = (header >>> 12) & 15;
  const rateIndex = (header >>> 10) & 3;
  const padding = (header >>> 9) & 1;
  if (
    version === 1 ||
    layer !== 1 ||
    bitrateIndex === 0 ||
    bitrateIndex === 15 ||
    rateIndex === 3
  ) {
    return undefined;
  }
  const rate = MPEG_RATES[version]?.[rateIndex];
  const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[bitrateIndex];
  if (!rate || !kbps) return undefined;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / rate) + padding;
  return { length, samples, rate };
}

function probeMp3(bytes: Buffer): ProbedAudio | undefined {
  let offset = 0;
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === 'ID3') {
    // ID3v2 size is "syncsafe": 7 bits per byte.
    const size =
      ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    offset = 10 + size;
  }
  let frames = 0;
  let seconds = 0;
  for (;;) {
    const frame = mp3Frame(bytes, offset);
    if (!frame || offset + frame.length > bytes.length) break;
    frames += 1;
    seconds += frame.samples / frame.rate;
    offset += frame.length;
  }
  // Two frames in a row are not chance; a lone frame is accepted only as the whole file.
  if (frames >= 2 || (frames === 1 && offset === bytes.length)) {
    return { format: 'mp3', mimeType: MIME.mp3, length: seconds };
  }
  return undefined;
}

function probeOgg(bytes: Buffer): ProbedAudio | undefined {
  if (bytes.length < 28 || ascii(bytes, 0, 4) !== 'OggS') return undefined;
  const packet = 27 + (bytes[26] ?? 0);
  let rate = 0;
  let preSkip = 0;
  if (bytes[packet] === 1 && ascii(bytes, packet + 1, 6) === 'vorbis') {
    rate = bytes.readUInt32LE(packet + 12);
  } else if (ascii(bytes, packet, 8) === 'OpusHead') {
    rate = 48000;
    preSkip = bytes.readUInt16LE(packet + 10);
  }
  if (rate <= 0) return undefined;
  const last = bytes.lastIndexOf('OggS', bytes.length - 27, 'latin1');
  if (last < 0) return undefined;
  const granule = Number(bytes.readBigInt64LE(last + 6));
  return { format: 'ogg', mimeType: MIME.ogg, length: Math.max(0, granule - preSkip) / rate };
}

export function probeAudio(bytes: Buffer): ProbedAudio | undefined {
  return probeWav(bytes) ?? probeOgg(bytes) ?? probeMp3(bytes);
}
