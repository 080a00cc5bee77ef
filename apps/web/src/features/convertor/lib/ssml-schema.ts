import type { ElementSpec } from '@codemirror/lang-xml';
import {
  EMPHASIS_LEVELS,
  PHONEME_ALPHABETS,
  PITCH_LEVELS,
  SAY_AS_TYPES,
  SPEED_LEVELS,
  TAG_COSTS,
  VOICE_EFFECTS,
  VOLUME_LEVELS,
} from '@parla/contract';
import { costOf } from './pronunciation-tags';

/** The elements and attributes the engine supports (docs/ssml.md), for the SSML tab's completion. */
const INLINE = [
  'break',
  'prosody',
  'say-as',
  'emphasis',
  'sub',
  'phoneme',
  'lang',
  'voice',
  'effect',
  'p',
  's',
];

/** What inserting an element costs in characters (SPEC §9; issue 32 for phoneme, sub, lang). */
const COSTS: Record<string, number> = {
  break: TAG_COSTS.pause,
  'say-as': TAG_COSTS.sayAs,
  emphasis: TAG_COSTS.emphasis,
  effect: TAG_COSTS.voiceEffect,
  phoneme: costOf('phoneme'),
  sub: costOf('sub'),
  lang: costOf('lang'),
};

const ELEMENTS: ElementSpec[] = [
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
    name: 'phoneme',
    top: true,
    children: [],
    attributes: [{ name: 'alphabet', values: [...PHONEME_ALPHABETS] }, 'ph'],
  },
  { name: 'lang', top: true, children: INLINE, attributes: ['xml:lang'] },
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

/**
 * The elements for the SSML tab's completion, each with what inserting it costs where that is
 * one number (`describe` words it: "Insert phoneme (40 characters)").
 */
export function ssmlElements(describe: (element: string, cost: number) => string): ElementSpec[] {
  return ELEMENTS.map((element) => {
    const cost = COSTS[element.name];
    return cost === undefined
      ? element
      : { ...element, completion: { detail: describe(element.name, cost) } };
  });
}
