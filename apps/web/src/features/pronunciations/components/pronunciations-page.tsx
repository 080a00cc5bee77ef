import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { LEXICON_LIMITS, LexiconNameSchema } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useFormat } from '../../../hooks/use-format';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { ApiError } from '../../../lib/api-client';
import { useToken } from '../../../lib/auth';
import {
  importPls,
  lexiconsQueryOptions,
  putLexicon,
  useLexiconMutation,
} from '../../../lib/lexicons';
import { LexiconCard } from './lexicon-card';

/** Where a server message of the new-lexicon form belongs. */
function fieldOf(error: ApiError | null): 'name' | 'language' | 'file' | 'form' | null {
  if (!error) return null;
  const path = error.fields[0]?.path ?? '';
  if (/lexicon name/i.test(error.message) || path === 'name') return 'name';
  if (path === 'language' || /^language /.test(error.message)) return 'language';
  if (/PLS file/.test(error.message)) return 'file';
  return 'form';
}

/** A new lexicon: empty, or read from a PLS file (Polly's and ElevenLabs' format). */
function NewLexicon({ language }: { language: string }) {
  const { t } = useLexiconWords();
  const [name, setName] = useState('');
  const [code, setCode] = useState(language);
  const [asDefault, setAsDefault] = useState(true);
  // A plain file input rather than Mantine's FileButton, which the convertor's first load
  // carries: shared with this page, it would become a chunk of its own there.
  const fileInput = useRef<HTMLInputElement>(null);
  const create = useLexiconMutation((file: File | null) =>
    file
      ? importPls(name, file, asDefault)
      : putLexicon(name, { language: code, default: asDefault, entries: [] }),
  );
  const error = create.error instanceof ApiError ? create.error : null;
  const where = fieldOf(error);
  const nameCheck = name === '' ? null : LexiconNameSchema.safeParse(name);
  const nameError =
    (where === 'name' ? error?.message : undefined) ??
    (nameCheck && !nameCheck.success ? nameCheck.error.issues[0]?.message : undefined);
  const ready = name !== '' && !nameError;
  const reset = () => create.reset();

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="new-lexicon-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) create.mutate(null);
        }}
      >
        <Stack gap="sm">
          <Title order={2} fz="lg" id="new-lexicon-title">
            {t('page.new')}
          </Title>
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label={t('page.name')}
              description={t('dialog.newNameHint', { max: LEXICON_LIMITS.nameLength })}
              value={name}
              onChange={(event) => {
                reset();
                setName(event.currentTarget.value);
              }}
              error={nameError}
              dir="ltr"
              required
            />
            <TextInput
              label={t('page.language')}
              description={t('page.languageHint')}
              value={code}
              onChange={(event) => {
                reset();
                setCode(event.currentTarget.value);
              }}
              error={where === 'language' ? error?.message : undefined}
              dir="ltr"
            />
          </Group>
          <Checkbox
            label={t('dialog.asDefault')}
            checked={asDefault}
            onChange={(event) => setAsDefault(event.currentTarget.checked)}
          />
          {where === 'file' && (
            <Alert color="red" variant="light" role="alert" p="xs" title={t('page.importFailed')}>
              {error?.message}
            </Alert>
          )}
          {where === 'form' && (
            <Alert color="red" variant="light" role="alert" p="xs">
              {error?.message}
            </Alert>
          )}
          {create.isSuccess && (
            <Alert color="green" variant="light" role="status" p="xs">
              {t('page.created', { name: create.data.name })}
            </Alert>
          )}
          <Group gap="sm" wrap="wrap">
            <Button
              type="submit"
              mih={44}
              loading={create.isPending && create.variables === null}
              disabled={!ready}
            >
              {t('page.create')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept=".pls,.xml,application/pls+xml,application/xml,text/xml"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file && ready) create.mutate(file);
              }}
            />
            <Button
              variant="default"
              mih={44}
              disabled={!ready}
              loading={create.isPending && create.variables !== null}
              onClick={() => fileInput.current?.click()}
            >
              {t('page.import')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('page.importHint', { max: LEXICON_LIMITS.fileCharacters })}
          </Text>
        </Stack>
      </form>
    </Card>
  );
}

/**
 * The Pronunciations page (issue 32, item 3; signed-in users): the user's lexicons, each with
 * its entries to edit, a PLS download, renaming and deleting, and a new lexicon, empty or
 * imported from a PLS file.
 */
export function PronunciationsPage({ language }: { language: string }) {
  const { t } = useLexiconWords();
  const { number } = useFormat();
  const token = useToken();
  const list = useQuery(lexiconsQueryOptions(token));
  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="lexicons-title">
        <Title order={2} fz="xl" id="lexicons-title">
          {t('page.yours')}
        </Title>
        {list.data && (
          <Text size="sm" c="dimmed">
            {t('page.count', {
              count: list.data.lexicons.length,
              used: number(list.data.lexicons.length),
              max: number(list.data.limits.lexicons),
              entries: number(list.data.limits.entries),
            })}
          </Text>
        )}
        {list.isPending ? (
          <Stack gap="sm">
            <Skeleton h={96} />
            <Skeleton h={96} />
          </Stack>
        ) : list.error ? (
          <Alert color="red" variant="light" role="alert">
            {list.error.message}
          </Alert>
        ) : list.data.lexicons.length === 0 ? (
          <Text c="dimmed">{t('page.none')}</Text>
        ) : (
          list.data.lexicons.map((lexicon) => <LexiconCard key={lexicon.name} lexicon={lexicon} />)
        )}
      </Stack>
      <NewLexicon language={language} />
    </Stack>
  );
}
