import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { healthQueryOptions } from '../api/overview';
import { ScrollTable } from './admin-page';

/**
 * The speech service now (decision 053): each remote provider's state, each engine's
 * conversions, failures and mean time since this server started, the queue and the workers.
 * Read again every few seconds while the page is open.
 */
export function OverviewHealth() {
  const { t } = useTranslation('admin');
  const { number, locale } = useFormat();
  const health = useQuery(healthQueryOptions());
  if (health.isError) {
    return (
      <Alert color="red" role="alert">
        {health.error.message || t('common.failed')}
      </Alert>
    );
  }
  if (!health.data) return null;
  const { providers, engines, queue, workers } = health.data;
  const seconds = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'second',
    maximumFractionDigits: 2,
  });
  const tile = (label: string, value: number, id: string) => (
    <Paper withBorder p="sm" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl" data-testid={`overview-health-${id}`}>
        {number(value)}
      </Text>
    </Paper>
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {tile(t('overview.health.waiting'), queue.waiting, 'waiting')}
        {tile(t('overview.health.active'), queue.active, 'active')}
        {tile(t('overview.health.processes'), workers.processes, 'processes')}
        {tile(t('overview.health.threads'), workers.threads, 'threads')}
      </SimpleGrid>
      {!queue.redis && <Text c="dimmed">{t('overview.health.noQueue')}</Text>}
      <Text fw={600}>{t('overview.health.providers')}</Text>
      {providers.length === 0 ? (
        <Text c="dimmed">{t('overview.health.noProviders')}</Text>
      ) : (
        <ScrollTable label={t('overview.health.providers')} minWidth={520}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('overview.health.provider')}</Table.Th>
                <Table.Th scope="col">{t('overview.health.state')}</Table.Th>
                <Table.Th scope="col">{t('overview.health.failures')}</Table.Th>
                <Table.Th scope="col">{t('overview.health.lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {providers.map((provider) => (
                <Table.Tr key={provider.provider}>
                  <Table.Td>
                    <Ltr>{provider.name}</Ltr>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={provider.available ? 'green.9' : 'red.9'} variant="filled">
                      {provider.available
                        ? t('overview.health.available')
                        : t('overview.health.unavailable')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{number(provider.failures)}</Table.Td>
                  <Table.Td>
                    {provider.last_error ? <Ltr>{provider.last_error}</Ltr> : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Group gap="xs">
        <Text fw={600}>{t('overview.health.engines')}</Text>
        <Text size="sm" c="dimmed">
          {t('overview.health.sinceStart')}
        </Text>
      </Group>
      {engines.length === 0 ? (
        <Text c="dimmed">{t('overview.health.noConversions')}</Text>
      ) : (
        <ScrollTable label={t('overview.health.engines')} minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('overview.health.engine')}</Table.Th>
                <Table.Th scope="col">{t('overview.figures.conversions')}</Table.Th>
                <Table.Th scope="col">{t('overview.health.failed')}</Table.Th>
                <Table.Th scope="col">{t('overview.health.latency')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {engines.map((engine) => (
                <Table.Tr key={engine.engine}>
                  <Table.Td>
                    <Ltr>{engine.engine}</Ltr>
                  </Table.Td>
                  <Table.Td>{number(engine.conversions)}</Table.Td>
                  <Table.Td>{number(engine.failed)}</Table.Td>
                  <Table.Td>
                    {engine.mean_seconds === null ? '—' : seconds.format(engine.mean_seconds)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
