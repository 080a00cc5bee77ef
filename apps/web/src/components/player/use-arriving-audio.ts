import { useEffect, useState } from 'react';
import { resolveUrl } from '../../lib/api-client';
import { decodeDue, joinChunks } from '../../lib/player/arriving-audio';
import { decodeWaveform } from '../../lib/player/waveform';

export interface ArrivingAudio {
  /** The waveform of what has arrived (empty before the first decoding). */
  bars: number[];
  /** Seconds of audio decoded of what has arrived. */
  duration: number;
  /** All of it has arrived and been decoded. */
  complete: boolean;
  /** It broke off (a rendering that failed on the server) or cannot be decoded. */
  failed: boolean;
}

const NOTHING: ArrivingAudio = { bars: [], duration: 0, complete: false, failed: false };

interface Read extends ArrivingAudio {
  /** The address read. */
  path: string;
}

/**
 * The audio at `path` read as it arrives (a conversion streams while it renders, issue 33
 * item 5): decoded again as it grows (arriving-audio.ts's decodeDue), so the waveform and the
 * length are drawn from the first second, and complete when the last byte is decoded.
 */
export function useArrivingAudio(path: string): ArrivingAudio {
  const [read, setRead] = useState<Read>({ ...NOTHING, path });
  useEffect(() => {
    const setAudio = (next: ArrivingAudio | ((now: ArrivingAudio) => ArrivingAudio)) =>
      setRead((now) => ({
        ...(typeof next === 'function' ? next(now.path === path ? now : NOTHING) : next),
        path,
      }));
    const abort = new AbortController();
    const { signal } = abort;
    const chunks: Uint8Array[] = [];
    let arrived = 0;
    let decoded = 0;
    let done = false;
    let busy = false;
    // Once broken off, it stays so: a decoding still running when the stream broke must not
    // say otherwise when it ends (what did arrive is still drawn).
    let failed = false;
    let last: Omit<ArrivingAudio, 'complete' | 'failed'> = NOTHING;
    const decode = async () => {
      if (signal.aborted) return;
      if (!decodeDue({ arrived, decoded, done, busy })) {
        if (done && !busy && arrived === decoded && !failed)
          setAudio({ ...last, complete: true, failed: false });
        return;
      }
      busy = true;
      const upTo = arrived;
      const whole = done;
      try {
        last = await decodeWaveform(joinChunks(chunks));
        if (!signal.aborted) setAudio({ ...last, complete: false, failed });
      } catch {
        // A part may end inside a frame a decoder refuses; the whole audio may not.
        if (whole) {
          failed = true;
          if (!signal.aborted) setAudio({ ...last, complete: false, failed });
          return;
        }
      } finally {
        decoded = upTo;
        busy = false;
      }
      void decode();
    };
    void (async () => {
      try {
        // The audio's own address (public, or an object URL): read as its bytes come, which
        // the API client's calls (a whole answer at once) do not do.
        const response = await fetch(resolveUrl(path), { signal });
        if (!response.ok || !response.body) throw new Error(response.statusText);
        const reader = response.body.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          chunks.push(next.value);
          arrived += next.value.byteLength;
          void decode();
        }
        done = true;
        void decode();
      } catch {
        failed = true;
        if (!signal.aborted) setAudio((now) => ({ ...now, failed }));
      }
    })();
    return () => abort.abort();
  }, [path]);
  // Another address than the one read: nothing of it has arrived yet.
  return read.path === path ? read : NOTHING;
}
