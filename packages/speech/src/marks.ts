import type { SpeechMark } from '@parla/contract';
import { looksLikeSsml } from './ssml/parser.js';
import type { Mark } from './stages/render.js';

/**
 * Speech marks in Amazon Polly's shape (docs/decisions/019-speech-marks.md): the pipeline's
 * marks (stages/render.ts) carry what was *spoken* (say-as written out, a `<sub>` alias, the
 * words of one sentence); this module finds each of them in the text the user typed, so that
 * `text.slice(start, end)` is the word as written, for plain text and for SSML alike.
 *
 * The source is read once into tokens (words of readable text, the content of `<say-as>`,
 * `<sub>` and `<phoneme>` as one token each, and `<mark>` tags), then the spoken words are
 * aligned to the tokens in order: a word equal to the next token takes it; a word that differs
 * belongs to the expansion of a number, a symbol or an element (one mark for the whole token).
 */

interface Token {
  /** Offsets into the source, end exclusive. */
  start: number;
  end: number;
  /** Lower-case letters and digits: what a spoken word is compared with. */
  key: string;
  /** Read as something else than its letters: a number, a symbol, a say-as, a sub alias. */
  expands: boolean;
}

interface SourceTokens {
  words: Token[];
  marks: { name: string; start: number; end: number }[];
  /** Readable characters of the source, each with its offsets (an entity is one character). */
  chars: { ch: string; start: number; end: number }[];
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Symbols an engine says ("&" is "and"); other punctuation is not heard. */
const SPOKEN_SYMBOL = /[&@#%*+=$€£¥§°/\\~^|<>]/u;
/** Elements whose content is read as one unit or not read at all. */
const GROUPS = new Set(['say-as', 'sub', 'phoneme']);
const SILENT = new Set(['metadata', 'meta', 'desc']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Lower-case letters and digits; for a lone symbol ("&"), the symbol. */
function keyOf(text: string): string {
  const chars = [...text.toLowerCase().normalize('NFC')];
  return (
    chars.filter((c) => WORD_CHAR.test(c)).join('') ||
    chars.filter((c) => SPOKEN_SYMBOL.test(c)).join('')
  );
}

/** Splits readable characters into whitespace-separated tokens, trimmed of punctuation. */
function tokenize(chars: SourceTokens['chars']): Token[] {
  const tokens: Token[] = [];
  let run: SourceTokens['chars'] = [];
  const flush = () => {
    const first = run.findIndex((c) => WORD_CHAR.test(c.ch) || SPOKEN_SYMBOL.test(c.ch));
    const last = run.findLastIndex((c) => WORD_CHAR.test(c.ch) || SPOKEN_SYMBOL.test(c.ch));
    if (first >= 0) {
      const kept = run.slice(first, last + 1);
      const text = kept.map((c) => c.ch).join('');
      tokens.push({
        start: kept[0]?.start ?? 0,
        end: kept.at(-1)?.end ?? 0,
        key: keyOf(text),
        expands: /[\p{N}]/u.test(text) || [...text].some((c) => SPOKEN_SYMBOL.test(c)),
      });
    }
    run = [];
  };
  for (const c of chars) {
    if (/\s/u.test(c.ch)) flush();
    else run.push(c);
  }
  flush();
  return tokens;
}

function plainTokens(source: string): SourceTokens {
  const chars = [...source].reduce<SourceTokens['chars']>((list, ch) => {
    const start = list.at(-1)?.end ?? 0;
    list.push({ ch, start, end: start + ch.length });
    return list;
  }, []);
  return { words: tokenize(chars), marks: [], chars };
}

/** Reads SSML that the parser accepted: tags, comments, CDATA, entities. */
function ssmlTokens(source: string): SourceTokens {
  const words: Token[] = [];
  const marks: SourceTokens['marks'] = [];
  const chars: SourceTokens['chars'] = [];
  /** Readable characters since the last group boundary, tokenised at each boundary. */
  let pending: SourceTokens['chars'] = [];
  const stack: string[] = [];
  let group: { name: string; chars: SourceTokens['chars']; start: number } | undefined;
  let silent = 0;
  const flush = () => {
    words.push(...tokenize(pending));
    pending = [];
  };
  const text = (ch: string, start: number, end: number) => {
    const c = { ch, start, end };
    if (group) {
      // A <sub>'s content is not heard: its alias is, in its place.
      group.chars.push(c);
      chars.push(c);
    } else if (silent === 0) {
      pending.push(c);
      chars.push(c);
    }
  };
  let i = 0;
  while (i < source.length) {
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i);
      i = end < 0 ? source.length : end + 3;
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i);
      const stop = end < 0 ? source.length : end;
      for (let j = i + 9; j < stop; j++) text(source.charAt(j), j, j + 1);
      i = stop + 3;
    } else if (source.startsWith('<?', i) || source.startsWith('<!', i)) {
      const end = source.indexOf('>', i);
      i = end < 0 ? source.length : end + 1;
    } else if (source.charAt(i) === '<') {
      const end = tagEnd(source, i);
      const tag = source.slice(i, end);
      const closing = tag.startsWith('</');
      const name = /^<\/?\s*([^\s/>]+)/.exec(tag)?.[1] ?? '';
      const selfClosing = tag.endsWith('/>');
      if (closing) {
        stack.pop();
        if (group && group.name === name && !stack.includes(name)) {
          const inside = group.chars;
          const first = inside.findIndex((c) => !/\s/u.test(c.ch));
          const last = inside.findLastIndex((c) => !/\s/u.test(c.ch));
          const start = first >= 0 ? (inside[first]?.start ?? group.start) : group.start;
          const stop = last >= 0 ? (inside[last]?.end ?? end) : end;
          const written = inside
            .slice(first, last + 1)
            .map((c) => c.ch)
            .join('');
          words.push({ start, end: stop, key: keyOf(written), expands: true });
          group = undefined;
        }
        if (SILENT.has(name)) silent = Math.max(0, silent - 1);
      } else {
        if (name === 'mark') {
          const markName = /\bname\s*=\s*("([^"]*)"|'([^']*)')/.exec(tag);
          marks.push({
            name: decode(markName?.[2] ?? markName?.[3] ?? ''),
            start: i,
            end,
          });
        }
        if (name === 'p' || name === 's' || name === 'break') {
          // A boundary also ends a token ("one<break/>two" is two words).
          text(' ', i, i);
        }
        if (!selfClosing) {
          stack.push(name);
          if (GROUPS.has(name) && !group) {
            flush();
            group = { name, chars: [], start: i };
          }
          if (SILENT.has(name)) silent += 1;
        } else if (GROUPS.has(name) && !group) {
          // <sub alias="…"/>: the alias is heard where the tag is.
          flush();
          words.push({ start: i, end, key: '', expands: true });
        }
      }
      i = end;
    } else if (source.charAt(i) === '&') {
      const end = source.indexOf(';', i);
      const entity = end < 0 ? '' : source.slice(i + 1, end);
      text(decode(`&${entity};`), i, end + 1);
      i = end < 0 ? i + 1 : end + 1;
    } else {
      const code = source.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(code);
      text(ch, i, i + ch.length);
      i += ch.length;
    }
  }
  flush();
  words.sort((a, b) => a.start - b.start);
  return { words, marks, chars };
}

/** The end of the tag starting at `from`, past quoted attribute values. */
function tagEnd(source: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < source.length; i++) {
    const c = source.charAt(i);
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return source.length;
}

function decode(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return ENTITIES[body] ?? whole;
  });
}

/** Words an engine left out (a lone symbol) are skipped if the next word is this close. */
const LOOKAHEAD = 3;

/**
 * Which source token each spoken word is, or -1 (a further word of an expansion, already
 * marked by its first word).
 */
function align(spoken: readonly string[], tokens: readonly Token[]): number[] {
  const result: number[] = [];
  let cursor = 0;
  /** The token whose expansion is being heard. */
  let expanding = -1;
  const take = (index: number, expands: boolean) => {
    result.push(index);
    expanding = expands ? index : -1;
    cursor = index + 1;
  };
  for (const word of spoken) {
    const key = keyOf(word);
    const at = tokens[cursor];
    if (key !== '' && at?.key === key) {
      take(cursor, false);
      continue;
    }
    // The word a little further: the engine skipped or merged a word ("the"), or said a
    // symbol's word ("&") that the engine left out. Not at the start of a number or an
    // element, whose expansion may say a word that comes later ("3 dogs and three cats").
    const ahead = tokens.slice(cursor + 1, cursor + 1 + LOOKAHEAD);
    const same = key === '' ? -1 : ahead.findIndex((token) => token.key === key);
    if (same >= 0 && (expanding >= 0 || !at?.expands)) {
      take(cursor + 1 + same, false);
      continue;
    }
    if (expanding >= 0 || !at) {
      // More of the expansion; or more words than the text has.
      result.push(-1);
      continue;
    }
    if (at.expands) {
      take(cursor, true);
      continue;
    }
    // A plain word not heard as written: the expansion of a number or element a little
    // further (engines skip or merge short words more often than they expand plain words).
    const expanded = ahead.findIndex((token) => token.expands);
    take(expanded >= 0 ? cursor + 1 + expanded : cursor, true);
  }
  return result;
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

/**
 * The speech marks of a rendering: `source` is the text as the user typed it (plain or SSML),
 * `marks` the pipeline's, in time order. Words are found in the source as described above;
 * a sentence spans its first to its last word; an SSML mark is its `<mark/>` tag.
 */
export function speechMarks(source: string, marks: readonly Mark[]): SpeechMark[] {
  const tokens = looksLikeSsml(source) ? ssmlTokens(source) : plainTokens(source);
  /** The readable text between two source offsets (characters are in source order). */
  const readable = (start: number, end: number) => {
    let low = 0;
    let high = tokens.chars.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((tokens.chars[middle]?.start ?? 0) < start) low = middle + 1;
      else high = middle;
    }
    let text = '';
    for (let i = low; i < tokens.chars.length; i++) {
      const c = tokens.chars[i];
      if (!c || c.end > end) break;
      text += c.ch;
    }
    return text.replace(/\s+/g, ' ').trim();
  };
  const words = marks.filter((mark) => mark.type === 'word');
  const positions = align(
    words.map((mark) => mark.text),
    tokens.words,
  );
  const out: SpeechMark[] = [];
  const wordMarks: SpeechMark[] = [];
  words.forEach((mark, index) => {
    const token = tokens.words[positions[index] ?? -1];
    if (!token) return;
    const value = readable(token.start, token.end);
    wordMarks.push({
      time: ms(mark.start),
      type: 'word',
      start: token.start,
      end: token.end,
      value,
    });
  });
  let markIndex = 0;
  let nextWord = 0;
  for (const mark of marks) {
    if (mark.type === 'sentence') {
      // Its words are the word marks heard while it lasts.
      while (nextWord < wordMarks.length && (wordMarks[nextWord]?.time ?? 0) < ms(mark.start)) {
        out.push(wordMarks[nextWord] as SpeechMark);
        nextWord += 1;
      }
      const inside = wordMarks.filter(
        (word, i) => i >= nextWord && word.time < Math.max(ms(mark.end), ms(mark.start) + 1),
      );
      const first = inside[0];
      const last = inside.at(-1);
      if (first && last) {
        // With the punctuation that ends it, past closing tags ("<sub>UN</sub>.").
        let end = last.end;
        for (let at = end; at < source.length; ) {
          const c = source.charAt(at);
          if (c === '<') at = tagEnd(source, at);
          else if (/[\p{P}\p{S}]/u.test(c)) {
            at += 1;
            end = at;
          } else break;
        }
        out.push({
          time: ms(mark.start),
          type: 'sentence',
          start: first.start,
          end,
          value: readable(first.start, end),
        });
      }
    } else if (mark.type === 'mark') {
      const tag = tokens.marks.slice(markIndex).find((m) => m.name === mark.text);
      if (tag) markIndex = tokens.marks.indexOf(tag) + 1;
      while (nextWord < wordMarks.length && (wordMarks[nextWord]?.time ?? 0) < ms(mark.start)) {
        out.push(wordMarks[nextWord] as SpeechMark);
        nextWord += 1;
      }
      out.push({
        time: ms(mark.start),
        type: 'ssml',
        start: tag?.start ?? 0,
        end: tag?.end ?? 0,
        value: mark.text,
      });
    }
  }
  out.push(...wordMarks.slice(nextWord));
  return out;
}

/** Characters a subtitle cue holds at most (two lines of 42). */
const CUE_CHARACTERS = 84;

/** The cues of the subtitles: sentences, cut between words when longer than a cue holds. */
function cues(marks: readonly SpeechMark[], duration: number) {
  const list: { from: number; to: number; text: string }[] = [];
  const end = ms(duration);
  const sentences = marks.filter((mark) => mark.type === 'sentence');
  sentences.forEach((sentence, index) => {
    const until = sentences[index + 1]?.time ?? end;
    const words = marks.filter(
      (mark) => mark.type === 'word' && mark.start >= sentence.start && mark.end <= sentence.end,
    );
    if (sentence.value.length <= CUE_CHARACTERS || words.length < 2) {
      list.push({ from: sentence.time, to: until, text: sentence.value });
      return;
    }
    let group: SpeechMark[] = [];
    let length = 0;
    const groups: SpeechMark[][] = [];
    for (const word of words) {
      if (group.length > 0 && length + word.value.length + 1 > CUE_CHARACTERS) {
        groups.push(group);
        group = [];
        length = 0;
      }
      group.push(word);
      length += word.value.length + 1;
    }
    groups.push(group);
    groups.forEach((words, i) => {
      const next = groups[i + 1]?.[0];
      list.push({
        from: i === 0 ? sentence.time : (words[0]?.time ?? sentence.time),
        to: next ? next.time : until,
        text: words.map((word) => word.value).join(' '),
      });
    });
  });
  return list.filter((cue) => cue.to > cue.from);
}

function timestamp(milliseconds: number, separator: '.' | ','): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(milliseconds / 3_600_000);
  const m = Math.floor(milliseconds / 60_000) % 60;
  const s = Math.floor(milliseconds / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(milliseconds % 1000, 3)}`;
}

/**
 * Subtitles of a rendering from its speech marks: WebVTT (W3C) or SRT, one cue a sentence
 * (longer ones cut between words), each shown until the next begins.
 */
export function subtitles(
  marks: readonly SpeechMark[],
  duration: number,
  format: 'vtt' | 'srt',
): string {
  const list = cues(marks, duration);
  if (format === 'srt') {
    return list
      .map(
        (cue, i) =>
          `${i + 1}\n${timestamp(cue.from, ',')} --> ${timestamp(cue.to, ',')}\n${cue.text}\n`,
      )
      .join('\n');
  }
  // "-->" cannot appear in a cue's text; "&" and "<" are escaped (WebVTT cue text).
  const cueText = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('-->', '--&gt;');
  return `WEBVTT\n\n${list
    .map(
      (cue) => `${timestamp(cue.from, '.')} --> ${timestamp(cue.to, '.')}\n${cueText(cue.text)}\n`,
    )
    .join('\n')}`;
}
