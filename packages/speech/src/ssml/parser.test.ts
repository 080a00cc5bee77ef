import { describe, expect, it } from 'vitest';
import { SsmlError } from '../errors.js';
import { formatWarning } from '../warnings.js';
import { parseSsml } from './parser.js';

function error(input: string): SsmlError {
  try {
    parseSsml(input);
  } catch (e) {
    if (e instanceof SsmlError) return e;
    throw e;
  }
  throw new Error('expected an SsmlError');
}

describe('parseSsml', () => {
  it('escapes plain text instead of reading it as markup', () => {
    const doc = parseSsml('1 < 2 & 3 > 2');
    expect(doc.items).toEqual([expect.objectContaining({ kind: 'text', text: '1 < 2 & 3 > 2' })]);
  });

  it('turns each new line into a 0.2 s break and adds adjacent breaks up', () => {
    const doc = parseSsml('one\ntwo\n\nthree');
    expect(doc.items.map((i) => (i.kind === 'break' ? i.seconds : i.kind))).toEqual([
      'text',
      0.2,
      'text',
      0.4,
      'text',
    ]);
  });

  it('reads an SSML fragment without <speak> and keeps its positions', () => {
    const e = error('Hi <break time="11s"/>');
    expect(e.line).toBe(1);
    expect(e.column).toBe(4);
    expect(e.message).toMatch(/at most 10 s/);
  });

  it('composes nested prosody', () => {
    const doc = parseSsml(
      '<speak><prosody rate="+100%" volume="-6dB"><prosody pitch="+20%" volume="x-loud">a</prosody></prosody></speak>',
    );
    const item = doc.items[0];
    expect(item?.kind === 'text' && item.prosody).toEqual({ rate: 2, pitch: 1, volume: 6 });
  });

  it('reads an unsigned percentage as a share of the default (SSML 1.1, Polly)', () => {
    const prosody = (attributes: string) => {
      const item = parseSsml(`<speak><prosody ${attributes}>a</prosody></speak>`).items[0];
      return item?.kind === 'text' ? item.prosody : undefined;
    };
    expect(prosody('rate="50%"')?.rate).toBe(0.5);
    expect(prosody('rate="200%"')?.rate).toBe(2);
    expect(prosody('rate="100%"')?.rate).toBe(1);
    expect(prosody('pitch="200%"')?.pitch).toBeCloseTo(12, 10);
    expect(prosody('pitch="50%"')?.pitch).toBeCloseTo(-12, 10);
    expect(prosody('volume="50%"')?.volume).toBeCloseTo(-6.02, 2);
    expect(prosody('volume="0%"')?.volume).toBe(-96);
    // Signed values are changes on the sliders' scale: +100 % doubles, +20 % is a semitone.
    expect(prosody('rate="+100%"')?.rate).toBe(2);
    expect(prosody('rate="-100%"')?.rate).toBe(0.5);
    expect(prosody('pitch="+20%"')?.pitch).toBe(1);
    expect(prosody('volume="-6dB"')?.volume).toBe(-6);
    expect(prosody('volume="+50%"')?.volume).toBe(10);
    expect(error('<speak><prosody rate="10%">x</prosody></speak>').reason).toBe(
      'rate "10%" is outside 20% to 400% of the default',
    );
    expect(error('<speak><prosody rate="+200%">x</prosody></speak>').reason).toBe(
      'rate "+200%" is outside -100% to +100%',
    );
  });

  it('reads CDATA as text and ignores comments and processing instructions', () => {
    const doc = parseSsml(
      '<?xml version="1.0"?><speak><!-- a note --><?tts-hint fast?>1 <![CDATA[< 2 & 3]]> ok</speak>',
    );
    expect(doc.items.map((i) => i.kind === 'text' && i.text)).toEqual(['1 ', '< 2 & 3', ' ok']);
    expect(doc.warnings).toEqual([]);
  });

  it('reads <lang>, <voice> by gender, languages and name, and <mark>', () => {
    const doc = parseSsml(
      '<speak>a<mark name="here"/><lang xml:lang="fr-FR">b</lang><voice gender="female">c</voice><voice languages="de-DE en-US" gender="male">d</voice><voice name="standard:es-es">e</voice></speak>',
    );
    expect(doc.items).toEqual([
      expect.objectContaining({ kind: 'text', text: 'a' }),
      { kind: 'mark', name: 'here' },
      expect.objectContaining({ text: 'b', language: 'fr-FR' }),
      expect.objectContaining({ text: 'c', gender: 'female' }),
      expect.objectContaining({ text: 'd', gender: 'male', language: 'de-DE' }),
      expect.objectContaining({ text: 'e', voice: 'standard:es-es' }),
    ]);
    expect(error('<speak><lang>x</lang></speak>').reason).toBe(
      '<lang> needs an xml:lang attribute',
    );
    expect(error('<speak><mark/></speak>').reason).toBe('<mark> needs a name attribute');
  });

  it('cuts a phoneme word longer than 40 phonemes into words of 40, stress marks not counted', () => {
    const [item] = parseSsml(
      `<speak><phoneme ph="ˈ${'tʃa'.repeat(45)} ta">x</phoneme></speak>`,
    ).items;
    const words = item?.kind === 'text' ? item.phonemes?.espeak.split(' ') : [];
    expect(words).toEqual([`'${'tSa'.repeat(20)}`, 'tSa'.repeat(20), 'tSa'.repeat(5), 'ta']);
  });

  it('converts <phoneme> to espeak-ng mnemonics, or keeps its text with a warning', () => {
    const doc = parseSsml(
      '<speak><phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> <phoneme alphabet="x-sampa" ph=\'t@"meItoU\'>tomato</phoneme> <phoneme alphabet="ipa" ph="ʘʘ">click</phoneme> <phoneme alphabet="x-amazon-pinyin" ph="bo2">博</phoneme></speak>',
    );
    const texts = doc.items.filter((i) => i.kind === 'text' && i.text.trim() !== '');
    expect(texts.map((i) => i.kind === 'text' && i.phonemes?.espeak)).toEqual([
      "t@'mA:toU",
      "t@'meItoU",
      undefined,
      undefined,
    ]);
    expect(texts.map((i) => i.kind === 'text' && i.text)).toEqual([
      'tomato',
      'tomato',
      'click',
      '博',
    ]);
    expect(doc.warnings.map(formatWarning)).toEqual([
      '1:124: the ipa "ʘʘ" has symbols Parla cannot say; its text is read',
      '1:172: phoneme alphabet "x-amazon-pinyin" is not ipa or x-sampa; its text is read',
    ]);
    expect(error('<speak><phoneme>x</phoneme></speak>').reason).toBe(
      '<phoneme> needs a ph attribute',
    );
  });

  it("maps Polly's extensions to effects, or ignores them with a warning", () => {
    const doc = parseSsml(
      '<speak><amazon:effect name="whispered">a</amazon:effect><amazon:effect phonation="soft">b</amazon:effect><amazon:auto-breaths>c</amazon:auto-breaths><amazon:breath duration="long"/><amazon:domain name="news">d</amazon:domain>\n<amazon:effect name="drc">e</amazon:effect><amazon:domain name="music">f</amazon:domain><prosody amazon:max-duration="2s">g</prosody></speak>',
    );
    const texts = doc.items.filter((i) => i.kind === 'text');
    expect(texts.map((i) => i.kind === 'text' && [i.text, i.effect])).toEqual([
      ['a', 'whispered'],
      ['b', 'soft'],
      ['c', 'breathing'],
      ['d', 'news'],
      ['e', undefined],
      ['f', undefined],
      ['g', undefined],
    ]);
    expect(doc.items.some((i) => i.kind === 'breath')).toBe(true);
    expect(doc.warnings.map(formatWarning)).toEqual([
      '2:1: <amazon:effect name="drc"> is ignored',
      '2:44: <amazon:domain name="music"> is ignored',
      '2:89: <prosody amazon:max-duration> is ignored',
    ]);
  });

  it("reads the text of other products' extensions, with a warning", () => {
    const doc = parseSsml(
      '<mstts:silence type="x">Hi <prosody rate="fast" mstts:x="1">there</prosody></mstts:silence>',
    );
    expect(doc.items.map((i) => i.kind === 'text' && i.text)).toEqual(['Hi ', 'there']);
    expect(doc.warnings.map(formatWarning)).toEqual([
      '1:1: <mstts:silence> is not supported; it is ignored and its text is read',
      '1:28: <prosody mstts:x> is not supported; it is ignored',
    ]);
    // Azure's speaking styles that are Parla effects.
    const styled = parseSsml(
      '<mstts:express-as style="cheerful">a</mstts:express-as><mstts:express-as style="whispering" styledegree="2">b</mstts:express-as><mstts:express-as style="poetry-reading">c</mstts:express-as>',
    );
    expect(styled.items.map((i) => i.kind === 'text' && i.effect)).toEqual([
      'happy',
      'whispered',
      undefined,
    ]);
    expect(styled.warnings.map(formatWarning)).toEqual([
      '1:56: <mstts:express-as styledegree> is ignored',
      '1:129: <mstts:express-as style="poetry-reading"> is ignored',
    ]);
  });

  it('refuses <audio> with a clear message and its position', () => {
    expect(error('<speak>Hi\n  <audio src="https://x/y.mp3">beep</audio></speak>').message).toBe(
      '2:3: <audio> is not supported: Parla does not play recorded sound; remove it and keep its text, if any, outside it',
    );
  });

  it('supports breaks, say-as, emphasis, sub, voice and effect', () => {
    const doc = parseSsml(
      '<speak><p><s>A<break time="300ms"/><break strength="strong"/></s></p><say-as interpret-as="cardinal">12</say-as><emphasis level="strong">b</emphasis><sub alias="World Wide Web">WWW</sub><voice name="standard:fr-fr">c</voice><effect name="whispered">d</effect></speak>',
    );
    const texts = doc.items.filter((i) => i.kind === 'text');
    expect(texts.map((t) => t.text)).toEqual(['A', '12', 'b', 'World Wide Web', 'c', 'd']);
    expect(doc.items.find((i) => i.kind === 'break')).toEqual({ kind: 'break', seconds: 1.3 });
    expect(texts[1]?.sayAs).toEqual({ interpretAs: 'cardinal' });
    expect(texts[2]?.emphasis).toBe('strong');
    expect(texts[4]?.voice).toBe('standard:fr-fr');
    expect(texts[5]?.effect).toBe('whispered');
  });

  it('says where an unclosed tag was opened', () => {
    const e = error('<speak>\n  <prosody rate="fast">words\n</speak>');
    expect(e.message).toMatch(/^3:\d+: <prosody> opened at 2:3 is not closed/);
    expect(error('<speak><prosody rate="fast">x').message).toBe(
      '1:8: <prosody> opened at 1:8 is not closed',
    );
  });

  it('names unknown tags, attributes and values', () => {
    expect(error('<speak><audio src="x"/></speak>').message).toMatch(/<audio> is not supported/);
    expect(error('<speak><blink>x</blink></speak>').message).toMatch(/<blink> is not supported/);
    expect(error('<speak><prosody speed="1">x</prosody></speak>').message).toMatch(
      /<prosody> has no attribute "speed"/,
    );
    expect(error('<speak><prosody rate="500%">x</prosody></speak>').message).toMatch(
      /outside 20% to 400% of the default/,
    );
    expect(error('<speak><say-as interpret-as="money">1</say-as></speak>').message).toMatch(
      /not one of date, time/,
    );
    expect(error('<speak><break time="2"/></speak>').message).toMatch(/s or ms/);
  });

  it('refuses a 10-minute break', () => {
    expect(error('<speak><break time="600s"/></speak>').reason).toBe(
      'a break is at most 10 s; this one is 600 s',
    );
  });

  it('refuses an entity bomb and an external entity without expanding anything', () => {
    const lol = '<!ENTITY lol "lol">';
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [${lol}${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><speak>&lol9;</speak>`;
    const started = performance.now();
    expect(error(bomb).message).toMatch(/DOCTYPE is not allowed/);
    // Expanding it would take gigabytes and minutes; refusing it takes next to nothing.
    expect(performance.now() - started).toBeLessThan(1000);
    const external =
      '<!DOCTYPE speak [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><speak>&xxe;</speak>';
    expect(error(external).message).toMatch(/DOCTYPE is not allowed/);
    expect(error('<speak>&xxe;</speak>').message).toMatch(/undefined entity/);
  });

  it('stops quickly at 10,000 nested tags', () => {
    const deep = `<speak>${'<s>'.repeat(10_000)}x${'</s>'.repeat(10_000)}</speak>`;
    const started = performance.now();
    expect(error(deep).message).toMatch(/nested more than 32 deep/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('bounds the length and the total silence', () => {
    expect(error('a'.repeat(200_001)).message).toMatch(/at most 200000/);
    expect(error(`<speak>${'<break time="10s"/>'.repeat(61)}</speak>`).message).toMatch(
      /more than 600 s of silence/,
    );
  });

  it('refuses text that is not valid Unicode', () => {
    expect(error('bad \uD800 text').message).toMatch(/not valid Unicode/);
  });
});
