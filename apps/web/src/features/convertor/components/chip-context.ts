import type { VoiceEffect } from '@parla/contract';
import { createContext } from 'react';

/**
 * What the editor's tag chips need from the page: the voice's effects for the voice-effect
 * menu. Its own module, so the page provides it without loading the editor (Tiptap) itself.
 */
export const ChipContext = createContext<{ effects: readonly VoiceEffect[] }>({ effects: [] });
