import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { LexiconNameSchema, type LexiconSummary } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useFormat } from '../../../hooks/use-format';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { ApiError } from '../../../lib/api-client';
import { useToken } from '../../../lib/auth';
import {
  deleteLexicon,
  exportPls,
  lexiconQueryOptions,
  renameLexicon,
  useLexiconMutation,
} from '../../../lib/lexicons';
import { saveBlob } from '../../../lib/save-blob';
import { LexiconEntries } from './lexicon-entries';

/** A PLS file as a download. */
async function download(name: string) {
  const text = await exportPls(name);
  saveBlob(new Blob([text], { type: 'application/pls+xml' }), `${name}.pls`);
}

/**
 * One lexicon of the Pronunciations page: its name, language, entries and whether it applies
 * by default, with its entries to edit, a PLS download, renaming and deleting.
 */
export function LexiconCard({ lexicon }: { lexicon: LexiconSummary }) {
  const { t } = useLexiconWords();
  const { number } = useFormat();
  const token = useToken();
  const [editing, setEditing] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const full = useQuery({ ...lexiconQueryOptions(lexicon.name, token), enabled: editing });
  const exporting = useLexiconMutation(download);
  const renamer = useLexiconMutation((to: string) => renameLexicon(lexicon.name, to));
  const remover = useLexiconMutation(deleteLexicon);
  const nameError =
    renamer.error instanceof ApiError
      ? renamer.error.message
      : renaming !== null && renaming !== ''
        ? LexiconNameSchema.safeParse(renaming).error?.issues[0]?.message
        : undefined;

  return (
    <Card withBorder padding="md" component="article" aria-labelledby={`lexicon-${lexicon.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} fz="lg" id={`lexicon-${lexicon.name}`} dir="ltr">
            {lexicon.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light" color="gray">
              {lexicon.language}
            </Badge>
            {lexicon.default && <Badge variant="light">{t('page.byDefault')}</Badge>}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('page.entries', {
            count: lexicon.entries,
            formatted: number(lexicon.entries),
          })}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button
            variant={editing ? 'light' : 'default'}
            mih={44}
            aria-expanded={editing}
            onClick={() => setEditing((open) => !open)}
            aria-label={t('page.editLabel', { name: lexicon.name })}
          >
            {t('page.edit')}
          </Button>
          <Button
            variant="default"
            mih={44}
            loading={exporting.isPending}
            onClick={() => exporting.mutate(lexicon.name)}
            aria-label={t('page.exportLabel', { name: lexicon.name })}
          >
            {t('page.export')}
          </Button>
          <Button
            variant="default"
            mih={44}
            onClick={() => setRenaming(lexicon.name)}
            aria-label={t('page.renameLabel', { name: lexicon.name })}
          >
            {t('page.rename')}
          </Button>
          <Button
            variant="default"
            color="red"
            mih={44}
            onClick={() => setDeleting(true)}
            aria-label={t('page.deleteLabel', { name: lexicon.name })}
          >
            {t('page.delete')}
          </Button>
        </Group>
        {exporting.error && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {exporting.error.message}
          </Alert>
        )}
        {editing &&
          (full.data ? (
            <LexiconEntries lexicon={full.data} />
          ) : full.error ? (
            <Alert color="red" variant="light" role="alert" p="xs">
              {full.error.message}
            </Alert>
          ) : (
            <Skeleton h={120} />
          ))}
      </Stack>

      <Modal
        opened={renaming !== null}
        onClose={() => {
          setRenaming(null);
          renamer.reset();
        }}
        title={t('page.renameTitle', { name: lexicon.name })}
        closeButtonProps={{ 'aria-label': t('dialog.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (renaming && !nameError) renamer.mutate(renaming);
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('page.newName')}
              value={renaming ?? ''}
              onChange={(event) => {
                renamer.reset();
                setRenaming(event.currentTarget.value);
              }}
              error={nameError}
              dir="ltr"
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" mih={44} onClick={() => setRenaming(null)}>
                {t('page.cancel')}
              </Button>
              <Button type="submit" mih={44} loading={renamer.isPending}>
                {t('page.rename')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={t('page.deleteTitle', { name: lexicon.name })}
        closeButtonProps={{ 'aria-label': t('dialog.close') }}
      >
        <Stack gap="sm">
          <Text>{t('page.deleteConfirm', { count: lexicon.entries })}</Text>
          {remover.error && (
            <Alert color="red" variant="light" role="alert" p="xs">
              {remover.error.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" mih={44} onClick={() => setDeleting(false)}>
              {t('page.cancel')}
            </Button>
            <Button
              color="red"
              mih={44}
              loading={remover.isPending}
              onClick={() => remover.mutate(lexicon.name)}
            >
              {t('page.deleteNamed', { name: lexicon.name })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
