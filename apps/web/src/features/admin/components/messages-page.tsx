import { Alert, Card, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { CONTACT_MESSAGE_STATUSES, type ContactMessageStatus } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { messagesQueryOptions, useMessageStatus } from '../api/admin';
import { AdminPage, Pager, useDateTime } from './admin-page';

const isStatus = (value: string): value is ContactMessageStatus =>
  (CONTACT_MESSAGE_STATUSES as readonly string[]).includes(value);

/** Contact messages: the contact form's, newest first, each with a status to set. */
export function MessagesPage() {
  const { t } = useTranslation('admin');
  const dateTime = useDateTime();
  const [filter, setFilter] = useState('all');
  const [page, setPage] = useState(1);
  const messages = useQuery(messagesQueryOptions(isStatus(filter) ? filter : undefined, page));
  const setStatus = useMessageStatus();
  const labels: Record<ContactMessageStatus, string> = {
    new: t('messages.statuses.new'),
    answered: t('messages.statuses.answered'),
    archived: t('messages.statuses.archived'),
  };
  const statusLabel = (status: ContactMessageStatus) => labels[status];
  return (
    <AdminPage title={t('messages.title')} description={t('messages.description')}>
      <Stack gap={4}>
        <Text component="span" id="message-filter" size="sm" fw={500}>
          {t('messages.filter')}
        </Text>
        <SegmentedControl
          aria-labelledby="message-filter"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          data={[
            { value: 'all', label: t('messages.all') },
            ...CONTACT_MESSAGE_STATUSES.map((status) => ({
              value: status,
              label: statusLabel(status),
            })),
          ]}
          w="fit-content"
        />
      </Stack>
      {(messages.isError || setStatus.isError) && (
        <Alert color="red" role="alert">
          {messages.error?.message || setStatus.error?.message || t('common.failed')}
        </Alert>
      )}
      {messages.data && (
        <>
          {messages.data.items.length === 0 && <Alert>{t('messages.none')}</Alert>}
          <Stack gap="md">
            {messages.data.items.map((message) => (
              <Card key={message.id} withBorder padding="lg" component="article">
                <Stack gap="xs">
                  <Group justify="space-between" align="flex-start" wrap="wrap">
                    <Stack gap={2}>
                      <Text fw={700}>{message.subject}</Text>
                      <Text size="sm">
                        {t('messages.from')}: {message.name} <Ltr>&lt;{message.email}&gt;</Ltr> ·{' '}
                        {dateTime(message.created_date)}
                      </Text>
                    </Stack>
                    <Select
                      label={t('messages.status')}
                      data={CONTACT_MESSAGE_STATUSES.map((status) => ({
                        value: status,
                        label: statusLabel(status),
                      }))}
                      value={message.status}
                      allowDeselect={false}
                      onChange={(value) => {
                        if (value && isStatus(value))
                          setStatus.mutate({ id: message.id, status: value });
                      }}
                      w={180}
                      styles={{ input: { minHeight: 44 } }}
                    />
                  </Group>
                  <Text style={{ whiteSpace: 'pre-wrap' }}>{message.message}</Text>
                </Stack>
              </Card>
            ))}
          </Stack>
          <Pager
            page={messages.data.page}
            perPage={messages.data.per_page}
            total={messages.data.total}
            onPage={setPage}
          />
        </>
      )}
    </AdminPage>
  );
}
