import type { DocumentItem, SpeechDocument } from '../document.js';
import { SpeechError } from '../errors.js';
import { maxNormalisedCharacters } from '../ssml/limits.js';
import { normaliseSayAs } from './say-as.js';

/**
 * Replaces every say-as span by what is to be spoken: words, letters to spell, or a bleep.
 * `languageOf` answers the language an item is spoken in (its voice's, or its xml:lang).
 * Throws `limit_exceeded` as soon as the text to speak outgrows its bound (ssml/limits.ts).
 */
export async function normaliseDocument(
  document: SpeechDocument,
  languageOf: (item: DocumentItem) => Promise<string>,
): Promise<SpeechDocument> {
  const limit = maxNormalisedCharacters(document.sourceLength);
  let characters = 0;
  const count = (text: string) => {
    characters += text.length;
    if (characters > limit) {
      throw new SpeechError(
        'limit_exceeded',
        `Once its numbers and spelled words are written out, this text is more than ${limit} characters long, the most a text of ${document.sourceLength} characters may become; shorten it or spell out less.`,
      );
    }
  };
  const items: DocumentItem[] = [];
  for (const item of document.items) {
    if (item.kind !== 'text' || !item.sayAs) {
      if (item.kind === 'text') count(item.text);
      items.push(item);
      continue;
    }
    const result = await normaliseSayAs(item.text, item.sayAs, await languageOf(item));
    const { sayAs: _sayAs, ...rest } = item;
    if (result.kind === 'bleep') {
      items.push({ kind: 'bleep', seconds: result.seconds, prosody: item.prosody });
    } else if (result.text !== '') {
      count(result.text);
      items.push({ ...rest, text: result.text, ...(result.kind === 'spell' && { spell: true }) });
    }
  }
  return { ...document, items };
}
