import { Alert, Anchor, Badge, Button, Group, Select, Table, TextInput } from '@mantine/core';
import { ADMIN_PAYMENT_STATUSES, type AdminPaymentStatus } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { type PaymentFilters, paymentsQueryOptions } from '../api/payments';
import { AdminPage, Pager, ScrollTable, useDateTime } from './admin-page';

const STATUS_COLORS: Record<AdminPaymentStatus, string> = {
  pending: 'yellow.9',
  succeeded: 'teal.9',
  failed: 'red.9',
  partially_refunded: 'grape.9',
  refunded: 'gray.8',
};

/** The name of each payment state, in the page's language. */
function useStatusNames(): Record<AdminPaymentStatus, string> {
  const { t } = useTranslation('admin');
  return {
    pending: t('payments.statuses.pending'),
    succeeded: t('payments.statuses.succeeded'),
    failed: t('payments.statuses.failed'),
    partially_refunded: t('payments.statuses.partially_refunded'),
    refunded: t('payments.statuses.refunded'),
  };
}

/** A payment's state as a badge, in the page's language. */
export function PaymentStatusBadge({ status }: { status: AdminPaymentStatus }) {
  const names = useStatusNames();
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {names[status]}
    </Badge>
  );
}

const NO_FILTERS: PaymentFilters = { email: '', status: undefined, from: '', to: '' };

/** Payments: by payer's email, status and period, newest first, each opening its detail. */
export function PaymentsPage() {
  const { t } = useTranslation('admin');
  const { dollars } = useFormat();
  const dateTime = useDateTime();
  const [typed, setTyped] = useState<PaymentFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<PaymentFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const payments = useQuery(paymentsQueryOptions(filters, page));
  const statusNames = useStatusNames();
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...typed, email: typed.email.trim() });
    setPage(1);
  };
  const input = { minHeight: 44 };
  return (
    <AdminPage title={t('payments.title')} description={t('payments.description')}>
      <form onSubmit={search}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('payments.email')}
            type="search"
            value={typed.email}
            onChange={(event) => setTyped({ ...typed, email: event.currentTarget.value })}
            maxLength={200}
            miw={240}
            styles={{ input }}
          />
          <Select
            label={t('payments.status')}
            data={[
              { value: 'all', label: t('messages.all') },
              ...ADMIN_PAYMENT_STATUSES.map((status) => ({
                value: status,
                label: statusNames[status],
              })),
            ]}
            value={typed.status ?? 'all'}
            onChange={(value) =>
              setTyped({
                ...typed,
                status: value && value !== 'all' ? (value as AdminPaymentStatus) : undefined,
              })
            }
            allowDeselect={false}
            w={200}
            styles={{ input }}
          />
          <TextInput
            label={t('payments.from')}
            type="date"
            value={typed.from}
            onChange={(event) => setTyped({ ...typed, from: event.currentTarget.value })}
            styles={{ input }}
          />
          <TextInput
            label={t('payments.to')}
            type="date"
            value={typed.to}
            onChange={(event) => setTyped({ ...typed, to: event.currentTarget.value })}
            styles={{ input }}
          />
          <Button type="submit" h={44}>
            {t('users.searchButton')}
          </Button>
        </Group>
      </form>
      {payments.isError && (
        <Alert color="red" role="alert">
          {payments.error.message || t('common.failed')}
        </Alert>
      )}
      {payments.data && (
        <>
          <ScrollTable label={t('payments.title')} minWidth={900}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.date')}</Table.Th>
                  <Table.Th>{t('users.email')}</Table.Th>
                  <Table.Th>{t('users.plan')}</Table.Th>
                  <Table.Th>{t('user.amount')}</Table.Th>
                  <Table.Th>{t('payments.refunded')}</Table.Th>
                  <Table.Th>{t('payments.status')}</Table.Th>
                  <Table.Th>{t('payments.invoice')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payments.data.items.map((payment) => (
                  <Table.Tr key={payment.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/payments/${payment.id}`}>
                        {dateTime(payment.created_date)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/users/${payment.user.id}`}>
                        <Ltr>{payment.user.email}</Ltr>
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{payment.plan_type}</Table.Td>
                    <Table.Td>{dollars(payment.amount_cents / 100)}</Table.Td>
                    <Table.Td>
                      {payment.amount_refunded_cents > 0
                        ? dollars(payment.amount_refunded_cents / 100)
                        : '–'}
                    </Table.Td>
                    <Table.Td>
                      <PaymentStatusBadge status={payment.status} />
                    </Table.Td>
                    <Table.Td>
                      <Ltr>{payment.invoice_number ?? '–'}</Ltr>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          {payments.data.items.length === 0 && <Alert>{t('payments.none')}</Alert>}
          <Pager
            page={payments.data.page}
            perPage={payments.data.per_page}
            total={payments.data.total}
            onPage={setPage}
          />
        </>
      )}
    </AdminPage>
  );
}
