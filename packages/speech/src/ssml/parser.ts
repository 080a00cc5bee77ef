import {
  EMPHASIS_LEVELS,
  type EmphasisLevel,
  NEWLINE_BREAK_SECONDS,
  SAY_AS_TYPES,
  type SayAsType,
  VOICE_EFFECTS,
  type VoiceEffect,
} from '@parla/contract';
import { SaxesParser, type SaxesTag } from 'saxes';
import type { DocumentItem, Prosody, SayAs, SpeechDocument } from '../document.js';
import { NEUTRAL_PROSODY } from '../document.js';
import { type SourcePosition, SsmlError } from '../errors.js';
import { SSML_LIMITS } from './limits.js';
import {
  BREAK_STRENGTH_SECONDS,
  parseBreakTime,
  parsePitch,
  parseRate,
  parseVolume,
} from './prosody-values.js';

/**
 * SSML parser for Parla's dialect (docs/ssml.md).
 *
 * saxes is a strict, non-validating XML parser: it never reads a DTD, so external entities
 * cannot be fetched and only the five predefined entities (plus character references) exist;
 * any other `&name;` is an error. We refuse a DOCTYPE outright, so an entity bomb fails at its
 * first line instead of being parsed at all. Nesting is tracked on an explicit stack with a
 * depth limit, so deep documents cannot overflow the call stack.
 */

const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  speak: ['version', 'xmlns', 'xml:lang', 'xmlns:xsi', 'xsi:schemaLocation'],
  p: ['xml:lang'],
  s: ['xml:lang'],
  break: ['time', 'strength'],
  prosody: ['rate', 'pitch', 'volume'],
  'say-as': ['interpret-as', 'format', 'detail'],
  emphasis: ['level'],
  sub: ['alias'],
  voice: ['name', 'language', 'xml:lang', 'gender'],
  effect: ['name'],
};

const SUPPORTED = Object.keys(ALLOWED_ATTRIBUTES);

/** Tags that, when seen in text without `<speak>`, mean the text is an SSML fragment. */
const FRAGMENT_HINT = /<\/?(?:speak|p|s|break|prosody|say-as|emphasis|sub|voice|effect)\b/;

interface Frame {
  name: string;
  start: SourcePosition;
  prosody: Prosody;
  voice?: string;
  language?: string;
  emphasis?: EmphasisLevel;
  effect?: VoiceEffect;
  sayAs?: SayAs;
  /** Inside `<sub alias>`: the alias is spoken, the content is not. */
  sub?: boolean;
}

export interface ParseOptions {
  /** Language of the request, used only for messages; normalisation happens later. */
  maxLength?: number;
}

/** True when the text should be read as SSML rather than escaped as plain text. */
export function looksLikeSsml(text: string): boolean {
  const start = text.trimStart();
  return isXmlDocument(start) || FRAGMENT_HINT.test(text);
}

function isXmlDocument(trimmed: string): boolean {
  return trimmed.startsWith('<speak') || trimmed.startsWith('<?xml') || trimmed.startsWith('<!');
}

/** Escapes the XML special characters of plain text. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * Parses plain text or SSML into a flat document. Plain text is escaped into `<speak>`; an
 * SSML fragment (tags without `<speak>`) is wrapped, and positions still refer to the text as
 * given. Throws SsmlError with line and column on every problem.
 */
export function parseSsml(input: string, options: ParseOptions = {}): SpeechDocument {
  const maxLength = options.maxLength ?? SSML_LIMITS.maxLength;
  if (input.length > maxLength) {
    throw new SsmlError(
      { line: 1, column: 1 },
      `the text is ${input.length} characters long; at most ${maxLength} are accepted`,
    );
  }
  if (!isWellFormed(input)) {
    throw new SsmlError({ line: 1, column: 1 }, 'the text is not valid Unicode');
  }
  const trimmed = input.trimStart();
  if (isXmlDocument(trimmed)) return parseXml(input, 0);
  if (FRAGMENT_HINT.test(input)) return parseXml(`<speak>${input}</speak>`, '<speak>'.length);
  return parseXml(`<speak>${escapeXml(input)}</speak>`, '<speak>'.length, true);
}

function parseXml(xml: string, firstLineShift: number, plain = false): SpeechDocument {
  const parser = new SaxesParser({ position: true });
  const items: DocumentItem[] = [];
  const stack: Frame[] = [];
  let totalBreak = 0;
  let sawRoot = false;
  let rootClosed = false;
  // Position of the `<` that opened the current tag, recorded at `opentagstart`.
  let tagStart: SourcePosition = { line: 1, column: 1 };
  // Frames saxes closed since the last other event: a mismatched close tag pops several.
  let recentlyClosed: Frame[] = [];

  const here = (): SourcePosition => position(parser.line, parser.column + 1, firstLineShift);
  const fail = (at: SourcePosition, reason: string): never => {
    throw new SsmlError(at, reason);
  };

  const addBreak = (seconds: number, at: SourcePosition) => {
    if (seconds > SSML_LIMITS.maxBreakSeconds) {
      fail(
        at,
        `a break is at most ${SSML_LIMITS.maxBreakSeconds} s; this one is ${formatSeconds(seconds)}`,
      );
    }
    totalBreak += seconds;
    if (totalBreak > SSML_LIMITS.maxTotalBreakSeconds) {
      fail(
        at,
        `the breaks of this text add up to more than ${SSML_LIMITS.maxTotalBreakSeconds} s of silence`,
      );
    }
    const last = items.at(-1);
    // Adjacent breaks add up (two new lines are 0.4 s), so keep one item.
    if (last?.kind === 'break') last.seconds += seconds;
    else if (seconds > 0) items.push({ kind: 'break', seconds });
  };

  parser.on('xmldecl', () => {
    // Accepted: `<?xml version="1.0"?>` carries nothing we need.
  });
  parser.on('doctype', () => {
    fail(here(), 'a DOCTYPE is not allowed in SSML (no DTDs, no custom entities)');
  });
  parser.on('processinginstruction', (pi) => {
    fail(here(), `processing instruction <?${pi.target}?> is not allowed`);
  });
  parser.on('opentagstart', (tag) => {
    // saxes is one character past the tag name here; step back over it and `<name`.
    const after = here();
    tagStart = { line: after.line, column: Math.max(1, after.column - tag.name.length - 2) };
  });
  parser.on('opentag', (tag: SaxesTag) => {
    recentlyClosed = [];
    const start = tagStart;
    const name = tag.name;
    const parent = stack.at(-1);
    if (!parent) {
      if (sawRoot) fail(start, 'only one <speak> element is allowed');
      if (name !== 'speak') fail(start, `the document must start with <speak>, not <${name}>`);
      sawRoot = true;
    }
    if (!ALLOWED_ATTRIBUTES[name]) {
      fail(
        start,
        `<${name}> is not supported; use one of ${SUPPORTED.map((t) => `<${t}>`).join(', ')}`,
      );
    }
    if (name === 'speak' && parent) fail(start, '<speak> cannot be nested');
    if (stack.length >= SSML_LIMITS.maxDepth) {
      fail(start, `elements are nested more than ${SSML_LIMITS.maxDepth} deep`);
    }
    if (parent?.sayAs || parent?.sub) {
      fail(start, `<${parent.sayAs ? 'say-as' : 'sub'}> may contain only text, not <${name}>`);
    }
    const attributes = tag.attributes as Record<string, string>;
    const allowed = ALLOWED_ATTRIBUTES[name] ?? [];
    for (const attribute of Object.keys(attributes)) {
      if (!allowed.includes(attribute)) {
        fail(
          start,
          allowed.length === 0
            ? `<${name}> takes no attributes (found ${attribute})`
            : `<${name}> has no attribute "${attribute}"; allowed: ${allowed.join(', ')}`,
        );
      }
    }
    const frame: Frame = {
      ...(parent ?? { prosody: NEUTRAL_PROSODY }),
      name,
      start,
      sayAs: undefined,
      sub: undefined,
    };
    const lang = attributes['xml:lang'];
    if (lang !== undefined) frame.language = lang;

    switch (name) {
      case 'p':
      case 's':
        items.push({ kind: 'boundary', level: name === 'p' ? 'paragraph' : 'sentence' });
        break;
      case 'break': {
        const { time, strength } = attributes;
        let seconds = 1; // SPEC §9: a pause without a value lasts 1 s.
        if (time !== undefined) {
          const parsed = parseBreakTime(time);
          if (!parsed.ok) fail(start, parsed.message);
          else seconds = parsed.value;
        } else if (strength !== undefined) {
          if (!(strength in BREAK_STRENGTH_SECONDS)) {
            fail(
              start,
              `break strength "${strength}" is not one of ${Object.keys(BREAK_STRENGTH_SECONDS).join(', ')}`,
            );
          }
          seconds = BREAK_STRENGTH_SECONDS[strength as keyof typeof BREAK_STRENGTH_SECONDS];
        }
        addBreak(seconds, start);
        break;
      }
      case 'prosody': {
        const { rate, pitch, volume } = attributes;
        if (rate === undefined && pitch === undefined && volume === undefined) {
          fail(start, '<prosody> needs a rate, pitch or volume attribute');
        }
        const prosody = { ...frame.prosody };
        for (const [value, parse, key] of [
          [rate, parseRate, 'rate'],
          [pitch, parsePitch, 'pitch'],
          [volume, parseVolume, 'volume'],
        ] as const) {
          if (value === undefined) continue;
          const parsed = parse(value.trim());
          if (!parsed.ok) fail(start, parsed.message);
          else if (key === 'rate') prosody.rate *= parsed.value;
          else prosody[key] += parsed.value;
        }
        frame.prosody = prosody;
        break;
      }
      case 'say-as': {
        const interpretAs = attributes['interpret-as'];
        if (interpretAs === undefined) fail(start, '<say-as> needs an interpret-as attribute');
        else if (!(SAY_AS_TYPES as readonly string[]).includes(interpretAs)) {
          fail(
            start,
            `say-as interpret-as "${interpretAs}" is not one of ${SAY_AS_TYPES.join(', ')}`,
          );
        } else {
          frame.sayAs = { interpretAs: interpretAs as SayAsType };
          if (attributes.format !== undefined) frame.sayAs.format = attributes.format;
          if (attributes.detail !== undefined) frame.sayAs.detail = attributes.detail;
        }
        break;
      }
      case 'emphasis': {
        const level = attributes.level ?? 'moderate';
        if (!(EMPHASIS_LEVELS as readonly string[]).includes(level)) {
          fail(start, `emphasis level "${level}" is not one of ${EMPHASIS_LEVELS.join(', ')}`);
        }
        frame.emphasis = level as EmphasisLevel;
        break;
      }
      case 'sub': {
        const alias = attributes.alias;
        if (alias === undefined) fail(start, '<sub> needs an alias attribute');
        else {
          pushText(alias, frame, start);
          frame.sub = true;
        }
        break;
      }
      case 'voice': {
        const { name: voiceName, language, gender } = attributes;
        if (voiceName === undefined && language === undefined && lang === undefined) {
          fail(start, '<voice> needs a name or language attribute');
        }
        if (gender !== undefined && !['male', 'female', 'neutral'].includes(gender)) {
          fail(start, `voice gender "${gender}" is not one of male, female, neutral`);
        }
        if (voiceName !== undefined) frame.voice = voiceName;
        else frame.voice = undefined;
        if (language !== undefined) frame.language = language;
        break;
      }
      case 'effect': {
        const effect = attributes.name;
        if (effect === undefined) fail(start, '<effect> needs a name attribute');
        else if (!(VOICE_EFFECTS as readonly string[]).includes(effect)) {
          fail(start, `effect "${effect}" is not one of ${VOICE_EFFECTS.join(', ')}`);
        } else frame.effect = effect as VoiceEffect;
        break;
      }
    }
    stack.push(frame);
  });
  parser.on('closetag', (tag) => {
    const frame = stack.pop();
    if (!frame) return; // saxes reports the mismatch itself.
    recentlyClosed.push(frame);
    if (tag.name === 'p' || tag.name === 's') {
      items.push({ kind: 'boundary', level: tag.name === 'p' ? 'paragraph' : 'sentence' });
    }
    if (stack.length === 0) rootClosed = true;
  });
  parser.on('text', (text) => {
    recentlyClosed = [];
    const frame = stack.at(-1);
    if (!frame) {
      if (text.trim() !== '') {
        fail(here(), rootClosed ? 'text after </speak>' : 'text before <speak>');
      }
      return;
    }
    if (frame.sub) return;
    // Whitespace between tags is layout (a pretty-printed document), not new lines to pause on.
    if (text.trim() === '') return;
    const at = here();
    // Each new line adds a break (SPEC §5); the text between new lines is spoken.
    const lines = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n').split('\n');
    lines.forEach((line, index) => {
      if (index > 0) addBreak(NEWLINE_BREAK_SECONDS, at);
      pushText(line, frame, at);
    });
  });
  parser.on('error', (error) => {
    throw translateSaxesError(error, recentlyClosed[0] ?? stack.at(-1), firstLineShift);
  });

  function pushText(text: string, frame: Frame, at: SourcePosition) {
    if (text.trim() === '') return;
    items.push({
      kind: 'text',
      text,
      prosody: frame.prosody,
      source: at,
      ...(frame.voice !== undefined && { voice: frame.voice }),
      ...(frame.language !== undefined && { language: frame.language }),
      ...(frame.emphasis !== undefined && { emphasis: frame.emphasis }),
      ...(frame.effect !== undefined && { effect: frame.effect }),
      ...(frame.sayAs !== undefined && { sayAs: frame.sayAs }),
    });
  }

  parser.write(xml);
  const open = stack.at(-1);
  if (open)
    fail(open.start, `<${open.name}> opened at ${formatPosition(open.start)} is not closed`);
  parser.close();
  if (!sawRoot) fail({ line: 1, column: 1 }, plain ? 'the text is empty' : 'no <speak> element');
  return { items };
}

function position(line: number, column: number, firstLineShift: number): SourcePosition {
  return { line, column: line === 1 ? Math.max(1, column - firstLineShift) : column };
}

function formatPosition(at: SourcePosition): string {
  return `${at.line}:${at.column}`;
}

function formatSeconds(seconds: number): string {
  return `${Number(seconds.toFixed(3))} s`;
}

/** saxes messages look like "1:15: unexpected close tag."; keep its position, reword a few. */
function translateSaxesError(
  error: Error,
  open: Frame | undefined,
  firstLineShift: number,
): SsmlError {
  const match = /^(\d+):(\d+): (.*)$/s.exec(error.message);
  if (!match) return new SsmlError({ line: 1, column: 1 }, error.message);
  const at = position(Number(match[1]), Number(match[2]), firstLineShift);
  let reason = (match[3] ?? '').replace(/\.$/, '');
  if (/unexpected close tag/.test(reason) && open) {
    reason = `<${open.name}> opened at ${formatPosition(open.start)} is not closed before this closing tag`;
  } else if (/undefined entity/i.test(reason) || /entity/i.test(reason)) {
    reason = `${reason} (only &amp; &lt; &gt; &quot; &apos; and character references are allowed)`;
  } else if (/disallowed character|unexpected|invalid/i.test(reason)) {
    reason = `${reason}; write & as &amp; and < as &lt; in text`;
  }
  return new SsmlError(at, reason);
}

/** No lone surrogates (ES2024 String#isWellFormed, which our ES2023 lib does not declare). */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
