import type { TagKind } from '@parla/contract';

/** The translation key of each toolbar tag's name (the SSML it writes stays as it is). */
export const TAG_LABEL_KEYS = {
  pause: 'tags.pause',
  speed: 'tags.speed',
  volume: 'tags.volume',
  pitch: 'tags.pitch',
  sayAs: 'tags.sayAs',
  emphasis: 'tags.emphasis',
  voiceEffect: 'tags.voiceEffect',
} as const satisfies Record<TagKind, string>;
