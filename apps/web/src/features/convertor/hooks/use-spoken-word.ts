import type { SpeechMark } from '@parla/contract';
import { useContext, useEffect, useState } from 'react';
import { PlayerContext } from '../../../lib/player/player-context';
import { wordAt } from '../lib/spoken-word';

/**
 * The index of the word being heard in the player around this component: read from the
 * audio element's clock on every frame while it plays, and on every seek, so it follows
 * seeks and the playback speed.
 */
export function useSpokenWord(words: readonly SpeechMark[]): number {
  const audioRef = useContext(PlayerContext)?.audio;
  const [index, setIndex] = useState(-1);
  useEffect(() => {
    const audio = audioRef?.current;
    if (!audio) return;
    let frame = 0;
    const update = () => setIndex(wordAt(words, audio.currentTime));
    const tick = () => {
      update();
      frame = requestAnimationFrame(tick);
    };
    const start = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      update();
    };
    audio.addEventListener('play', start);
    audio.addEventListener('pause', stop);
    audio.addEventListener('ended', stop);
    audio.addEventListener('seeked', update);
    audio.addEventListener('timeupdate', update);
    if (!audio.paused) start();
    else update();
    return () => {
      cancelAnimationFrame(frame);
      audio.removeEventListener('play', start);
      audio.removeEventListener('pause', stop);
      audio.removeEventListener('ended', stop);
      audio.removeEventListener('seeked', update);
      audio.removeEventListener('timeupdate', update);
    };
  }, [audioRef, words]);
  return index;
}
