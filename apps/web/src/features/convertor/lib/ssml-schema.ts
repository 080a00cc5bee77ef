import type { ElementSpec } from '@codemirror/lang-xml';
import {
  EMPHASIS_LEVELS,
  PITCH_LEVELS,
  SAY_AS_TYPES,
  SPEED_LEVELS,
  VOICE_EFFECTS,
  VOLUME_LEVELS,
} from '@parla/contract';

/** The elements and attributes the engine supports (docs/ssml.md), for the SSML tab's completion. */
const INLINE = ['break', 'prosody', 'say-as', 'emphasis', 'sub', 'voice', 'effect', 'p', 's'];

export const SSML_ELEMENTS: ElementSpec[] = [
  { name: 'speak', top: true, children: INLINE, attributes: ['version', 'xmlns', 'xml:lang'] },
  { name: 'p', top: true, children: INLINE.filter((n) => n !== 'p'), attributes: ['xml:lang'] },
  {
    name: 's',
    top: true,
    children: INLINE.filter((n) => n !== 'p' && n !== 's'),
    attributes: ['xml:lang'],
  },
  {
    name: 'break',
    top: true,
    children: [],
    attributes: [
      { name: 'time', values: ['200ms', '500ms', '1s', '2s', '5s'] },
      { name: 'strength', values: ['none', 'x-weak', 'weak', 'medium', 'strong', 'x-strong'] },
    ],
  },
  {
    name: 'prosody',
    top: true,
    children: INLINE,
    attributes: [
      { name: 'rate', values: [...SPEED_LEVELS, '+20%', '50%'] },
      { name: 'volume', values: [...VOLUME_LEVELS, '+20%', '-6dB'] },
      { name: 'pitch', values: [...PITCH_LEVELS, '+20%', '+2st'] },
    ],
  },
  {
    name: 'say-as',
    top: true,
    children: [],
    attributes: [{ name: 'interpret-as', values: [...SAY_AS_TYPES] }, 'format', 'detail'],
  },
  {
    name: 'emphasis',
    top: true,
    children: INLINE,
    attributes: [{ name: 'level', values: [...EMPHASIS_LEVELS] }],
  },
  { name: 'sub', top: true, children: [], attributes: ['alias'] },
  {
    name: 'voice',
    top: true,
    children: INLINE,
    attributes: ['name', 'language', { name: 'gender', values: ['male', 'female', 'neutral'] }],
  },
  {
    name: 'effect',
    top: true,
    children: INLINE,
    attributes: [{ name: 'name', values: [...VOICE_EFFECTS] }],
  },
];
