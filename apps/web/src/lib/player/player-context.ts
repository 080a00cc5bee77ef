import { createContext, type RefObject } from 'react';

/** What the player shares with what is shown inside it (the read-along view). */
export interface PlayerHandle {
  /** The audio element: its currentTime follows seeks and the playback speed. */
  audio: RefObject<HTMLAudioElement | null>;
  /** Moves playback to a time in seconds. */
  seek(to: number): void;
}

export const PlayerContext = createContext<PlayerHandle | null>(null);
