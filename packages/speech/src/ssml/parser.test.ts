import { describe, expect, it } from 'vitest';
import { SsmlError } from '../errors.js';
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
    expect(error('<speak><prosody speed="1">x</prosody></speak>').message).toMatch(
      /<prosody> has no attribute "speed"/,
    );
    expect(error('<speak><prosody rate="200%">x</prosody></speak>').message).toMatch(
      /outside -100% to 100%/,
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
