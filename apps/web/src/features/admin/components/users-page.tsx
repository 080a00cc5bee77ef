import { Alert, Anchor, Button, Group, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { usersQueryOptions } from '../api/admin';
import { AdminPage, Pager, ScrollTable } from './admin-page';

/** Users: search by email, a page of results, each opening the user's detail. */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const { number, date } = useFormat();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const users = useQuery(usersQueryOptions(query, page));
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
    setPage(1);
  };
  return (
    <AdminPage title={t('users.title')} description={t('users.description')}>
      <form onSubmit={search}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('users.search')}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            maxLength={200}
            miw={260}
            styles={{ input: { minHeight: 44 } }}
          />
          <Button type="submit" h={44}>
            {t('users.searchButton')}
          </Button>
        </Group>
      </form>
      {users.isError && (
        <Alert color="red" role="alert">
          {users.error.message || t('common.failed')}
        </Alert>
      )}
      {users.data && (
        <>
          <ScrollTable label={t('users.title')} minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('users.email')}</Table.Th>
                  <Table.Th>{t('users.role')}</Table.Th>
                  <Table.Th>{t('users.plan')}</Table.Th>
                  <Table.Th>{t('users.characters')}</Table.Th>
                  <Table.Th>{t('users.status')}</Table.Th>
                  <Table.Th>{t('users.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.items.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/users/${user.id}`}>
                        <Ltr>{user.email}</Ltr>
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{user.role}</Table.Td>
                    <Table.Td>{user.plan.type}</Table.Td>
                    <Table.Td>{number(user.plan.count_characters)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c={user.disabled_date ? 'red.9' : undefined} fw={500}>
                        {user.disabled_date ? t('users.disabled') : t('users.active')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{date(user.created_date)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          {users.data.items.length === 0 && <Alert>{t('users.none')}</Alert>}
          <Pager
            page={users.data.page}
            perPage={users.data.per_page}
            total={users.data.total}
            onPage={setPage}
          />
        </>
      )}
    </AdminPage>
  );
}
