import { useCallback, useEffect, useRef, useState } from 'react';

/** The address of a voice's short sample (free, rendered once per voice on the server). */
export function previewAddress(voiceId: string): string {
  return `/api/convertor/voices/preview?voice=${encodeURIComponent(voiceId)}`;
}

/**
 * Plays voices' samples one at a time (the picker's rows, the voice card, the headline's
 * "Listen"): which one is playing, which one failed, and a toggle.
 */
export function useVoicePreview() {
  const [playing, setPlaying] = useState<string | undefined>();
  const [failed, setFailed] = useState<string | undefined>();
  const audio = useRef<HTMLAudioElement | null>(null);

  const stop = useCallback(() => {
    audio.current?.pause();
    audio.current = null;
    setPlaying(undefined);
  }, []);
  useEffect(() => () => audio.current?.pause(), []);

  const toggle = (voiceId: string) => {
    if (playing === voiceId) {
      stop();
      return;
    }
    stop();
    setFailed(undefined);
    const element = new Audio(previewAddress(voiceId));
    audio.current = element;
    setPlaying(voiceId);
    element.addEventListener('ended', () => {
      if (audio.current === element) setPlaying(undefined);
    });
    const fail = () => {
      if (audio.current !== element) return;
      setPlaying(undefined);
      setFailed(voiceId);
    };
    element.addEventListener('error', fail);
    // play() answers a promise in browsers (and nothing in some test environments).
    Promise.resolve(element.play()).catch(fail);
  };

  return { playing, failed, toggle, stop };
}
