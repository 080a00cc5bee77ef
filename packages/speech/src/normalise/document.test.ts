import { describe, expect, it } from 'vitest';
import { NEUTRAL_PROSODY } from '../document.js';
import { parseSsml } from '../ssml/parser.js';
import { normaliseDocument } from './document.js';

const english = async () => 'en-us';

describe('normaliseDocument', () => {
  it('writes say-as out and keeps the warnings and the source length', async () => {
    const document = parseSsml(
      '<speak><say-as interpret-as="cardinal">12</say-as><amazon:effect name="drc">x</amazon:effect></speak>',
    );
    const normalised = await normaliseDocument(document, english);
    expect(normalised.items[0]).toMatchObject({ kind: 'text', text: 'twelve' });
    expect(normalised.warnings).toEqual(document.warnings);
    expect(normalised.sourceLength).toBe(document.sourceLength);
  });

  it('refuses (limit_exceeded) a text that grows past eight times its length', async () => {
    const text = {
      kind: 'text' as const,
      prosody: NEUTRAL_PROSODY,
      source: { line: 1, column: 1 },
    };
    const small = {
      sourceLength: 1000,
      warnings: [],
      items: [{ ...text, text: 'a'.repeat(8000) }],
    };
    await expect(normaliseDocument(small, english)).resolves.toBeDefined();
    const grown = { ...small, items: [...small.items, { ...text, text: 'b' }] };
    await expect(normaliseDocument(grown, english)).rejects.toMatchObject({
      code: 'limit_exceeded',
      message:
        'Once its numbers and spelled words are written out, this text is more than 8000 characters long, the most a text of 1000 characters may become; shorten it or spell out less.',
    });
  });
});
