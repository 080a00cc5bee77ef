import { WAVEFORM_BARS } from '@parla/contract';

/**
 * SPEC §4 "Audio track": the decoded audio reduced to a normalised amplitude profile of N bars.
 * Each bar is the peak absolute sample of its slice (the loudest channel), divided by the peak
 * of the whole track, so the loudest bar is 1 and silence is 0.
 */
export function reduceToBars(channels: readonly Float32Array[], bars = WAVEFORM_BARS): number[] {
  const length = Math.max(0, ...channels.map((channel) => channel.length));
  const peaks = new Array<number>(bars).fill(0);
  if (length === 0 || bars <= 0) return peaks;
  for (let bar = 0; bar < bars; bar += 1) {
    const start = Math.floor((bar * length) / bars);
    const end = Math.max(start + 1, Math.floor(((bar + 1) * length) / bars));
    let peak = 0;
    for (const channel of channels) {
      for (let i = start; i < end && i < channel.length; i += 1) {
        const value = Math.abs(channel[i] ?? 0);
        if (value > peak) peak = value;
      }
    }
    peaks[bar] = peak;
  }
  const max = Math.max(...peaks);
  return max > 0 ? peaks.map((peak) => peak / max) : peaks;
}

/** Decodes encoded audio (mp3, ogg, wav) with Web Audio and reduces it to bars. */
export async function decodeWaveform(
  audio: ArrayBuffer,
  bars = WAVEFORM_BARS,
): Promise<{ bars: number[]; duration: number }> {
  const context = new OfflineAudioContext(1, 1, 44100);
  const buffer = await context.decodeAudioData(audio);
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) =>
    buffer.getChannelData(i),
  );
  // The decoded length is the audio's own: a streamed file's duration is known only here.
  return { bars: reduceToBars(channels, bars), duration: buffer.duration };
}

/** The time a click at `ratio` (0..1) of the waveform's width stands for. */
export function seekTime(ratio: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 0;
  return Math.min(duration, Math.max(0, ratio * duration));
}
