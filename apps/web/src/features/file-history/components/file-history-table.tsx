import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  useMantineTheme,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MESSAGES } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { English } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { ApiError } from '../../../lib/api-client';
import { useSession, useToken } from '../../../lib/auth';
import { jobsQueryOptions, useDeleteJob } from '../../../lib/jobs';
import { useDeleteFile } from '../api/delete-file';
import { useFiles } from '../api/get-files';
import { useMinDelay } from '../hooks/use-min-delay';
import { type FileRow, historyRows } from '../lib/file-row';
import { downloadRow, RowPlayer } from './row-player';

/** SPEC §2's columns, by their translation keys. */
const COLUMNS = [
  'fileHistory.size',
  'fileHistory.time',
  'fileHistory.language',
  'fileHistory.voice',
  'fileHistory.saveDate',
] as const;
const SKELETON_ROWS = 4;
/** The names of a row's buttons and player, by kind (keys written out for the locale test). */
const LABELS = {
  file: {
    open: 'fileHistory.openLabel',
    delete: 'fileHistory.deleteLabel',
    play: 'fileHistory.playLabel',
    close: 'fileHistory.closeLabel',
    download: 'fileHistory.downloadLabel',
    player: 'fileHistory.player',
  },
  audiobook: {
    open: 'fileHistory.openAudiobookLabel',
    delete: 'fileHistory.deleteAudiobookLabel',
    play: 'fileHistory.playAudiobookLabel',
    close: 'fileHistory.closeAudiobookLabel',
    download: 'fileHistory.downloadAudiobookLabel',
    player: 'documents.player',
  },
} as const;

/**
 * SPEC §2 File History: the table of saved files with open (to /convertor?id=…) and delete
 * (after 'Are you sure you want to delete this file?'); skeleton rows until loading has
 * finished and about 1 s has passed. On phones each file is a card (issue 18 item 3), with the
 * start of its text to tell files apart. Finished audiobooks (issue 19) are listed with the
 * files: Open shows one on the Documents page, Delete removes it with its audio.
 */
export function FileHistoryTable() {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const { locale } = useFormat();
  const files = useFiles();
  const session = useSession();
  const free =
    session.status === 'signed-in' &&
    session.profile.user.role === 'USER' &&
    session.profile.plan.type === 'FREE';
  const jobs = useQuery(jobsQueryOptions(useToken()));
  const delayed = useMinDelay();
  // One of the two is in the page, never both: a phone gets cards.
  const wide = useMediaQuery(`(min-width: ${useMantineTheme().breakpoints.sm})`, true);
  const removeFile = useDeleteFile();
  const removeJob = useDeleteJob();
  const remove = (row: FileRow) => (row.kind === 'file' ? removeFile : removeJob);
  const [confirming, setConfirming] = useState<FileRow>();
  // The row whose player is open (one at a time), by kind and id.
  const [playing, setPlaying] = useState<string>();
  const [downloadFailure, setDownloadFailure] = useState<string>();
  const players = useId();
  // The audiobooks come from another call; without them (an error) the files still show.
  const loading = files.isPending || (jobs.isPending && jobs.fetchStatus !== 'idle') || !delayed;

  if (files.isError && !loading) {
    const forbidden = files.error instanceof ApiError && files.error.status === 403;
    return (
      <Alert
        color={forbidden ? 'yellow' : 'red'}
        variant="light"
        role="alert"
        title={files.error.message}
        // Mantine's yellow text is below WCAG AA on its light background: body text instead.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {forbidden && (
          <Anchor component={Link} to={to('/pricing')}>
            {t('fileHistory.seePlans')}
          </Anchor>
        )}
      </Alert>
    );
  }

  const rows = historyRows(files.data ?? [], jobs.data ?? [], locale);
  const label = (row: FileRow, action: keyof (typeof LABELS)['file']) =>
    t(LABELS[row.kind][action], { date: row.saveDate, voice: row.voice, title: row.snippet });
  const key = (row: FileRow) => `${row.kind}-${row.id}`;
  const playerId = (row: FileRow) => `${players}-${key(row)}`;
  const player = (row: FileRow) =>
    playing === key(row) && (
      <div id={playerId(row)}>
        <RowPlayer row={row} label={label(row, 'player')} />
      </div>
    );
  const download = (row: FileRow) => {
    setDownloadFailure(undefined);
    downloadRow(row).catch((error: Error) => setDownloadFailure(error.message));
  };
  const snippet = (row: FileRow) =>
    row.kind === 'file' ? (
      row.snippet || t('fileHistory.noText')
    ) : (
      <>
        <Badge variant="light" size="sm" me="xs" component="span">
          {t('fileHistory.audiobook')}
        </Badge>
        {row.snippet}
      </>
    );
  const failure = removeFile.error?.message ?? removeJob.error?.message ?? downloadFailure;
  const actions = (row: FileRow) => (
    <Group gap="xs" justify={wide ? 'flex-end' : 'flex-start'} wrap={wide ? 'nowrap' : 'wrap'}>
      <Button
        variant="filled"
        size="sm"
        h={44}
        aria-label={label(row, playing === key(row) ? 'close' : 'play')}
        aria-expanded={playing === key(row)}
        aria-controls={playing === key(row) ? playerId(row) : undefined}
        onClick={() => setPlaying(playing === key(row) ? undefined : key(row))}
      >
        {t(playing === key(row) ? 'fileHistory.closePlayer' : 'fileHistory.play')}
      </Button>
      <Button
        variant="default"
        size="sm"
        h={44}
        aria-label={label(row, 'download')}
        onClick={() => download(row)}
      >
        {t('fileHistory.download')}
      </Button>
      <Button
        component={Link}
        to={row.kind === 'file' ? to(row.open) : row.open}
        variant="light"
        size="sm"
        h={44}
        aria-label={label(row, 'open')}
      >
        {t('fileHistory.open')}
      </Button>
      <Button
        variant="default"
        size="sm"
        h={44}
        onClick={() => setConfirming(row)}
        aria-label={label(row, 'delete')}
      >
        {t('fileHistory.delete')}
      </Button>
    </Group>
  );
  // A FREE user has nothing saved: the page says what a plan adds (saving stays paid).
  const empty = (
    <Text c="dimmed" py="md" ta="center">
      {free ? (
        <Trans
          i18nKey="fileHistory.emptyFree"
          components={{ plans: <Anchor component={Link} to={to('/pricing')} /> }}
        />
      ) : (
        <Trans
          i18nKey="fileHistory.empty"
          components={{ convert: <Anchor component={Link} to={to('/convertor')} /> }}
        />
      )}
    </Text>
  );
  return (
    <>
      {failure && <FormAlert kind="failure" title={failure} />}
      {wide ? (
        <Table.ScrollContainer minWidth={760}>
          <Table
            striped
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('fileHistory.savedFiles')}
            aria-busy={loading}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('fileHistory.text')}</Table.Th>
                {COLUMNS.map((column) => (
                  <Table.Th key={column} scope="col">
                    {t(column)}
                  </Table.Th>
                ))}
                <Table.Th scope="col">
                  <VisuallyHidden>{t('fileHistory.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading &&
                Array.from({ length: SKELETON_ROWS }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                  <Table.Tr key={index} data-testid="file-skeleton-row">
                    {['text', ...COLUMNS, 'actions'].map((column) => (
                      <Table.Td key={column}>
                        <Skeleton height={16} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              {!loading && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length + 2}>{empty}</Table.Td>
                </Table.Tr>
              )}
              {!loading &&
                rows.map((row) => (
                  <Fragment key={key(row)}>
                    <Table.Tr>
                      <Table.Td maw={320}>
                        <Text fz="sm" lineClamp={2}>
                          {snippet(row)}
                        </Text>
                      </Table.Td>
                      <Table.Td>{row.size}</Table.Td>
                      <Table.Td>{row.time}</Table.Td>
                      <Table.Td>{row.language}</Table.Td>
                      <Table.Td>{row.voice}</Table.Td>
                      <Table.Td>{row.saveDate}</Table.Td>
                      <Table.Td>{actions(row)}</Table.Td>
                    </Table.Tr>
                    {playing === key(row) && (
                      <Table.Tr>
                        <Table.Td colSpan={COLUMNS.length + 2}>{player(row)}</Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack gap="sm" aria-busy={loading}>
          {loading &&
            Array.from({ length: SKELETON_ROWS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <Skeleton key={index} height={120} radius="md" />
            ))}
          {!loading && rows.length === 0 && empty}
          {!loading && rows.length > 0 && (
            <Stack component="ul" gap="sm" p={0} m={0} aria-label={t('fileHistory.savedFiles')}>
              {rows.map((row) => (
                <Card key={key(row)} component="li" withBorder padding="md">
                  <Stack gap="xs">
                    <Text fw={600} lineClamp={2}>
                      {snippet(row)}
                    </Text>
                    <SimpleGrid
                      component="dl"
                      cols={2}
                      spacing={4}
                      verticalSpacing={4}
                      m={0}
                      fz="sm"
                    >
                      {COLUMNS.map((column, index) => (
                        <Box key={column}>
                          <Text component="dt" fz="xs" c="dimmed">
                            {t(column)}
                          </Text>
                          <Text component="dd" m={0} fz="sm">
                            {[row.size, row.time, row.language, row.voice, row.saveDate][index]}
                          </Text>
                        </Box>
                      ))}
                    </SimpleGrid>
                    {actions(row)}
                    {player(row)}
                  </Stack>
                </Card>
              ))}
            </Stack>
          )}
        </Stack>
      )}

      <Modal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title={t('fileHistory.deleteTitle')}
        closeButtonProps={{ 'aria-label': t('fileHistory.close') }}
        centered
      >
        <Text mb="lg">
          <English>{MESSAGES.file.deleteConfirm}</English>
        </Text>
        <Group justify="flex-end">
          <Button variant="default" h={44} onClick={() => setConfirming(undefined)}>
            {t('fileHistory.cancel')}
          </Button>
          <Button
            color="red.9"
            h={44}
            loading={removeFile.isPending || removeJob.isPending}
            onClick={() => {
              if (!confirming) return;
              remove(confirming).mutate(confirming.id, {
                onSettled: () => setConfirming(undefined),
              });
            }}
          >
            {t('fileHistory.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
