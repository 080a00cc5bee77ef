import { Alert, Code, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { auditQueryOptions } from '../api/admin';
import { AdminPage, Pager, ScrollTable, useDateTime } from './admin-page';

/** A value of the log as JSON, or nothing when there was none. */
function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <Code block dir="ltr" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {JSON.stringify(value, null, 1)}
    </Code>
  );
}

/** The audit log: every console action, newest first, read-only. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const dateTime = useDateTime();
  const [page, setPage] = useState(1);
  const audit = useQuery(auditQueryOptions(page));
  return (
    <AdminPage title={t('audit.title')} description={t('audit.description')}>
      {audit.isError && (
        <Alert color="red" role="alert">
          {audit.error.message || t('common.failed')}
        </Alert>
      )}
      {audit.data && (
        <>
          {audit.data.items.length === 0 && <Alert>{t('audit.none')}</Alert>}
          <ScrollTable label={t('audit.title')} minWidth={900}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.date')}</Table.Th>
                  <Table.Th>{t('audit.actor')}</Table.Th>
                  <Table.Th>{t('audit.action')}</Table.Th>
                  <Table.Th>{t('audit.target')}</Table.Th>
                  <Table.Th>{t('audit.before')}</Table.Th>
                  <Table.Th>{t('audit.after')}</Table.Th>
                  <Table.Th>{t('common.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {audit.data.items.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{dateTime(entry.date)}</Table.Td>
                    <Table.Td>
                      <Ltr>{entry.actor_email ?? t('audit.commandLine')}</Ltr>
                    </Table.Td>
                    <Table.Td>
                      <Ltr>
                        <code>{entry.action}</code>
                      </Ltr>
                    </Table.Td>
                    <Table.Td>
                      <Ltr>
                        {entry.target_type} {entry.target_id}
                      </Ltr>
                    </Table.Td>
                    <Table.Td>
                      <Json value={entry.before} />
                    </Table.Td>
                    <Table.Td>
                      <Json value={entry.after} />
                    </Table.Td>
                    <Table.Td>{entry.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          <Pager
            page={audit.data.page}
            perPage={audit.data.per_page}
            total={audit.data.total}
            onPage={setPage}
          />
        </>
      )}
    </AdminPage>
  );
}
