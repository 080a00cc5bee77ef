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
import type {
  DocumentItem,
  LexiconDeclaration,
  Phonemes,
  Prosody,
  SayAs,
  SpeechDocument,
  TextItem,
  VoiceGender,
} from '../document.js';
import { NEUTRAL_PROSODY } from '../document.js';
import { type SourcePosition, SsmlError } from '../errors.js';
import { type SpeechWarningCode, Warnings } from '../warnings.js';
import { AZURE_STYLE_EFFECTS } from './azure-styles.js';
import { SSML_LIMITS } from './limits.js';
import { toEspeakPhonemes, toIpa } from './phonemes.js';
import {
  BREAK_STRENGTH_SECONDS,
  parseBreakTime,
  parsePitch,
  parseRate,
  parseVolume,
} from './prosody-values.js';

/**
 * SSML parser: SSML 1.1 with Parla's `<effect>` and Amazon Polly's extensions (docs/ssml.md).
 *
 * saxes is a strict, non-validating XML parser: it never reads a DTD, so external entities
 * cannot be fetched and only the five predefined entities (plus character references) exist;
 * any other `&name;` is an error. We refuse a DOCTYPE outright, so an entity bomb fails at its
 * first line instead of being parsed at all. Nesting is tracked on an explicit stack with a
 * depth limit, so deep documents cannot overflow the call stack.
 */

const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  speak: [
    'version',
    'xmlns',
    'xml:lang',
    'xml:base',
    'xmlns:xsi',
    'xsi:schemaLocation',
    'xmlns:amazon',
    'xmlns:mstts',
  ],
  p: ['xml:lang'],
  s: ['xml:lang'],
  break: ['time', 'strength'],
  prosody: ['rate', 'pitch', 'volume', 'range', 'contour', 'duration', 'amazon:max-duration'],
  'say-as': ['interpret-as', 'format', 'detail'],
  emphasis: ['level'],
  sub: ['alias'],
  voice: ['name', 'language', 'languages', 'xml:lang', 'gender', 'age', 'variant'],
  lang: ['xml:lang'],
  phoneme: ['alphabet', 'ph'],
  mark: ['name'],
  token: ['xml:lang', 'role'],
  w: ['xml:lang', 'role'],
  meta: ['name', 'content', 'http-equiv'],
  metadata: [],
  effect: ['name'],
  'amazon:effect': ['name', 'phonation', 'vocal-tract-length'],
  'amazon:auto-breaths': ['volume', 'frequency', 'duration'],
  'amazon:breath': ['volume', 'duration'],
  'amazon:domain': ['name'],
  'mstts:express-as': ['style', 'styledegree', 'role'],
  // SSML 1.1 §3.1.4: a pronunciation lexicon, and the text to look up in it first.
  lexicon: ['uri', 'xml:id', 'type', 'fetchtimeout', 'maxage', 'maxstale'],
  lookup: ['ref'],
};

const SUPPORTED = Object.keys(ALLOWED_ATTRIBUTES);

/** Tags that, when seen in text without `<speak>`, mean the text is an SSML fragment. */
const FRAGMENT_HINT =
  /<\/?(?:speak|p|s|break|prosody|say-as|emphasis|sub|voice|lang|phoneme|mark|audio|effect|lexicon|lookup|[a-z]+:[\w-]+)\b/;

/** `interpret-as` values of other products that name one of ours. */
const SAY_AS_ALIASES: Record<string, SayAsType> = {
  number: 'cardinal',
  verbatim: 'characters',
  spell: 'spell-out',
};

/** Polly's `<amazon:domain>` styles that are one of our effects. */
const DOMAIN_EFFECTS: Record<string, VoiceEffect> = {
  news: 'news',
  conversational: 'conversational',
};

interface Frame {
  name: string;
  start: SourcePosition;
  prosody: Prosody;
  voice?: string;
  language?: string;
  gender?: VoiceGender;
  emphasis?: EmphasisLevel;
  effect?: VoiceEffect;
  sayAs?: SayAs;
  /** Inside `<sub alias>` (the alias is spoken) and `<metadata>`: the content is not. */
  silent?: boolean;
  /** Inside `<phoneme>`: its text, spoken once at the closing tag. */
  phoneme?: { phonemes: Phonemes | undefined; text: string; at: SourcePosition };
  markupAt?: TextItem['markupAt'];
  /** Inside `<lookup ref>`: the lexicon ids, innermost first. */
  lookup?: string[];
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
  const document = isXmlDocument(trimmed)
    ? parseXml(input, 0)
    : FRAGMENT_HINT.test(input)
      ? parseXml(`<speak>${input}</speak>`, '<speak>'.length)
      : parseXml(`<speak>${escapeXml(input)}</speak>`, '<speak>'.length, true);
  return { ...document, sourceLength: input.length };
}

function parseXml(
  xml: string,
  firstLineShift: number,
  plain = false,
): Omit<SpeechDocument, 'sourceLength'> {
  const parser = new SaxesParser({ position: true });
  const items: DocumentItem[] = [];
  const lexicons: LexiconDeclaration[] = [];
  const warnings = new Warnings();
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
  const warn = (at: SourcePosition, code: SpeechWarningCode, reason: string) => {
    warnings.add(code, reason, at);
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
  // Processing instructions are for the applications that know them (XML 1.0 §2.6): ignored,
  // as are comments (saxes drops those unless asked).
  parser.on('processinginstruction', () => {});
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
    if (stack.length >= SSML_LIMITS.maxDepth) {
      fail(start, `elements are nested more than ${SSML_LIMITS.maxDepth} deep`);
    }
    if (parent?.silent && parent.name !== 'sub') {
      // The inside of <metadata> (RDF, Dublin Core …) is not ours to read.
      stack.push({ ...parent, name, start });
      return;
    }
    if (name === 'speak' && parent) fail(start, '<speak> cannot be nested');
    if (name === 'audio') {
      fail(
        start,
        '<audio> is not supported: Parla does not play recorded sound; remove it and keep its text, if any, outside it',
      );
    }
    // Another product's extension (`mstts:silence`, `google:style`): elements of other
    // namespaces are ignored (SSML 1.1 leaves them to the processor); their text is read.
    const foreign = !ALLOWED_ATTRIBUTES[name] && name.includes(':');
    if (!ALLOWED_ATTRIBUTES[name] && !foreign) {
      fail(
        start,
        `<${name}> is not supported; use one of ${SUPPORTED.map((t) => `<${t}>`).join(', ')}`,
      );
    }
    if (parent?.sayAs || parent?.phoneme || (parent?.silent && parent.name === 'sub')) {
      fail(start, `<${parent.name}> may contain only text, not <${name}>`);
    }
    if (foreign && parent) {
      warn(
        start,
        'unsupported_element',
        `<${name}> is not supported; it is ignored and its text is read`,
      );
      stack.push({ ...parent, name, start });
      return;
    }
    const attributes = tag.attributes as Record<string, string>;
    const allowed = ALLOWED_ATTRIBUTES[name] ?? [];
    for (const attribute of Object.keys(attributes)) {
      // A namespace declaration (xmlns:amazon="…") is XML, not an SSML setting.
      if (attribute.startsWith('xmlns:')) continue;
      if (!allowed.includes(attribute) && attribute.includes(':')) {
        warn(
          start,
          'unsupported_attribute',
          `<${name} ${attribute}> is not supported; it is ignored`,
        );
      } else if (!allowed.includes(attribute)) {
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
      phoneme: undefined,
    };
    const lang = attributes['xml:lang'];
    if (lang !== undefined) frame.language = lang;
    const ignored = (what: string) => warn(start, 'ignored_markup', `${what} is ignored`);

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
        for (const other of ['range', 'contour', 'duration', 'amazon:max-duration']) {
          if (attributes[other] !== undefined) ignored(`<prosody ${other}>`);
        }
        if (rate === undefined && pitch === undefined && volume === undefined) {
          if (Object.keys(attributes).length === 0) {
            fail(start, '<prosody> needs a rate, pitch or volume attribute');
          }
          break;
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
        const given = attributes['interpret-as'];
        const interpretAs = given === undefined ? undefined : (SAY_AS_ALIASES[given] ?? given);
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
        if (level === 'none') {
          frame.emphasis = undefined;
          break;
        }
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
          frame.silent = true;
        }
        break;
      }
      case 'voice': {
        // SSML 1.1 §3.2.1: `languages` lists the languages the voice must speak; the first
        // one is the one it speaks here. `language` is Parla's older spelling.
        const { name: voiceName, gender, age, variant } = attributes;
        const language = attributes.languages?.trim().split(/\s+/)[0] ?? attributes.language;
        if (
          voiceName === undefined &&
          language === undefined &&
          lang === undefined &&
          gender === undefined
        ) {
          fail(start, '<voice> needs a name, languages or gender attribute');
        }
        if (gender !== undefined && !['male', 'female', 'neutral'].includes(gender)) {
          fail(start, `voice gender "${gender}" is not one of male, female, neutral`);
        }
        if (age !== undefined) ignored('<voice age>');
        if (variant !== undefined) ignored('<voice variant>');
        frame.voice = voiceName;
        if (language !== undefined) frame.language = language;
        if (gender !== undefined) frame.gender = gender as VoiceGender;
        else if (voiceName !== undefined) frame.gender = undefined;
        break;
      }
      case 'lang':
        if (lang === undefined) fail(start, '<lang> needs an xml:lang attribute');
        // The voice of the request speaks one language: another one takes another voice.
        frame.voice = undefined;
        break;
      case 'phoneme': {
        const { alphabet = 'ipa', ph } = attributes;
        if (ph === undefined) fail(start, '<phoneme> needs a ph attribute');
        let phonemes: Phonemes | undefined;
        if (alphabet !== 'ipa' && alphabet !== 'x-sampa') {
          warn(
            start,
            'phoneme_not_spoken',
            `phoneme alphabet "${alphabet}" is not ipa or x-sampa; its text is read`,
          );
        } else {
          const espeak = toEspeakPhonemes(alphabet, ph ?? '');
          if (espeak === undefined) {
            warn(
              start,
              'phoneme_not_spoken',
              `the ${alphabet} "${ph}" has symbols Parla cannot say; its text is read`,
            );
          } else {
            phonemes = {
              source: `alphabet="${alphabet}" ph="${ph}"`,
              espeak,
              ipa: toIpa(alphabet, ph ?? ''),
            };
          }
        }
        frame.phoneme = { phonemes, text: '', at: start };
        break;
      }
      case 'lexicon': {
        const { uri } = attributes;
        const id = attributes['xml:id'];
        if (parent?.name !== 'speak') fail(start, '<lexicon> must be a child of <speak>');
        if (uri === undefined || id === undefined) {
          fail(start, '<lexicon> needs a uri and an xml:id attribute');
        } else if (lexicons.some((lexicon) => lexicon.id === id)) {
          fail(start, `two <lexicon> elements have the xml:id "${id}"`);
        } else lexicons.push({ id, uri, at: start });
        break;
      }
      case 'lookup': {
        const { ref } = attributes;
        if (ref === undefined) fail(start, '<lookup> needs a ref attribute');
        else if (!lexicons.some((lexicon) => lexicon.id === ref)) {
          fail(start, `<lookup ref="${ref}"> names no <lexicon xml:id> declared before it`);
        } else frame.lookup = [ref, ...(parent?.lookup ?? [])];
        break;
      }
      case 'mark': {
        const markName = attributes.name;
        if (markName === undefined) fail(start, '<mark> needs a name attribute');
        else items.push({ kind: 'mark', name: markName });
        break;
      }
      case 'meta':
      case 'metadata':
        frame.silent = true;
        break;
      case 'amazon:effect': {
        const { name: effectName, phonation } = attributes;
        if (effectName === 'whispered') frame.effect = 'whispered';
        else if (effectName !== undefined) ignored(`<amazon:effect name="${effectName}">`);
        if (phonation === 'soft') frame.effect = 'soft';
        else if (phonation !== undefined) ignored(`<amazon:effect phonation="${phonation}">`);
        if (attributes['vocal-tract-length'] !== undefined) {
          ignored('<amazon:effect vocal-tract-length>');
        }
        break;
      }
      case 'amazon:auto-breaths':
        frame.effect = 'breathing';
        break;
      case 'amazon:breath':
        items.push({ kind: 'breath' });
        break;
      case 'mstts:express-as': {
        const style = AZURE_STYLE_EFFECTS[attributes.style ?? ''];
        if (style) frame.effect = style;
        else ignored(`<mstts:express-as style="${attributes.style ?? ''}">`);
        if (attributes.styledegree !== undefined) ignored('<mstts:express-as styledegree>');
        if (attributes.role !== undefined) ignored('<mstts:express-as role>');
        break;
      }
      case 'amazon:domain': {
        const domain = DOMAIN_EFFECTS[attributes.name ?? ''];
        if (domain) frame.effect = domain;
        else ignored(`<amazon:domain name="${attributes.name ?? ''}">`);
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
    // Where the voice, emphasis, effect and prosody of the text inside were set, for warnings.
    for (const key of ['voice', 'emphasis', 'effect', 'prosody'] as const) {
      if (frame[key] !== undefined && frame[key] !== parent?.[key]) {
        frame.markupAt = { ...frame.markupAt, [key]: start };
      }
    }
    stack.push(frame);
  });
  parser.on('closetag', (tag) => {
    const frame = stack.pop();
    if (!frame) return; // saxes reports the mismatch itself.
    recentlyClosed.push(frame);
    if (frame.phoneme) {
      // An empty <phoneme/> has no text to fall back to: it is heard only where phonemes are.
      const { phonemes, at } = frame.phoneme;
      const text = frame.phoneme.text.replace(/\s+/g, ' ').trim();
      if (text !== '' || phonemes) pushText(text, frame, at, phonemes);
    }
    if (tag.name === 'p' || tag.name === 's') {
      items.push({ kind: 'boundary', level: tag.name === 'p' ? 'paragraph' : 'sentence' });
    }
    if (stack.length === 0) rootClosed = true;
  });
  const onText = (text: string) => {
    recentlyClosed = [];
    const frame = stack.at(-1);
    if (!frame) {
      if (text.trim() !== '') {
        fail(here(), rootClosed ? 'text after </speak>' : 'text before <speak>');
      }
      return;
    }
    if (frame.silent) return;
    if (frame.phoneme) {
      frame.phoneme.text += text;
      return;
    }
    // Whitespace between tags is layout (a pretty-printed document), not new lines to pause on.
    if (text.trim() === '') return;
    const at = here();
    // Each new line adds a break (SPEC §5); the text between new lines is spoken.
    const lines = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n').split('\n');
    lines.forEach((line, index) => {
      if (index > 0) addBreak(NEWLINE_BREAK_SECONDS, at);
      pushText(line, frame, at);
    });
  };
  parser.on('text', onText);
  // CDATA is text that needs no escaping.
  parser.on('cdata', onText);
  parser.on('error', (error) => {
    throw translateSaxesError(error, recentlyClosed[0] ?? stack.at(-1), firstLineShift);
  });

  function pushText(text: string, frame: Frame, at: SourcePosition, phonemes?: Phonemes) {
    if (text.trim() === '' && !phonemes) return;
    items.push({
      kind: 'text',
      text,
      prosody: frame.prosody,
      source: at,
      ...(frame.voice !== undefined && { voice: frame.voice }),
      ...(frame.language !== undefined && { language: frame.language }),
      ...(frame.gender !== undefined && { gender: frame.gender }),
      ...(frame.emphasis !== undefined && { emphasis: frame.emphasis }),
      ...(frame.effect !== undefined && { effect: frame.effect }),
      ...(frame.sayAs !== undefined && { sayAs: frame.sayAs }),
      ...(phonemes !== undefined && { phonemes }),
      ...(frame.markupAt !== undefined && { markupAt: frame.markupAt }),
      ...(frame.lookup !== undefined && { lookup: frame.lookup }),
    });
  }

  parser.write(xml);
  const open = stack.at(-1);
  if (open)
    fail(open.start, `<${open.name}> opened at ${formatPosition(open.start)} is not closed`);
  parser.close();
  if (!sawRoot) fail({ line: 1, column: 1 }, plain ? 'the text is empty' : 'no <speak> element');
  return { items, warnings: warnings.list(), ...(lexicons.length > 0 && { lexicons }) };
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
