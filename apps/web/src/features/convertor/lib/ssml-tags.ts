import {
  EMPHASIS_LEVELS,
  PAUSE,
  type PauseUnit,
  PITCH_LEVELS,
  SAY_AS_TYPES,
  SPEED_LEVELS,
  type TagKind,
  VOICE_EFFECTS,
  VOLUME_LEVELS,
} from '@parla/contract';

/**
 * The tags the toolbar inserts and the chips the Text tab shows (SPEC §5 "Supported markup").
 * The default of each is chosen so that the inserted markup is as long as its SPEC §9 cost where
 * the markup allows it: `<break time="1s" />` is 19, `<prosody rate="medium"></prosody>` 33,
 * volume 35, pitch 34, `<emphasis level="strong"></emphasis>` 36. Say-as and effect cannot be
 * that short or long (43 and 34 characters); their cost is still what the toolbar checks.
 */

export interface TagSpec {
  kind: TagKind;
  label: string;
  /** The element and the attribute whose value the chip edits. */
  element: string;
  attribute: string;
  defaultValue: string;
  /** Named values offered in the chip's menu (a pause and the rates also take numbers). */
  values: readonly string[];
  /** A self-closing tag (pause) or a pair around the selection. */
  empty: boolean;
}

export const TAG_SPECS: Record<TagKind, TagSpec> = {
  pause: {
    kind: 'pause',
    label: 'Pause',
    element: 'break',
    attribute: 'time',
    defaultValue: `${PAUSE.defaultValue}${PAUSE.defaultUnit}`,
    values: [],
    empty: true,
  },
  speed: {
    kind: 'speed',
    label: 'Speed',
    element: 'prosody',
    attribute: 'rate',
    defaultValue: 'medium',
    values: SPEED_LEVELS,
    empty: false,
  },
  volume: {
    kind: 'volume',
    label: 'Volume',
    element: 'prosody',
    attribute: 'volume',
    defaultValue: 'medium',
    values: VOLUME_LEVELS,
    empty: false,
  },
  pitch: {
    kind: 'pitch',
    label: 'Pitch',
    element: 'prosody',
    attribute: 'pitch',
    defaultValue: 'medium',
    values: PITCH_LEVELS,
    empty: false,
  },
  sayAs: {
    kind: 'sayAs',
    label: 'Say as',
    element: 'say-as',
    attribute: 'interpret-as',
    defaultValue: 'characters',
    values: SAY_AS_TYPES,
    empty: false,
  },
  emphasis: {
    kind: 'emphasis',
    label: 'Emphasis',
    element: 'emphasis',
    attribute: 'level',
    defaultValue: 'strong',
    values: EMPHASIS_LEVELS,
    empty: false,
  },
  voiceEffect: {
    kind: 'voiceEffect',
    label: 'Voice effect',
    element: 'effect',
    attribute: 'name',
    defaultValue: 'whispered',
    values: VOICE_EFFECTS,
    empty: false,
  },
};

export const TAG_KINDS = Object.keys(TAG_SPECS) as TagKind[];

export function openingTag(kind: TagKind, value = TAG_SPECS[kind].defaultValue): string {
  const spec = TAG_SPECS[kind];
  return `<${spec.element} ${spec.attribute}="${value}"${spec.empty ? ' />' : '>'}`;
}

export function closingTag(kind: TagKind): string {
  return `</${TAG_SPECS[kind].element}>`;
}

/** What a chip of the Text tab is. */
export type ChipInfo =
  | { role: 'open'; kind: TagKind; value: string }
  | { role: 'close'; kind: TagKind | null; element: string }
  | { role: 'other' };

const OPEN = /^<([\w:-]+)((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>$/;
const CLOSE = /^<\/([\w:-]+)\s*>$/;
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    attributes.set(match[1] ?? '', match[2] ?? match[3] ?? '');
  }
  return attributes;
}

export function describeChip(raw: string): ChipInfo {
  const close = CLOSE.exec(raw);
  if (close) {
    const element = close[1] ?? '';
    const kind =
      element === 'prosody'
        ? null
        : (TAG_KINDS.find((k) => TAG_SPECS[k].element === element) ?? null);
    return { role: 'close', kind, element };
  }
  const open = OPEN.exec(raw);
  if (!open) return { role: 'other' };
  const attributes = attributesOf(open[2] ?? '');
  for (const kind of TAG_KINDS) {
    const spec = TAG_SPECS[kind];
    if (spec.element !== open[1]) continue;
    const value = attributes.get(spec.attribute);
    if (value !== undefined && attributes.size === 1) return { role: 'open', kind, value };
  }
  return { role: 'other' };
}

/** The chip's source with its one attribute set to `value` (quotes in the value dropped). */
export function withValue(raw: string, value: string): string {
  const info = describeChip(raw);
  if (info.role !== 'open') return raw;
  const { attribute } = TAG_SPECS[info.kind];
  const clean = value.replaceAll('"', '').replaceAll("'", '');
  return raw.replace(
    new RegExp(`(${attribute}\\s*=\\s*)(?:"[^"]*"|'[^']*')`),
    (_, name: string) => `${name}"${clean}"`,
  );
}

/** A pause value such as '500ms' or '2s', split into its number and unit. */
export function parsePause(value: string): { amount: number; unit: PauseUnit } | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(value.trim());
  if (!match) return null;
  return { amount: Number(match[1]), unit: match[2] as PauseUnit };
}

/** A prosody value as a percentage number ('20%' -> 20), or null for a named level. */
export function parsePercent(value: string): number | null {
  const match = /^([+-]?\d+(?:\.\d+)?)%$/.exec(value.trim());
  return match ? Number(match[1]) : null;
}
