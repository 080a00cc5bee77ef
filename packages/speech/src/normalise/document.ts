import type { DocumentItem, SpeechDocument } from '../document.js';
import { normaliseSayAs } from './say-as.js';

/**
 * Replaces every say-as span by what is to be spoken: words, letters to spell, or a bleep.
 * `languageOf` answers the language an item is spoken in (its voice's, or its xml:lang).
 */
export async function normaliseDocument(
  document: SpeechDocument,
  languageOf: (item: DocumentItem) => Promise<string>,
): Promise<SpeechDocument> {
  const items: DocumentItem[] = [];
  for (const item of document.items) {
    if (item.kind !== 'text' || !item.sayAs) {
      items.push(item);
      continue;
    }
    const result = await normaliseSayAs(item.text, item.sayAs, await languageOf(item));
    const { sayAs: _sayAs, ...rest } = item;
    if (result.kind === 'bleep') {
      items.push({ kind: 'bleep', seconds: result.seconds, prosody: item.prosody });
    } else if (result.text !== '') {
      items.push({ ...rest, text: result.text, ...(result.kind === 'spell' && { spell: true }) });
    }
  }
  return { items };
}
