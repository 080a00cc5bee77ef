import { timeStretch } from '../../dsp/pitch.js';
import { type SpeechPart, sentenceEnds } from '../../plan.js';
import { escapeXml } from '../../ssml/parser.js';
import type { RunItem } from '../types.js';

/**
 * A segment's parts as the body of a provider's SSML (Polly's and Azure's dialects share it):
 * text escaped, spelled parts as `say-as characters`, a part with phonemes (SSML `<phoneme>`,
 * a lexicon's entry) as `<phoneme alphabet="ipa">` (both take IPA; Azure no X-SAMPA),
 * emphasis where the voice takes it, `<mark>` as the provider names it.
 */
export function partsToSsml(
  parts: readonly SpeechPart[],
  options: { emphasis: boolean; mark: (name: string) => string },
): string {
  return parts
    .map((part) => {
      if (part.mark !== undefined) return options.mark(part.mark);
      let text = escapeXml(part.text);
      if (part.spell) text = `<say-as interpret-as="characters">${text}</say-as>`;
      if (part.phonemes) {
        text = `<phoneme alphabet="ipa" ph="${escapeXml(part.phonemes.ipa)}">${text}</phoneme>`;
      }
      if (part.emphasis && options.emphasis) {
        text = `<emphasis level="${part.emphasis}">${text}</emphasis>`;
      }
      return text;
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();
}

/** The text of parts as spoken words, for engines that take plain text only. */
export function partsToText(parts: readonly SpeechPart[]): string {
  return parts
    .filter((part) => part.mark === undefined)
    .map((part) => (part.spell ? [...part.text.replace(/\s+/g, '')].join(' ') : part.text))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();
}

/**
 * Parts cut into runs of at most `max` characters of text (a provider's limit per call),
 * between parts where it can, else inside a part after a sentence's end or a space.
 */
export function splitParts(parts: readonly SpeechPart[], max: number): SpeechPart[][] {
  const chunks: SpeechPart[][] = [];
  let current: SpeechPart[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(current);
    current = [];
    size = 0;
  };
  for (const part of parts) {
    if (current.length > 0 && size + part.text.length > max) flush();
    let rest = part;
    // A part longer than the limit alone: cut after a sentence's end, else a space.
    while (rest.text.length > max) {
      const head = rest.text.slice(0, max);
      const sentenceEnd = sentenceEnds(rest.text)
        .filter((end) => end <= max)
        .at(-1);
      const space = head.lastIndexOf(' ');
      const cut = sentenceEnd ?? (space > 0 ? space : max);
      chunks.push([{ ...rest, text: rest.text.slice(0, cut).trimEnd() }]);
      rest = { ...rest, text: rest.text.slice(cut).trimStart() };
    }
    current.push(rest);
    size += rest.text.length + 1;
  }
  flush();
  return chunks;
}

/** The speed a provider renders (its own range) and what the signal processing does after. */
export function splitRate(
  rate: number,
  min: number,
  max: number,
): { provider: number; stretch: number } {
  const provider = Math.min(max, Math.max(min, rate));
  return { provider, stretch: provider / rate };
}

/** Audio made `stretch` times longer without changing its pitch (rates past the provider's). */
export function stretchBeyond(samples: Float32Array, stretch: number, sampleRate: number) {
  return Math.abs(stretch - 1) < 0.01 ? samples : timeStretch(samples, stretch, sampleRate);
}

type SpeechItem = Extract<RunItem, { kind: 'speech' }>;

/**
 * A run's items cut into provider calls (docs/decisions/033-whole-ssml-to-remote-voices.md):
 * as few as hold at most `max` by `size` each, a new call only where the next speech item would
 * not fit or where `key` (what is done to a call's audio after it, which one call cannot vary)
 * changes. A break stays at the end of the call before it; an item too long alone is cut
 * between its parts, else after a sentence's end (`splitParts`).
 */
export function splitRun(
  items: readonly RunItem[],
  max: number,
  size: (item: SpeechItem) => number,
  key: (item: SpeechItem) => string = () => '',
): RunItem[][] {
  const calls: RunItem[][] = [];
  let current: RunItem[] = [];
  let used = 0;
  let currentKey: string | undefined;
  const flush = () => {
    if (current.length > 0) calls.push(current);
    current = [];
    used = 0;
    currentKey = undefined;
  };
  for (const item of items) {
    if (item.kind === 'break') {
      current.push(item);
      continue;
    }
    const itemKey = key(item);
    const length = size(item);
    if (currentKey !== undefined && (itemKey !== currentKey || used + length > max)) flush();
    if (length > max) {
      const pieces = splitParts(item.parts, max).map((parts) => ({ ...item, parts }));
      for (const piece of pieces.slice(0, -1)) {
        calls.push([...current, piece]);
        current = [];
      }
      const last = pieces.at(-1);
      if (last) {
        current.push(last);
        used = size(last);
        currentKey = itemKey;
      }
      continue;
    }
    current.push(item);
    used += length;
    currentKey = itemKey;
  }
  flush();
  return calls;
}
