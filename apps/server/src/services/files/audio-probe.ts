import type { AudioFormat } from '@parla/contract';
import { parseBuffer } from 'music-metadata';

/**
 * Recognises an uploaded audio file by its bytes (never its name) with music-metadata, which
 * reads the container and walks the stream (every MPEG frame, the last Ogg page, the WAV data
 * chunk) to measure its length. What the convertor produces is WAV (PCM), MP3 (MPEG layer III)
 * and Ogg (Vorbis or Opus); anything else is not audio we save. A pure function of the bytes:
 * where they are stored is the storage's business.
 */

export type ProbedFormat = AudioFormat;

export interface ProbedAudio {
  format: ProbedFormat;
  mimeType: string;
  /** Seconds. */
  length: number;
  sampleRate: number;
}

const MIME = { wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg' } as const;

/** music-metadata's container and codec names of the formats we save. */
function formatOf(
  container: string | undefined,
  codec: string | undefined,
): ProbedFormat | undefined {
  if (container === 'WAVE' && codec === 'PCM') return 'wav';
  if (container === 'MPEG' && codec && /^MPEG [12](\.5)? Layer 3$/.test(codec)) return 'mp3';
  if (container === 'Ogg' && (codec === 'Vorbis I' || codec === 'Opus')) return 'ogg';
  return undefined;
}

export async function probeAudio(bytes: Uint8Array): Promise<ProbedAudio | undefined> {
  let parsed: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    parsed = await parseBuffer(bytes, undefined, { duration: true, skipCovers: true });
  } catch {
    return undefined;
  }
  const { container, codec, duration, sampleRate } = parsed.format;
  const format = formatOf(container, codec);
  if (!format || !duration || !Number.isFinite(duration) || duration <= 0 || !sampleRate) {
    return undefined;
  }
  return { format, mimeType: MIME[format], length: duration, sampleRate };
}

export const AUDIO_CHECK_MESSAGES = {
  notAudio: 'This upload is not an MP3, Ogg or WAV audio file.',
  formatMismatch: (actual: string, declared: string) =>
    `This upload is ${actual.toUpperCase()} audio, but audio_format says ${declared}.`,
  rateMismatch: (actual: number, declared: number) =>
    `This audio is sampled at ${actual} Hz, but audio_sample_rate says ${declared}.`,
  tooLong: (minutes: number) =>
    `This audio is longer than the longest conversion of your plan (${minutes} minutes).`,
  tooLarge: (megabytes: string) =>
    `This audio is larger than the longest conversion of your plan can be (${megabytes} MB).`,
} as const;

export type AudioCheck =
  | { ok: true; probed: ProbedAudio }
  | { ok: false; status: 400 | 413; message: string };

/**
 * Whether the bytes are audio as claimed (format and sample rate from the upload's query) and
 * no bigger or longer than the longest conversion of the user's plan can make.
 */
export async function checkSavedAudio(
  bytes: Uint8Array,
  claim: { format: AudioFormat; sampleRate: number },
  limits: { maxSeconds: number; maxBytes: number },
): Promise<AudioCheck> {
  if (bytes.byteLength > limits.maxBytes) {
    const megabytes = (limits.maxBytes / 1024 / 1024).toFixed(1);
    return { ok: false, status: 413, message: AUDIO_CHECK_MESSAGES.tooLarge(megabytes) };
  }
  const probed = await probeAudio(bytes);
  if (!probed) return { ok: false, status: 400, message: AUDIO_CHECK_MESSAGES.notAudio };
  if (probed.format !== claim.format) {
    const message = AUDIO_CHECK_MESSAGES.formatMismatch(probed.format, claim.format);
    return { ok: false, status: 400, message };
  }
  // Ogg Opus always decodes at 48 kHz whatever rate it was made from (RFC 7845 §5.1).
  const rateMatters = !(probed.format === 'ogg' && probed.sampleRate === 48000);
  if (rateMatters && probed.sampleRate !== claim.sampleRate) {
    const message = AUDIO_CHECK_MESSAGES.rateMismatch(probed.sampleRate, claim.sampleRate);
    return { ok: false, status: 400, message };
  }
  if (probed.length > limits.maxSeconds) {
    const minutes = Math.floor(limits.maxSeconds / 60);
    return { ok: false, status: 413, message: AUDIO_CHECK_MESSAGES.tooLong(minutes) };
  }
  return { ok: true, probed };
}
