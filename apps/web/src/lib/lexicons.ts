import {
  type Lexicon,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconInput,
  type LexiconList,
  LexiconListSchema,
  type LexiconRenameInput,
  LexiconSchema,
  MessageResponseSchema,
  PLS_MEDIA_TYPE,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The user's pronunciation lexicons (issue 32), shared by the convertor (its Pronunciation
 * dialog and the marks of the words they change) and the Pronunciations page: the calls of
 * /api/lexicons and how an entry joins a lexicon.
 */
export const LEXICONS_KEY = ['lexicons'] as const;

const path = (name: string) => `/lexicons/${encodeURIComponent(name)}`;

/** GET /lexicons: the user's lexicons and their plan's limits (signed-in users only). */
export function lexiconsQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: [...LEXICONS_KEY, 'list', token],
    queryFn: ({ signal }): Promise<LexiconList> =>
      api.get('/lexicons', { schema: LexiconListSchema, signal }),
    enabled: Boolean(token),
  });
}

/** GET /lexicons/{name}: one lexicon with its entries. */
export function getLexicon(name: string, signal?: AbortSignal): Promise<Lexicon> {
  return api.get(path(name), { schema: LexiconSchema, ...(signal && { signal }) });
}

export function lexiconQueryOptions(name: string, token: string | undefined) {
  return queryOptions({
    queryKey: [...LEXICONS_KEY, 'one', name, token],
    queryFn: ({ signal }) => getLexicon(name, signal),
    enabled: Boolean(token),
  });
}

/** What PUT /lexicons/{name} takes to keep a lexicon as it is. */
export function inputOf(lexicon: Lexicon): LexiconInput {
  return { language: lexicon.language, default: lexicon.default, entries: lexicon.entries };
}

/** Two graphemes the server would take for the same word under the entry's case rule. */
function sameWord(a: LexiconEntryInput, b: LexiconEntryInput): boolean {
  if (Boolean(a.case_sensitive) !== Boolean(b.case_sensitive)) return false;
  const x = a.grapheme.trim();
  const y = b.grapheme.trim();
  return a.case_sensitive ? x === y : x.toLocaleLowerCase() === y.toLocaleLowerCase();
}

/** The entries with `entry` in place of the one for the same word, or added at the end. */
export function withEntry(
  entries: readonly LexiconEntryInput[],
  entry: LexiconEntryInput,
): LexiconEntryInput[] {
  const at = entries.findIndex((existing) => sameWord(existing, entry));
  return at === -1 ? [...entries, entry] : entries.map((old, i) => (i === at ? entry : old));
}

/** PUT /lexicons/{name} as JSON: creates or replaces the lexicon whole. */
export function putLexicon(name: string, input: LexiconInput): Promise<Lexicon> {
  return api.put(path(name), input, { schema: LexiconSchema });
}

/** PUT /lexicons/{name} with a PLS file (the server reads and checks it). */
export function importPls(name: string, file: Blob, asDefault?: boolean): Promise<Lexicon> {
  return api.put(path(name), new Blob([file], { type: PLS_MEDIA_TYPE }), {
    schema: LexiconSchema,
    headers: { 'Content-Type': PLS_MEDIA_TYPE },
    ...(asDefault !== undefined && { query: { default: asDefault } }),
  });
}

/** GET /lexicons/{name}?format=pls: the lexicon as a W3C PLS 1.0 file. */
export function exportPls(name: string): Promise<string> {
  return api.get(path(name), { query: { format: 'pls' }, responseType: 'text' });
}

/**
 * POST /lexicons/{name}/rename: one step on the server (a copy then a delete would be refused
 * at a FREE plan's one lexicon, and could leave both).
 */
export function renameLexicon(from: string, to: string): Promise<Lexicon> {
  const input: LexiconRenameInput = { name: to };
  return api.post(`${path(from)}/rename`, input, { schema: LexiconSchema });
}

/** DELETE /lexicons/{name}. */
export function deleteLexicon(name: string) {
  return api.delete(path(name), { schema: MessageResponseSchema });
}

/**
 * One entry saved into a lexicon, new (`language` given) or existing: an existing lexicon is
 * read and written back whole with the entry in place of the one for the same word (PUT
 * replaces a lexicon). `asDefault`: whether conversions that name no lexicon apply it.
 */
export async function saveEntry(
  name: string,
  entry: LexiconEntryInput,
  language: string | null,
  asDefault: boolean,
): Promise<Lexicon> {
  if (language) return putLexicon(name, { language, default: asDefault, entries: [entry] });
  const lexicon = await getLexicon(name);
  return putLexicon(name, {
    ...inputOf(lexicon),
    default: asDefault,
    entries: withEntry(lexicon.entries, entry),
  });
}

/** Any change to lexicons: every lexicon query is asked again (lists, entries, marks). */
export function useLexiconMutation<A, R>(run: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEXICONS_KEY }),
  });
}

/** How an entry sounds, as a short text: the alias, or the phoneme string between slashes. */
export function soundOf(entry: Pick<LexiconEntry, 'alias' | 'phoneme'>): string {
  return entry.alias ?? `/${entry.phoneme ?? ''}/`;
}
