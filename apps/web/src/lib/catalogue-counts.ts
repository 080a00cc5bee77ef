import type { VoicesResponse } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { voicesQueryOptions } from './get-voices';

export interface CatalogueCounts {
  voices: number;
  languages: number;
  /** Natural (neural) voices: while there are none the site claims no natural speech (issue 29). */
  natural: number;
}

/** The counts of a voice list: its languages, and the voices of all of them. */
function countCatalogue(languages: VoicesResponse): CatalogueCounts {
  return {
    languages: languages.length,
    voices: languages.reduce((sum, language) => sum + language.voices.length, 0),
    natural: languages.reduce(
      (sum, language) => sum + language.voices.filter((voice) => voice.engine === 'neural').length,
      0,
    ),
  };
}

/**
 * How many voices and languages the product really has (issue 18 item 6: never a claimed
 * number). THE one place the pages take their counts from (pricing cards, footer): today it
 * counts GET /convertor/voices, read through the convertor's own query (one request for both);
 * when the API answers the catalogue's own counts, only this function changes.
 */
export function useCatalogueCounts() {
  return useQuery({ ...voicesQueryOptions(), select: countCatalogue });
}
