/**
 * The pure parts of a player whose audio may still be arriving (issue 33, item 5): what has
 * arrived is decoded again as it grows, the clock shows what has arrived, and the switch from
 * the stream to the stored file waits for a moment when it cannot be heard.
 */

/** Decoding again waits for at least this many new bytes (about a second of 96 kbit/s MP3). */
export const MIN_NEW_BYTES = 12_000;

/** The bytes arrived so far as one buffer (decodeAudioData takes, and detaches, its own copy). */
export function joinChunks(chunks: readonly Uint8Array[]): ArrayBuffer {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const joined = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined.buffer;
}

export interface DecodeProgress {
  /** Bytes arrived. */
  arrived: number;
  /** Bytes of the last decoding (0 before the first). */
  decoded: number;
  /** Everything has arrived. */
  done: boolean;
  /** A decoding is under way. */
  busy: boolean;
}

/**
 * Whether to decode what has arrived now: one decoding at a time, the whole audio once it has
 * all arrived, and meanwhile when it has grown by a quarter (and by MIN_NEW_BYTES), so that a
 * long stream is decoded a few times over in all, not once a chunk.
 */
export function decodeDue({ arrived, decoded, done, busy }: DecodeProgress): boolean {
  if (busy || arrived <= decoded) return false;
  if (done) return true;
  return arrived - decoded >= Math.max(MIN_NEW_BYTES, decoded / 4);
}

export interface ClockInput {
  /** The audio's length as known for certain (the element's or the conversion's), or 0. */
  known: number;
  /** Seconds of audio decoded of what has arrived. */
  arrived: number;
  /** The position. */
  time: number;
  /** The audio is still arriving (its length is not known yet). */
  arriving: boolean;
}

/**
 * The duration the player shows: while the audio arrives, what has arrived (it grows); then
 * the known length. Never less than the position: no "0:02 / 0:00".
 */
export function shownDuration({ known, arrived, time, arriving }: ClockInput): number {
  const length = arriving ? Math.max(arrived, known) : known || arrived;
  return Math.max(length, time);
}

export interface SwitchInput {
  /** The element plays the address while it streamed (it has not been reloaded since). */
  streaming: boolean;
  /** The whole audio has arrived: the address now serves the stored file (it can seek). */
  complete: boolean;
  /** The element is playing. */
  playing: boolean;
  /** A seek was asked for (a stream cannot seek: the stored file can). */
  seeking: boolean;
}

/**
 * Whether to reload the element from the stored file now: once the audio is complete, when
 * nothing is heard (paused, finished, never started), or when a seek needs it; never in the
 * middle of playback on its own, where reloading would be a gap.
 */
export function switchNow({ streaming, complete, playing, seeking }: SwitchInput): boolean {
  return streaming && complete && (!playing || seeking);
}
