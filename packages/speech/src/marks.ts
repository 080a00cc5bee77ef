import type { SpeechMark } from '@parla/contract';
import { sentenceEnds } from './plan.js';
import { looksLikeSsml } from './ssml/parser.js';
import type { Mark } from './stages/render.js';

/**
 * Speech marks in Amazon Polly's shape (docs/decisions/019-speech-marks.md, and 029 for
 * sentences, words without an event of their own and subtitle cues): the pipeline's
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
  chars: SourceChar[];
  /** Source offsets where a sentence must start (`<s>`, `<p>` and their ends). */
  boundaries: number[];
}

interface SourceChar {
  ch: string;
  start: number;
  end: number;
  /** Inside `<say-as>`, `<sub>` or `<phoneme>`, whose text never ends a sentence. */
  grouped?: true;
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
function tokenize(chars: readonly SourceChar[]): Token[] {
  const tokens: Token[] = [];
  let run: SourceChar[] = [];
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
  return { words: tokenize(chars), marks: [], chars, boundaries: [] };
}

/** Reads SSML that the parser accepted: tags, comments, CDATA, entities. */
function ssmlTokens(source: string): SourceTokens {
  const words: Token[] = [];
  const marks: SourceTokens['marks'] = [];
  const chars: SourceChar[] = [];
  const boundaries: number[] = [];
  /** Readable characters since the last group boundary, tokenised at each boundary. */
  let pending: SourceChar[] = [];
  const stack: string[] = [];
  let group: { name: string; chars: SourceChar[]; start: number } | undefined;
  let silent = 0;
  const flush = () => {
    words.push(...tokenize(pending));
    pending = [];
  };
  const text = (ch: string, start: number, end: number) => {
    const c: SourceChar = { ch, start, end };
    if (group) {
      // A <sub>'s content is not heard: its alias is, in its place.
      c.grouped = true;
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
        if (name === 'p' || name === 's') boundaries.push(end);
      } else {
        if (name === 'mark') {
          const markName = /\bname\s*=\s*("([^"]*)"|'([^']*)')/.exec(tag);
          marks.push({
            name: decode(markName?.[2] ?? markName?.[3] ?? ''),
            start: i,
            end,
          });
        }
        if (name === 'p' || name === 's') boundaries.push(i);
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
  return { words, marks, chars, boundaries };
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

/**
 * For each of `texts`, sentences rendered together in this order, the index of the first of
 * the `spoken` words that is one of its words, or -1 when none is (words the engine left out).
 */
export function sentenceFirstWords(texts: readonly string[], spoken: readonly string[]): number[] {
  const { words: tokens } = plainTokens(texts.join('\n'));
  const ends: number[] = [];
  let length = 0;
  for (const text of texts) {
    length += text.length + 1;
    ends.push(length);
  }
  const firsts: number[] = texts.map(() => -1);
  align(spoken, tokens).forEach((position, index) => {
    const token = tokens[position];
    if (!token) return;
    const sentence = ends.findIndex((end) => token.start < end);
    if (sentence >= 0 && firsts[sentence] === -1) firsts[sentence] = index;
  });
  return firsts;
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

/**
 * Where each sentence of the source starts: after the sentence ends of its readable text (the
 * rule that plans the rendering, `sentenceEnds` in plan.ts) and at each `<s>` and `<p>`.
 */
function sentenceStarts(tokens: SourceTokens): number[] {
  // The text of a <say-as>, <sub> or <phoneme> never ends a sentence (as in plan.ts).
  let text = '';
  const charAt: number[] = [];
  tokens.chars.forEach((c, index) => {
    text += c.grouped && !/\s/u.test(c.ch) ? 'x'.repeat(c.ch.length) : c.ch;
    for (let k = 0; k < c.ch.length; k++) charAt.push(index);
  });
  const starts = sentenceEnds(text).map((end) => tokens.chars[charAt[end] ?? -1]?.start ?? 0);
  return [...new Set([...starts, ...tokens.boundaries])].sort((a, b) => a - b);
}

/**
 * When each token is heard, in ms: the spoken word aligned to it, or, for a token no word was
 * aligned to (espeak-ng says "a" and "the" with a neighbour and reports one word; a voice may
 * leave a symbol out), a time between its neighbours' by the share of their letters, within
 * its own sentence.
 */
function tokenTimes(
  words: readonly Mark[],
  positions: readonly number[],
  tokens: readonly Token[],
  sentenceOf: readonly number[],
): number[] {
  const time: (number | undefined)[] = new Array(tokens.length).fill(undefined);
  /** When the words aligned to a token (an expansion's too) stop being heard. */
  const until: number[] = new Array(tokens.length).fill(0);
  let current = -1;
  words.forEach((word, index) => {
    const position = positions[index] ?? -1;
    if (position >= 0) {
      current = position;
      time[position] = ms(word.start);
    }
    if (current >= 0) until[current] = Math.max(until[current] ?? 0, ms(word.end));
  });
  // Not Math.max(...list): an audiobook has more words than a call takes arguments.
  const last = words.reduce((latest, word) => Math.max(latest, ms(word.end)), 0);
  const weight = (i: number) => (tokens[i]?.end ?? 0) - (tokens[i]?.start ?? 0) + 1;
  const out: number[] = [];
  let previous = -1;
  for (let i = 0; i < tokens.length; ) {
    const heard = time[i];
    if (heard !== undefined) {
      out[i] = heard;
      previous = i;
      i += 1;
      continue;
    }
    // A run of tokens not heard, within one sentence.
    let j = i;
    while (j < tokens.length && time[j] === undefined && sentenceOf[j] === sentenceOf[i]) j += 1;
    const next = time[j] !== undefined && sentenceOf[j] === sentenceOf[i] ? j : -1;
    const sameBefore = previous >= 0 && sentenceOf[previous] === sentenceOf[i];
    const from = previous < 0 ? 0 : sameBefore ? (out[previous] ?? 0) : (until[previous] ?? 0);
    const to = Math.max(
      from,
      next >= 0 ? (time[next] ?? from) : previous >= 0 ? (until[previous] ?? from) : last,
    );
    const shares: number[] = [];
    let total = sameBefore ? weight(previous) : 0;
    for (let k = i; k < j; k++) {
      shares.push(total);
      total += weight(k);
    }
    // With no heard word after it, the run ends where the sound of the one before does.
    if (next < 0) total += 1;
    for (let k = i; k < j; k++) {
      out[k] = Math.round(from + ((to - from) * (shares[k - i] ?? 0)) / (total || 1));
    }
    i = j;
  }
  // Never earlier than the word before (a word's time is when it starts being heard).
  for (let i = 1; i < out.length; i++) out[i] = Math.max(out[i] ?? 0, out[i - 1] ?? 0);
  return out;
}

/**
 * The speech marks of a rendering: `source` is the text as the user typed it (plain or SSML),
 * `marks` the pipeline's, in time order (docs/decisions/029-sentence-marks-and-cues.md). Every
 * word of the source gets a word mark; the sentences are found in the source by the rule that
 * plans the rendering, each timed by its first word and spanning its words and the punctuation
 * that ends it; an SSML mark is its `<mark/>` tag.
 */
export function speechMarks(source: string, marks: readonly Mark[]): SpeechMark[] {
  return speechMarksOf(source)(marks);
}

/**
 * `speechMarks` of one source whose marks grow (a rendering that streams, chunk by chunk): its
 * words are found once. With `soFar`, the marks are those of the words heard so far, up to the
 * last word one of `marks` is (the words after it are not timed yet): each call's answer
 * starts with the one before, and the last one with every mark is `speechMarks`'s.
 */
export function speechMarksOf(
  source: string,
): (marks: readonly Mark[], soFar?: boolean) => SpeechMark[] {
  const tokens = looksLikeSsml(source) ? ssmlTokens(source) : plainTokens(source);
  /** The first readable character at or after a source offset (they are in source order). */
  const charIndex = (offset: number) => {
    let low = 0;
    let high = tokens.chars.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((tokens.chars[middle]?.start ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  /** The readable text between two source offsets. */
  const readable = (start: number, end: number) => {
    let text = '';
    for (let i = charIndex(start); i < tokens.chars.length; i++) {
      const c = tokens.chars[i];
      if (!c || c.end > end) break;
      text += c.ch;
    }
    return text.replace(/\s+/g, ' ').trim();
  };
  const starts = sentenceStarts(tokens);
  let sentence = 0;
  const sentenceOf = tokens.words.map((token) => {
    while (sentence < starts.length && (starts[sentence] ?? 0) <= token.start) sentence += 1;
    return sentence;
  });
  return (marks, soFar = false) => {
    const words = marks.filter((mark) => mark.type === 'word');
    const positions = align(
      words.map((mark) => mark.text),
      tokens.words,
    );
    const times = tokenTimes(words, positions, tokens.words, sentenceOf);
    const heard = soFar
      ? positions.reduce((last, position) => Math.max(last, position), -1)
      : tokens.words.length - 1;
    const out: SpeechMark[] = [];
    tokens.words.forEach((token, index) => {
      if (index > heard) return;
      const time = times[index] ?? 0;
      const first = index === 0 || sentenceOf[index - 1] !== sentenceOf[index];
      if (first) {
        let last = index;
        while (sentenceOf[last + 1] === sentenceOf[index]) last += 1;
        // With the punctuation that ends it, past closing tags ("<sub>UN</sub>.").
        let end = tokens.words[last]?.end ?? token.end;
        for (let at = end; at < source.length; ) {
          const c = source.charAt(at);
          if (c === '<') at = tagEnd(source, at);
          else if (/[\p{P}\p{S}]/u.test(c)) {
            at += 1;
            end = at;
          } else break;
        }
        // With the quotes or brackets that open it ('"Why?" she asked.').
        let start = token.start;
        const boundary = starts[(sentenceOf[index] ?? 0) - 1] ?? 0;
        for (let k = charIndex(token.start) - 1; k >= 0; k--) {
          const c = tokens.chars[k];
          if (!c || c.start < boundary || !/[\p{Ps}\p{Pi}"'¿¡]/u.test(c.ch)) break;
          start = c.start;
        }
        out.push({
          time,
          type: 'sentence',
          start,
          end,
          value: readable(start, end),
        });
      }
      out.push({
        time,
        type: 'word',
        start: token.start,
        end: token.end,
        value: readable(token.start, token.end),
      });
    });
    let markIndex = 0;
    for (const mark of marks) {
      if (mark.type !== 'mark') continue;
      const tag = tokens.marks.slice(markIndex).find((m) => m.name === mark.text);
      if (tag) markIndex = tokens.marks.indexOf(tag) + 1;
      const time = ms(mark.start);
      // Before the words heard from its time on, after a sentence that starts then.
      const at = out.findIndex((m) => m.time > time || (m.time === time && m.type === 'word'));
      out.splice(at < 0 ? out.length : at, 0, {
        time,
        type: 'ssml',
        start: tag?.start ?? 0,
        end: tag?.end ?? 0,
        value: mark.text,
      });
    }
    return out;
  };
}

/**
 * Subtitle conventions (the BBC's and Netflix's guidelines): at most 42 characters a line and
 * two lines a cue; a cue never runs across the end of a sentence.
 */
const LINE_CHARACTERS = 42;
const CUE_LINES = 2;
/** Punctuation after which a sentence or a line is best cut. */
const CLAUSE_END = /[,;:—–)]$/u;

/** Short words kept with the word after them on a line ("the / barn" reads badly). */
const BINDS_FORWARD = new Set(
  'a an the of to in on at by for and or but with from as de la le les des du un une el los las en y der die das den dem ein eine und zu von il lo gli di e o'.split(
    ' ',
  ),
);

/**
 * The lines of a cue's text: one when it fits, else two, cut at the space that leaves both
 * within a line, after a comma if one does so, else the most even that does not part a short
 * word ("the", "of") from the next; undefined when none does.
 */
function lines(text: string): string[] | undefined {
  if (text.length <= LINE_CHARACTERS) return [text];
  let best: { at: number; score: number } | undefined;
  for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1)) {
    const first = text.slice(0, at);
    const second = text.slice(at + 1);
    if (first.length > LINE_CHARACTERS || second.length > LINE_CHARACTERS) continue;
    const score =
      Math.abs(first.length - second.length) -
      (CLAUSE_END.test(first) ? 100 : 0) +
      (BINDS_FORWARD.has(first.slice(first.lastIndexOf(' ') + 1).toLowerCase()) ? 20 : 0);
    if (!best || score < best.score) best = { at, score };
  }
  return best && [text.slice(0, best.at), text.slice(best.at + 1)];
}

/** The lines of a cue: as `lines`, or one line per word a line cannot hold (a long address). */
function cueLines(text: string): string[] {
  return lines(text) ?? text.split(' ');
}

interface Cue {
  from: number;
  to: number;
  lines: string[];
}

/**
 * The cues of the subtitles (docs/decisions/029-sentence-marks-and-cues.md): each sentence's
 * own text, punctuation included; a sentence that two lines cannot hold is cut between words,
 * after the last comma (or other clause end) that leaves a cue two lines can hold, else after
 * the last word that does. A cue starts when its first word is heard and lasts until the next.
 */
function cues(marks: readonly SpeechMark[], duration: number): Cue[] {
  const list: Cue[] = [];
  const end = ms(duration);
  const sentences = marks.filter((mark) => mark.type === 'sentence');
  // In text order, to find a sentence's words without reading every mark (an audiobook's).
  const byStart = marks
    .filter((mark) => mark.type === 'word')
    .sort((a, b) => a.start - b.start || a.time - b.time);
  sentences.forEach((sentence, index) => {
    const until = sentences[index + 1]?.time ?? end;
    const text = sentence.value;
    // Each spaced run of the sentence's text is a place to cut, heard when its first word is,
    // or, without a word mark (marks stored before every word had one), between its
    // neighbours by their share of the text.
    const runs = [...text.matchAll(/\S+/g)].map((match) => match.index);
    const heard: (number | undefined)[] = runs.map(() => undefined);
    let low = 0;
    let high = byStart.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((byStart[middle]?.start ?? 0) < sentence.start) low = middle + 1;
      else high = middle;
    }
    let cursor = 0;
    let run = 0;
    for (let i = low; i < byStart.length; i++) {
      const mark = byStart[i];
      if (!mark || mark.start >= sentence.end) break;
      if (mark.end > sentence.end) continue;
      const found = text.indexOf(mark.value, cursor);
      if (found < 0) continue;
      cursor = found + mark.value.length;
      while ((runs[run + 1] ?? Number.POSITIVE_INFINITY) <= found) run += 1;
      heard[run] ??= mark.time;
    }
    heard[0] = sentence.time;
    const words = runs.map((at, r) => {
      const time = heard[r];
      if (time !== undefined) return { at, time };
      let before = r - 1;
      while (before > 0 && heard[before] === undefined) before -= 1;
      let after = r + 1;
      while (after < runs.length && heard[after] === undefined) after += 1;
      const [fromAt, fromTime] = [runs[before] ?? 0, heard[before] ?? sentence.time];
      const [toAt, toTime] = [runs[after] ?? text.length, heard[after] ?? until];
      const share = toAt > fromAt ? (at - fromAt) / (toAt - fromAt) : 0;
      return { at, time: Math.round(fromTime + (Math.max(fromTime, toTime) - fromTime) * share) };
    });
    const fits = (piece: string) =>
      piece.length <= CUE_LINES * (LINE_CHARACTERS + 1) &&
      (lines(piece)?.length ?? CUE_LINES + 1) <= CUE_LINES;
    const pieces: { text: string; time: number }[] = [];
    let first = 0;
    while (first < words.length) {
      const from = words[first]?.at ?? 0;
      const rest = text.slice(from).trim();
      if (fits(rest)) {
        pieces.push({ text: rest, time: words[first]?.time ?? sentence.time });
        break;
      }
      let cut = first + 1;
      let clause = -1;
      for (let k = first + 1; k < words.length; k++) {
        const piece = text.slice(from, words[k]?.at).trim();
        if (!fits(piece)) break;
        cut = k;
        if (CLAUSE_END.test(piece) && piece.length >= LINE_CHARACTERS / 2) clause = k;
      }
      const stop = clause > 0 ? clause : cut;
      pieces.push({
        text: text.slice(from, words[stop]?.at).trim(),
        time: words[first]?.time ?? sentence.time,
      });
      first = stop;
    }
    pieces.forEach((piece, i) => {
      list.push({
        from: i === 0 ? sentence.time : piece.time,
        to: pieces[i + 1]?.time ?? until,
        lines: cueLines(piece.text),
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
 * Subtitles of a rendering from its speech marks: WebVTT (W3C) or SRT, each sentence's text in
 * cues of at most two lines of 42 characters (`cues`), each shown until the next begins.
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
          `${i + 1}\n${timestamp(cue.from, ',')} --> ${timestamp(cue.to, ',')}\n${cue.lines.join('\n')}\n`,
      )
      .join('\n');
  }
  // "-->" cannot appear in a cue's text; "&" and "<" are escaped (WebVTT cue text).
  const cueText = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('-->', '--&gt;');
  return `WEBVTT\n\n${list
    .map(
      (cue) =>
        `${timestamp(cue.from, '.')} --> ${timestamp(cue.to, '.')}\n${cue.lines.map(cueText).join('\n')}\n`,
    )
    .join('\n')}`;
}
