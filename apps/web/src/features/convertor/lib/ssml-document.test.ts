import { describe, expect, it } from 'vitest';
import { fromSsml, hasMarkup, type SsmlDocument, textToSend, toSsml } from './ssml-document';

const SAMPLES = [
  '',
  'Hello world.',
  'Line one\nLine two\n\nafter an empty line',
  'Tom &amp; Jerry &lt;3 and a > sign',
  '<prosody rate="slow">slowly</prosody> then <break time="500ms" /> a pause',
  '<emphasis level="strong"><prosody pitch="20%">nested</prosody></emphasis>',
  '<say-as interpret-as="date" format="mdy">1/2/2024</say-as>',
  '<speak>\n<p>A whole <sub alias="document">doc</sub></p>\n</speak>',
  'entities &quot; &apos; &#169; &gt; stay',
  'stray & ampersand and stray < bracket',
  '<!-- a comment\nover two lines --> after',
  "<effect name='whispered'>single quotes</effect>",
  'emoji 🎉 and accents éà',
];

describe('the Text <-> SSML mapping', () => {
  it.each(SAMPLES)('gives back any SSML byte for byte: %j', (ssml) => {
    expect(toSsml(fromSsml(ssml))).toBe(ssml);
  });

  it('gives back any document of the Text tab', () => {
    const documents: SsmlDocument[] = [
      [[{ type: 'text', text: 'a < b & c > d' }]],
      [
        [
          { type: 'tag', raw: '<prosody rate="fast">' },
          { type: 'text', text: 'quick &amp; typed' },
          { type: 'tag', raw: '</prosody>' },
        ],
        [],
        [{ type: 'tag', raw: '<break time="1s" />' }],
      ],
    ];
    for (const document of documents) expect(fromSsml(toSsml(document))).toEqual(document);
  });

  it('shows markup as chips and entities as the characters they stand for', () => {
    expect(fromSsml('x &amp; <break time="2s" />y&lt;z')).toEqual([
      [
        { type: 'text', text: 'x & ' },
        { type: 'tag', raw: '<break time="2s" />' },
        { type: 'text', text: 'y<z' },
      ],
    ]);
    expect(fromSsml('a\nb')).toEqual([
      [{ type: 'text', text: 'a' }],
      [{ type: 'text', text: 'b' }],
    ]);
  });

  it('sends plain text unescaped and markup as it is', () => {
    expect(hasMarkup('Tom &amp; Jerry')).toBe(false);
    expect(textToSend('Tom &amp; Jerry\nnext')).toBe('Tom & Jerry\nnext');
    const ssml = 'Tom &amp; <emphasis level="strong">Jerry</emphasis>';
    expect(textToSend(ssml)).toBe(ssml);
  });
});
