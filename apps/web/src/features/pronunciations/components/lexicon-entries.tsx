import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import {
  type Lexicon,
  type LexiconEntryInput,
  LexiconEntrySchema,
  PHONEME_ALPHABETS,
  type PhonemeAlphabet,
} from '@parla/contract';
import { useState } from 'react';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { ApiError } from '../../../lib/api-client';
import { inputOf, putLexicon, useLexiconMutation } from '../../../lib/lexicons';

/** One row of the table as edited: the sound is the alias or the phoneme string by `kind`. */
interface Row {
  key: number;
  grapheme: string;
  kind: 'alias' | 'phoneme';
  sound: string;
  alphabet: PhonemeAlphabet;
  language: string;
  case_sensitive: boolean;
  whole_word: boolean;
}

let nextKey = 0;

function rowOf(entry: Lexicon['entries'][number]): Row {
  nextKey += 1;
  return {
    key: nextKey,
    grapheme: entry.grapheme,
    kind: entry.alias === null ? 'phoneme' : 'alias',
    sound: entry.alias ?? entry.phoneme ?? '',
    alphabet: entry.alphabet ?? 'ipa',
    language: entry.language ?? '',
    case_sensitive: entry.case_sensitive,
    whole_word: entry.whole_word,
  };
}

/** The entry PUT /lexicons takes for a row. */
export function entryOf(row: Omit<Row, 'key'>): LexiconEntryInput {
  return {
    grapheme: row.grapheme,
    case_sensitive: row.case_sensitive,
    whole_word: row.whole_word,
    language: row.language.trim() === '' ? null : row.language.trim(),
    ...(row.kind === 'alias'
      ? { alias: row.sound, phoneme: null, alphabet: null }
      : { alias: null, phoneme: row.sound, alphabet: row.alphabet }),
  };
}

/** The field of a row a message is about ('grapheme', 'sound', 'alphabet', 'language'). */
function columnOf(field: string): string {
  return field === 'alias' || field === 'phoneme' ? 'sound' : field;
}

/** Each row's messages by column: the contract's checks here, or the server's by path. */
function rowErrors(rows: Row[], server: ApiError | null): Map<string, string> {
  const errors = new Map<string, string>();
  rows.forEach((row, index) => {
    const parsed = LexiconEntrySchema.safeParse(entryOf(row));
    for (const issue of parsed.error?.issues ?? []) {
      const column = columnOf(String(issue.path[0] ?? 'sound'));
      if (!errors.has(`${index}.${column}`)) errors.set(`${index}.${column}`, issue.message);
    }
  });
  for (const field of server?.fields ?? []) {
    const [head, index, name] = field.path.split('.');
    if (head === 'entries' && index !== undefined) {
      errors.set(`${index}.${columnOf(name ?? 'sound')}`, field.message);
    }
  }
  return errors;
}

/**
 * A lexicon's entries as a table to edit (issue 32, item 3): the word, how it is said (a
 * respelling or a phoneme string in its alphabet) and its language; saved whole with PUT.
 * Each field's message shows beside it, whether the contract's checks or the server found it.
 */
export function LexiconEntries({ lexicon }: { lexicon: Lexicon }) {
  const { t } = useLexiconWords();
  const [rows, setRows] = useState<Row[]>(() => lexicon.entries.map(rowOf));
  const [touched, setTouched] = useState(false);
  const save = useLexiconMutation((entries: LexiconEntryInput[]) =>
    putLexicon(lexicon.name, { ...inputOf(lexicon), entries }),
  );
  const server = save.error instanceof ApiError ? save.error : null;
  const errors = rowErrors(rows, server);
  const change = (key: number, patch: Partial<Row>) => {
    setTouched(true);
    save.reset();
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  };
  const add = () => {
    nextKey += 1;
    setRows((current) => [
      ...current,
      {
        key: nextKey,
        grapheme: '',
        kind: 'alias',
        sound: '',
        alphabet: 'ipa',
        language: '',
        case_sensitive: false,
        whole_word: true,
      },
    ]);
  };
  const shown = (index: number, column: string) =>
    touched || server ? errors.get(`${index}.${column}`) : undefined;
  // A message the server gave about no one field (too many entries, a repeated word…).
  const general = server?.fields.every((field) => !field.path.startsWith('entries.'));

  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('page.noEntries')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={680}>
          <Table verticalSpacing="xs" aria-label={t('page.entriesOf', { name: lexicon.name })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('page.grapheme')}</Table.Th>
                <Table.Th>{t('page.kind')}</Table.Th>
                <Table.Th>{t('page.sound')}</Table.Th>
                <Table.Th>{t('page.alphabet')}</Table.Th>
                <Table.Th>{t('page.language')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('page.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => {
                const word = row.grapheme || t('page.newEntry');
                return (
                  <Table.Tr key={row.key}>
                    <Table.Td>
                      <TextInput
                        aria-label={t('page.graphemeOf', { index: index + 1 })}
                        value={row.grapheme}
                        onChange={(event) =>
                          change(row.key, { grapheme: event.currentTarget.value })
                        }
                        error={shown(index, 'grapheme')}
                      />
                    </Table.Td>
                    <Table.Td>
                      <NativeSelect
                        aria-label={t('page.kindOf', { word })}
                        value={row.kind}
                        onChange={(event) =>
                          change(row.key, { kind: event.currentTarget.value as Row['kind'] })
                        }
                        data={[
                          { value: 'alias', label: t('dialog.respelling') },
                          { value: 'phoneme', label: t('page.phoneme') },
                        ]}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('page.soundOf', { word })}
                        value={row.sound}
                        onChange={(event) => change(row.key, { sound: event.currentTarget.value })}
                        error={shown(index, 'sound')}
                        {...(row.kind === 'phoneme' && { dir: 'ltr', lang: 'und-fonipa' })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <NativeSelect
                        aria-label={t('page.alphabetOf', { word })}
                        value={row.kind === 'alias' ? '' : row.alphabet}
                        disabled={row.kind === 'alias'}
                        onChange={(event) =>
                          change(row.key, {
                            alphabet: event.currentTarget.value as PhonemeAlphabet,
                          })
                        }
                        data={
                          row.kind === 'alias'
                            ? [{ value: '', label: '—' }]
                            : PHONEME_ALPHABETS.map((alphabet) => ({
                                value: alphabet,
                                label: alphabet === 'ipa' ? 'IPA' : 'X-SAMPA',
                              }))
                        }
                        error={shown(index, 'alphabet')}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('page.languageOf', { word })}
                        placeholder={lexicon.language}
                        value={row.language}
                        onChange={(event) =>
                          change(row.key, { language: event.currentTarget.value })
                        }
                        error={shown(index, 'language')}
                        dir="ltr"
                      />
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size={44}
                        aria-label={t('page.removeEntry', { word })}
                        onClick={() => {
                          setTouched(true);
                          save.reset();
                          setRows((current) => current.filter((other) => other.key !== row.key));
                        }}
                      >
                        ×
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {server && general && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {server.message}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert color="green" variant="light" role="status" p="xs">
          {t('page.saved', { name: lexicon.name })}
        </Alert>
      )}
      <Group gap="sm">
        <Button variant="default" onClick={add} mih={44}>
          {t('page.addEntry')}
        </Button>
        <Button
          mih={44}
          loading={save.isPending}
          onClick={() => {
            setTouched(true);
            if (errors.size === 0 || server) save.mutate(rows.map(entryOf));
          }}
        >
          {t('page.saveEntries')}
        </Button>
      </Group>
    </Stack>
  );
}
