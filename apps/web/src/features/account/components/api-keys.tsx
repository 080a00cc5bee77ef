import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { CreatedApiKey } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { useToken } from '../../../lib/auth';
import { apiKeysQueryOptions, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/**
 * My Account's API keys (issue 16): create a named key (shown once, to copy), see each key's
 * prefix, creation and last use, and revoke it.
 */
export function ApiKeys() {
  const { t } = useTranslation();
  const { date } = useFormat();
  const token = useToken();
  const keys = useQuery(apiKeysQueryOptions(token));
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, {
      onSuccess: (key) => {
        setCreated(key);
        setName('');
      },
    });
  };

  return (
    <Stack gap="md">
      {created && (
        <Alert color="green" variant="light" title={t('apiKeys.createdTitle')} role="status">
          <Stack gap="xs">
            <Text size="sm">{t('apiKeys.createdHint')}</Text>
            <Group gap="xs" wrap="nowrap">
              <Ltr>
                <Text
                  component="code"
                  ff="monospace"
                  size="sm"
                  style={{ wordBreak: 'break-all' }}
                  data-testid="new-api-key"
                >
                  {created.key}
                </Text>
              </Ltr>
              <CopyButton value={created.key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('apiKeys.name')}
            placeholder={t('apiKeys.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            error={create.error?.message}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
            {t('apiKeys.create')}
          </Button>
        </Group>
      </form>
      {keys.isError && (
        <Alert color="red" variant="light" role="alert">
          {keys.error.message}
        </Alert>
      )}
      {keys.data && keys.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('apiKeys.none')}
        </Text>
      )}
      {keys.data && keys.data.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiKeys.name')}</Table.Th>
                <Table.Th>{t('apiKeys.key')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('apiKeys.created')}</Table.Th>
                <Table.Th>{t('apiKeys.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>{key.name}</Table.Td>
                  <Table.Td>
                    <Ltr>
                      <Text component="code" ff="monospace" size="sm">
                        {key.prefix}…
                      </Text>
                    </Ltr>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{date(key.created_date)}</Table.Td>
                  <Table.Td>
                    {key.last_used_date ? date(key.last_used_date) : t('apiKeys.never')}
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('apiKeys.revoke')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                        loading={revoke.isPending && revoke.variables === key.id}
                        onClick={() => {
                          if (window.confirm(t('apiKeys.confirmRevoke', { name: key.name }))) {
                            revoke.mutate(key.id);
                          }
                        }}
                      >
                        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
                          <path
                            fill="currentColor"
                            d="M9 3h6l1 2h4v2H4V5h4l1-2zm-3 6h12l-1 12H7L6 9z"
                          />
                        </svg>
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="sm" c="dimmed">
        {t('apiKeys.docs')}
      </Text>
    </Stack>
  );
}
