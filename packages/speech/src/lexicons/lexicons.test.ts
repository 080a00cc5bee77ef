import type { LexiconEntryInput } from '@parla/contract';
import { LexiconEntrySchema } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../test/audio.js';
import { type FakeAzure, startFakeAzure } from '../../test/providers/azure-server.js';
import { type FakePolly, startFakePolly } from '../../test/providers/polly-server.js';
import { request } from '../../test/request.js';
import { nativeAvailable } from '../engines/espeak/backends.js';
import { SpeechError } from '../errors.js';
import { speechMarks } from '../marks.js';
import { synthesize } from '../synthesize.js';
import type { SpeechLexicon } from './apply.js';
import { parsePls, toPls } from './pls.js';

/**
 * Pronunciation lexicons (issue 32), heard: the lexicon stage's output is rendered and the
 * decoded audio compared with the same pronunciation written by hand.
 */

const lexicon = (
  name: string,
  entries: LexiconEntryInput[],
  language = 'en-US',
): SpeechLexicon => ({
  name,
  language,
  entries: entries.map((entry) => LexiconEntrySchema.parse(entry)),
});

const native = await nativeAvailable();
// The native program reads phonemes and renders the same text to the same samples each time.
const espeak = { espeak: { backend: native ? ('native' as const) : ('wasm' as const) } };

const render = (text: string, lexicons: SpeechLexicon[] = [], library: SpeechLexicon[] = []) =>
  synthesize({ ...request({ text }), lexicons, lexiconLibrary: library }, espeak);
const samples = async (
  text: string,
  lexicons: SpeechLexicon[] = [],
  library: SpeechLexicon[] = [],
) => decodeWav((await render(text, lexicons, library)).audio).samples;

/** The same audio: as long, and sample for sample within a hair (one rendering's noise). */
function same(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  let largest = 0;
  for (let i = 0; i < a.length; i++)
    largest = Math.max(largest, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return largest < 1e-3;
}

const NAMES = lexicon('Names', [{ grapheme: 'Nguyen', alias: 'win' }]);

describe.runIf(native)('lexicons heard through espeak-ng', () => {
  it('say a grapheme with an alias as the alias itself', async () => {
    const heard = await samples('I met Nguyen today.', [NAMES]);
    expect(same(heard, await samples('I met win today.'))).toBe(true);
    expect(same(heard, await samples('I met Nguyen today.'))).toBe(false);
    // Whole words, any case by default: "NGUYEN" too, "Nguyens" not.
    expect(same(await samples('I met NGUYEN today.', [NAMES]), heard)).toBe(true);
    expect(same(await samples('Nguyens', [NAMES]), await samples('Nguyens'))).toBe(true);
  });

  it('say an IPA entry as the same <phoneme> written by hand, and not as the letters', async () => {
    const tomato = lexicon('Tomato', [
      { grapheme: 'tomato', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa' },
    ]);
    const heard = await samples('A tomato, please.', [tomato]);
    expect(
      same(
        heard,
        await samples('A <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme>, please.'),
      ),
    ).toBe(true);
    expect(same(heard, await samples('A tomato, please.'))).toBe(false);
    // X-SAMPA says the same.
    const sampa = lexicon('Sampa', [
      { grapheme: 'tomato', phoneme: 't@"mA:toU', alphabet: 'x-sampa' },
    ]);
    expect(same(await samples('A tomato, please.', [sampa]), heard)).toBe(true);
  });

  it('take the first lexicon that has the word, in the order given', async () => {
    const other = lexicon('Other', [{ grapheme: 'Nguyen', alias: 'new yen' }]);
    const text = 'I met Nguyen today.';
    expect(same(await samples(text, [NAMES, other]), await samples('I met win today.'))).toBe(true);
    expect(same(await samples(text, [other, NAMES]), await samples('I met new yen today.'))).toBe(
      true,
    );
  });

  it('keep the word marks on the words as written', async () => {
    const text = 'I met Nguyen today.';
    const result = await render(text, [NAMES]);
    const words = speechMarks(text, result.marks).filter((mark) => mark.type === 'word');
    expect(words.map((mark) => text.slice(mark.start, mark.end))).toEqual([
      'I',
      'met',
      'Nguyen',
      'today',
    ]);
    expect(words.map((mark) => mark.value)).toEqual(['I', 'met', 'Nguyen', 'today']);
  });

  it('apply an SSML <lexicon uri> to the document, and its <lookup> before the others', async () => {
    const other = lexicon('Other', [{ grapheme: 'Nguyen', alias: 'new yen' }]);
    const declared =
      '<speak><lexicon uri="https://parla.example/api/lexicons/Other" xml:id="o"/>I met Nguyen today.</speak>';
    expect(same(await samples(declared, [], [other]), await samples('I met new yen today.'))).toBe(
      true,
    );
    const lookup =
      '<speak><lexicon uri="Other" xml:id="o"/>I met <lookup ref="o">Nguyen</lookup> today.</speak>';
    expect(
      same(await samples(lookup, [NAMES], [other]), await samples('I met new yen today.')),
    ).toBe(true);
    // A uri naming none of the caller's lexicons is the caller's mistake, where it was written.
    await expect(render('<speak><lexicon uri="Missing" xml:id="m"/>Hi</speak>')).rejects.toThrow(
      '1:8: <lexicon uri="Missing"> names none of your lexicons',
    );
  });

  it('leave text alone in another language and in <say-as>', async () => {
    const french = lexicon('French', [{ grapheme: 'Nguyen', alias: 'win' }], 'fr-FR');
    expect(same(await samples('I met Nguyen.', [french]), await samples('I met Nguyen.'))).toBe(
      true,
    );
    const spelled = '<say-as interpret-as="characters">Nguyen</say-as>';
    expect(same(await samples(spelled, [NAMES]), await samples(spelled))).toBe(true);
  });
});

describe('lexicons on engines that cannot read phonemes', () => {
  it('read the word and say why', async () => {
    const tomato = lexicon('Tomato', [{ grapheme: 'tomato', phoneme: 'təˈmɑːtoʊ' }]);
    const result = await synthesize(
      { ...request({ text: 'A tomato.' }), lexicons: [tomato] },
      { espeak: { backend: 'wasm' } },
    );
    expect(result.warnings.map((warning) => warning.code)).toEqual(['phoneme_not_spoken']);
    expect(result.warnings[0]?.message).toContain('"tomato" is read instead');
  });

  it('read the word with a warning when the phonemes have symbols Parla lacks', async () => {
    const odd = lexicon('Odd', [{ grapheme: 'tomato', phoneme: 'ǂǂ' }]);
    const result = await render('A tomato.', [odd]);
    expect(result.warnings).toEqual([
      {
        code: 'phoneme_not_spoken',
        message:
          'lexicon Odd: the ipa "ǂǂ" of "tomato" has symbols Parla cannot say; "tomato" is read',
        line: 1,
        column: expect.any(Number),
      },
    ]);
  });
});

describe('lexicons on Amazon Polly', () => {
  let polly: FakePolly;
  beforeAll(async () => {
    polly = await startFakePolly();
  });
  afterAll(() => polly.close());

  it('send a phoneme entry as inline <phoneme> and an alias as its text, which Polly accepts', async () => {
    const entries = lexicon('Mixed', [
      { grapheme: 'tomato', phoneme: 't@"mA:toU', alphabet: 'x-sampa' },
      { grapheme: 'Nguyen', alias: 'win' },
    ]);
    const result = await synthesize(
      {
        ...request({
          engine: 'neural',
          voice_id: 'neural:polly:Joanna',
          text: 'Nguyen likes a tomato.',
          output_format: 'wav',
        }),
        lexicons: [entries],
      },
      {
        espeak: { backend: 'wasm' },
        polly: { region: polly.region, endpoint: `${polly.url}/`, credentials: polly.credentials },
      },
    );
    const sent = polly.calls.filter((call) => call.operation === 'SynthesizeSpeech');
    expect(sent.length).toBeGreaterThan(0);
    for (const call of sent) {
      expect(call.status).toBe(200);
      expect(call.body?.Text).toContain(
        'win likes a <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme>.',
      );
    }
    expect(result.warnings).toEqual([]);
    expect(decodeWav(result.audio).samples.length).toBeGreaterThan(0);
  });
});

describe('lexicons on Azure Speech', () => {
  let azure: FakeAzure;
  beforeAll(async () => {
    azure = await startFakeAzure();
  });
  afterAll(() => azure.close());

  it('send a phoneme entry as <phoneme alphabet="ipa">, X-SAMPA converted', async () => {
    const entries = lexicon('Sampa', [
      { grapheme: 'tomato', phoneme: 't@"mA:toU', alphabet: 'x-sampa' },
    ]);
    const result = await synthesize(
      {
        ...request({
          engine: 'neural',
          voice_id: 'neural:azure:en-US-JennyNeural',
          text: 'A tomato.',
          output_format: 'wav',
        }),
        lexicons: [entries],
      },
      {
        espeak: { backend: 'wasm' },
        azure: { key: azure.key, region: 'westeurope', endpoint: azure.url },
      },
    );
    const sent = azure.calls.filter((call) => call.ssml);
    expect(sent.length).toBeGreaterThan(0);
    for (const call of sent) {
      expect(call.ssml).toContain('<phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme>');
    }
    expect(result.warnings).toEqual([]);
    expect(decodeWav(result.audio).samples.length).toBeGreaterThan(0);
  });
});

describe('PLS files', () => {
  const entries = [
    { grapheme: 'W3C', alias: 'World Wide Web Consortium' },
    { grapheme: 'tomato', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa' as const },
    { grapheme: 'Nguyen', phoneme: 'N\\wIn', alphabet: 'x-sampa' as const, case_sensitive: true },
    { grapheme: 'café & co', alias: 'cafe <and> co', whole_word: false, language: 'fr' },
  ].map((entry) => LexiconEntrySchema.parse(entry));

  it('written and read again are the same file and the same entries', () => {
    const file = toPls({ language: 'en-US', entries });
    const read = parsePls(file);
    expect(read).toEqual({ language: 'en-US', entries });
    expect(toPls(read)).toBe(file);
  });

  it("read Polly's and ElevenLabs' files: several graphemes, the preferred pronunciation", () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0"
      xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xsi:schemaLocation="http://www.w3.org/2005/01/pronunciation-lexicon
        http://www.w3.org/TR/2007/CR-pronunciation-lexicon-20071212/pls.xsd"
      alphabet="ipa" xml:lang="en-US">
  <metadata><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Names</dc:title></metadata>
  <lexeme>
    <grapheme>Nguyen</grapheme>
    <grapheme>Nguyễn</grapheme>
    <phoneme>ŋwɪn</phoneme>
    <phoneme prefer="true">wɪn</phoneme>
    <example>Mr Nguyen called.</example>
  </lexeme>
  <lexeme><grapheme>AWS</grapheme><alias>Amazon Web Services</alias></lexeme>
</lexicon>`;
    const read = parsePls(file);
    expect(read.language).toBe('en-US');
    expect(read.entries.map((entry) => [entry.grapheme, entry.phoneme ?? entry.alias])).toEqual([
      ['Nguyen', 'wɪn'],
      ['Nguyễn', 'wɪn'],
      ['AWS', 'Amazon Web Services'],
    ]);
  });

  it('that are wrong are refused with the line and column of the mistake', () => {
    const refusal = (file: string) => {
      try {
        parsePls(file);
      } catch (error) {
        expect(error).toBeInstanceOf(SpeechError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const head =
      '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">';
    expect(refusal(`${head}\n<lexeme><grapheme>a</grapheme></lexeme></lexicon>`)).toBe(
      'The PLS file is not valid at 2:1: <lexeme> needs a <phoneme> or an <alias>.',
    );
    expect(refusal(`${head}\n  <lexeme><grapheme>a</grapheme><alias>b</alias></lexicon>`)).toMatch(
      /^The PLS file is not valid at 2:\d+: /,
    );
    expect(refusal('<speak>hi</speak>')).toBe(
      'The PLS file is not valid at 1:1: the file must start with <lexicon>, not <speak>.',
    );
    expect(
      refusal(head.replace('alphabet="ipa"', 'alphabet="cmu-arpabet"').concat('</lexicon>')),
    ).toBe(
      'The PLS file is not valid at 1:1: the alphabet "cmu-arpabet" is not one of ipa, x-sampa.',
    );
    expect(
      refusal(
        `${head}<lexeme><grapheme>a</grapheme><alias>${'b'.repeat(101)}</alias></lexeme></lexicon>`,
      ),
    ).toBe(`The PLS file is not valid at 1:${head.length + 1}: alias is at most 100 characters.`);
    expect(refusal(`<!DOCTYPE x>${head}</lexicon>`)).toMatch(/DOCTYPE is not allowed/);
    expect(refusal(`${head}${' '.repeat(40_000)}</lexicon>`)).toMatch(
      /^A PLS file is at most 40000 characters; this one has 40\d+\.$/,
    );
  });
});
