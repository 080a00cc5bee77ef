import type { EmphasisLevel, VoiceEffect } from '@parla/contract';
import type { DocumentItem, Prosody, SpeechDocument } from './document.js';

/**
 * Splits a normalised document into sentences, the unit of rendering and streaming. A
 * sentence holds speech pieces (runs of text that share voice, effect and prosody, rendered
 * by one espeak-ng call), breaks and bleeps. Breaks that follow a sentence's last words stay
 * with that sentence, so its audio already ends with the pause.
 */

export interface SpeechPart {
  text: string;
  emphasis?: EmphasisLevel;
  spell?: boolean;
}

export interface SpeechPiece {
  kind: 'speech';
  voice?: string;
  language?: string;
  effect?: VoiceEffect;
  prosody: Prosody;
  parts: SpeechPart[];
}

export type SentenceUnit =
  | SpeechPiece
  | { kind: 'break'; seconds: number }
  | { kind: 'bleep'; seconds: number; prosody: Prosody };

export interface Sentence {
  units: SentenceUnit[];
}

/** Words after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'jr',
  'sr',
  'mt',
  'm',
  'mme',
  'mlle',
  'dr',
  'hr',
  'fr',
  'sra',
  'sr',
  'srta',
  'z.b',
  'bzw',
  'usw',
  'ca',
]);

/** Ends of sentences inside a text: terminal punctuation, spaces, then a non-lowercase letter. */
function splitSentences(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const pattern = /[.!?…。！？]+["'»”)]*\s+/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    const next = text.charAt(end);
    const before = text.slice(start, match.index).split(/\s+/).at(-1)?.toLowerCase() ?? '';
    if (next && next === next.toLowerCase() && next !== next.toUpperCase()) continue;
    if (match[0].startsWith('.') && ABBREVIATIONS.has(before.replace(/\.$/, ''))) continue;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces.filter((p) => p.trim() !== '');
}

function sameRun(piece: SpeechPiece, item: DocumentItem & { kind: 'text' }): boolean {
  return (
    piece.voice === item.voice &&
    piece.language === item.language &&
    piece.effect === item.effect &&
    piece.prosody.rate === item.prosody.rate &&
    piece.prosody.pitch === item.prosody.pitch &&
    piece.prosody.volume === item.prosody.volume
  );
}

export function planSentences(document: SpeechDocument): Sentence[] {
  const sentences: Sentence[] = [];
  let current: SentenceUnit[] = [];
  // True once the current sentence has words: later breaks still belong to it.
  let ended = false;

  const flush = () => {
    if (current.length > 0) sentences.push({ units: current });
    current = [];
    ended = false;
  };

  const addText = (item: DocumentItem & { kind: 'text' }, text: string) => {
    if (ended) flush();
    const last = current.at(-1);
    const part: SpeechPart = {
      text,
      ...(item.emphasis && { emphasis: item.emphasis }),
      ...(item.spell && { spell: true }),
    };
    if (last?.kind === 'speech' && sameRun(last, item)) last.parts.push(part);
    else {
      current.push({
        kind: 'speech',
        prosody: item.prosody,
        parts: [part],
        ...(item.voice !== undefined && { voice: item.voice }),
        ...(item.language !== undefined && { language: item.language }),
        ...(item.effect !== undefined && { effect: item.effect }),
      });
    }
  };

  for (const item of document.items) {
    switch (item.kind) {
      case 'boundary':
        flush();
        break;
      case 'break':
        current.push({ kind: 'break', seconds: item.seconds });
        break;
      case 'bleep':
        if (ended) flush();
        current.push({ kind: 'bleep', seconds: item.seconds, prosody: item.prosody });
        break;
      case 'text': {
        // Spelled text and say-as output never end a sentence.
        const pieces = item.spell ? [item.text] : splitSentences(item.text);
        pieces.forEach((piece, index) => {
          addText(item, piece);
          if (index < pieces.length - 1 || /[.!?…。！？]["'»”)]*\s*$/.test(piece)) ended = true;
        });
        break;
      }
    }
  }
  flush();
  return sentences;
}

/** The words of a sentence, for its mark. */
export function sentenceText(sentence: Sentence): string {
  return sentence.units
    .flatMap((unit) => (unit.kind === 'speech' ? unit.parts.map((p) => p.text) : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();
}

function samePiece(a: SpeechPiece, b: SpeechPiece): boolean {
  return (
    a.voice === b.voice &&
    a.language === b.language &&
    a.effect === b.effect &&
    a.prosody.rate === b.prosody.rate &&
    a.prosody.pitch === b.prosody.pitch &&
    a.prosody.volume === b.prosody.volume
  );
}

function characters(sentence: Sentence): number {
  return sentence.units.reduce(
    (sum, unit) =>
      sum + (unit.kind === 'speech' ? unit.parts.reduce((s, p) => s + p.text.length, 0) : 0),
    0,
  );
}

/**
 * Merges consecutive sentences into groups, for a backend whose every call starts a process
 * (the native espeak-ng program, which takes about 7 ms to load its data). The first group is
 * the first sentence alone, so that the first audio comes early; the rest is cut into as few
 * groups of about equal size as `maxChars` allows, but into two when there are `2 × minChars`
 * or more, so that two processes can run at once. Adjacent pieces with the same settings
 * become one espeak-ng call.
 */
export function groupSentences(
  sentences: readonly Sentence[],
  maxChars = 1500,
  minChars = 200,
): Sentence[] {
  const [first, ...rest] = sentences;
  if (!first) return [];
  const total = rest.reduce((sum, sentence) => sum + characters(sentence), 0);
  const count = Math.max(total >= 2 * minChars ? 2 : 1, Math.ceil(total / maxChars));
  const groups: Sentence[] = [copy(first)];
  let before = 0; // characters of the rest before this sentence
  let current: { index: number; group: Sentence } | undefined;
  for (const sentence of rest) {
    const size = characters(sentence);
    // Each sentence goes to the group its middle falls in.
    const index = Math.min(count - 1, Math.floor(((before + size / 2) * count) / total || 0));
    before += size;
    if (current?.index !== index) {
      current = { index, group: copy(sentence) };
      groups.push(current.group);
      continue;
    }
    for (const unit of sentence.units) {
      const last = current.group.units.at(-1);
      if (unit.kind === 'speech' && last?.kind === 'speech' && samePiece(last, unit)) {
        last.parts.push(...unit.parts.map((part) => ({ ...part })));
      } else {
        current.group.units.push(copyUnit(unit));
      }
    }
  }
  return groups;
}

function copyUnit(unit: SentenceUnit): SentenceUnit {
  return unit.kind === 'speech' ? { ...unit, parts: [...unit.parts] } : unit;
}

function copy(sentence: Sentence): Sentence {
  return { units: sentence.units.map(copyUnit) };
}
