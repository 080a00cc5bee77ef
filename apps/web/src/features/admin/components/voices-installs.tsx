import {
  Alert,
  Button,
  Card,
  Group,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type AdminInstalledVoice, formatFileSize } from '@parla/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import {
  availableVoicesQueryOptions,
  installQueryOptions,
  useInstall,
  useVoiceChange,
} from '../api/admin-voices';
import { ScrollTable } from './admin-page';

/** The install under way on this server: a progress bar, and a button that cancels it. */
function InstallProgress() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const install = useQuery(installQueryOptions);
  const cancel = useInstall();
  const state = install.data;
  // An install that ended changes the catalogue and what can still be installed.
  useEffect(() => {
    if (state && state.state !== 'installing' && state.state !== 'idle') {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'voices'], exact: false });
    }
  }, [queryClient, state]);
  if (!state || state.state === 'idle') return null;
  const percent = state.total ? Math.min(100, Math.round((state.bytes / state.total) * 100)) : 0;
  const name = state.name ?? '';
  if (state.state === 'installing') {
    return (
      <Stack gap={4}>
        <Text size="sm">
          {t('voices.install.installing', { name })}{' '}
          {state.total
            ? t('voices.install.progress', {
                done: formatFileSize(state.bytes),
                total: formatFileSize(state.total),
                percent,
              })
            : formatFileSize(state.bytes)}
        </Text>
        <Progress
          value={state.total ? percent : 100}
          animated={!state.total}
          size="lg"
          aria-label={t('voices.install.progressLabel', { name })}
        />
        <Button
          variant="default"
          h={44}
          w="fit-content"
          loading={cancel.isPending}
          onClick={() => cancel.mutate(null)}
        >
          {t('voices.install.cancel')}
        </Button>
      </Stack>
    );
  }
  const outcome = {
    installed: { color: 'green', text: t('voices.install.installed', { name }) },
    cancelled: { color: 'gray', text: t('voices.install.cancelled', { name }) },
    failed: {
      color: 'red',
      text: t('voices.install.failed', { name, message: state.message ?? '' }),
    },
  }[state.state];
  return (
    <Alert color={outcome.color} role="status">
      {outcome.text}
    </Alert>
  );
}

/** Installed natural voices with size and licence, and installing one from its catalogue. */
export function VoiceInstalls({
  installed,
  onDone,
}: {
  installed: AdminInstalledVoice[];
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation('admin');
  const available = useQuery(availableVoicesQueryOptions);
  const install = useInstall();
  const remove = useVoiceChange();
  const [chosen, setChosen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const choices =
    available.data?.voices
      .filter((voice) => !voice.installed)
      .map((voice) => ({
        value: voice.name,
        label: `${voice.name} · ${voice.language}${voice.bytes ? ` · ${formatFileSize(voice.bytes)}` : ''}${voice.license ? ` · ${voice.license}` : ''}`,
      })) ?? [];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="voice-files">
      <Stack gap="md">
        <Title order={2} size="h4" id="voice-files">
          {t('voices.install.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('voices.install.description')}
        </Text>
        {installed.length === 0 ? (
          <Text>{t('voices.install.noneInstalled')}</Text>
        ) : (
          <ScrollTable label={t('voices.install.installedTable')} minWidth={720}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('voices.install.name')}</Table.Th>
                  <Table.Th>{t('voices.columns.language')}</Table.Th>
                  <Table.Th>{t('voices.install.speakers')}</Table.Th>
                  <Table.Th>{t('voices.install.size')}</Table.Th>
                  <Table.Th>{t('voices.install.license')}</Table.Th>
                  <Table.Th>{t('voices.install.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {installed.map((voice) => (
                  <Table.Tr key={voice.name}>
                    <Table.Td>
                      <Text fw={500}>{voice.display_name}</Text>
                      <Text size="xs" c="dimmed">
                        <Ltr>{voice.name}</Ltr>
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Ltr>{voice.language}</Ltr>
                    </Table.Td>
                    <Table.Td>{voice.speakers}</Table.Td>
                    <Table.Td>
                      <Ltr>{formatFileSize(voice.bytes)}</Ltr>
                    </Table.Td>
                    <Table.Td>{voice.license}</Table.Td>
                    <Table.Td>
                      {removing === voice.name ? (
                        <Group gap="xs">
                          <Button
                            color="red"
                            h={44}
                            loading={remove.isPending}
                            onClick={() =>
                              remove.mutate(
                                { kind: 'remove', name: voice.name },
                                {
                                  onSuccess: () =>
                                    onDone(t('voices.done.removed', { name: voice.name })),
                                  onSettled: () => setRemoving(null),
                                },
                              )
                            }
                          >
                            {t('voices.install.confirmRemove', { name: voice.name })}
                          </Button>
                          <Button variant="default" h={44} onClick={() => setRemoving(null)}>
                            {t('voices.install.keep')}
                          </Button>
                        </Group>
                      ) : (
                        <Button
                          variant="default"
                          h={44}
                          aria-label={t('voices.install.removeLabel', { name: voice.name })}
                          onClick={() => setRemoving(voice.name)}
                        >
                          {t('voices.install.remove')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            {remove.error.message}
          </Alert>
        )}
        {available.data?.problem && <Alert color="yellow">{available.data.problem}</Alert>}
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('voices.install.choose')}
            data={choices}
            value={chosen}
            onChange={setChosen}
            searchable
            nothingFoundMessage={t('voices.none')}
            w={{ base: '100%', sm: 480 }}
            styles={{ input: { minHeight: 44 } }}
          />
          <Button
            h={44}
            disabled={!chosen}
            loading={install.isPending}
            onClick={() => chosen && install.mutate(chosen)}
          >
            {t('voices.install.start')}
          </Button>
        </Group>
        {install.isError && (
          <Alert color="red" role="alert">
            {install.error.message}
          </Alert>
        )}
        <InstallProgress />
      </Stack>
    </Card>
  );
}
