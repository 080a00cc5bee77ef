import { Alert, Button, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { Invoice } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { saveApiFile } from '../../../lib/save-blob';
import { useInvoices } from '../api/get-invoices';

/**
 * My Plan's invoices (issue 31 §5): each with its date, plan, amount and what was refunded of
 * it, and its PDF to download (refunds appear on it as credit notes).
 */
export function InvoiceList() {
  const { t } = useTranslation();
  const { dollars, date } = useFormat();
  const invoices = useInvoices();
  const [failed, setFailed] = useState<string | null>(null);
  const download = async (invoice: Invoice) => {
    setFailed(null);
    try {
      await saveApiFile(invoice.url, `${invoice.number}.pdf`);
    } catch (error) {
      setFailed((error as Error).message);
    }
  };
  return (
    <Card withBorder padding="xl" component="section" aria-labelledby="invoices-heading" mt="lg">
      <Stack gap="md">
        <Title order={2} fz="xl" id="invoices-heading">
          {t('myPlan.invoices')}
        </Title>
        {invoices.isPending && <Skeleton height={80} />}
        {invoices.isError && (
          <Alert color="red" role="alert">
            {invoices.error.message}
          </Alert>
        )}
        {failed && (
          <Alert color="red" role="alert">
            {failed}
          </Alert>
        )}
        {invoices.data?.invoices.length === 0 && <Text c="dimmed">{t('myPlan.noInvoices')}</Text>}
        {invoices.data && invoices.data.invoices.length > 0 && (
          <Table.ScrollContainer
            type="native"
            minWidth={560}
            tabIndex={0}
            role="region"
            aria-label={t('myPlan.invoices')}
          >
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('myPlan.invoiceNumber')}</Table.Th>
                  <Table.Th>{t('myPlan.invoiceDate')}</Table.Th>
                  <Table.Th>{t('myPlan.invoicePlan')}</Table.Th>
                  <Table.Th>{t('myPlan.invoiceAmount')}</Table.Th>
                  <Table.Th>{t('myPlan.invoiceRefunded')}</Table.Th>
                  <Table.Th>{t('myPlan.invoicePdf')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoices.data.invoices.map((invoice) => (
                  <Table.Tr key={invoice.number}>
                    <Table.Td>
                      <Ltr>{invoice.number}</Ltr>
                    </Table.Td>
                    <Table.Td>{date(invoice.date)}</Table.Td>
                    <Table.Td>{invoice.plan_type}</Table.Td>
                    <Table.Td>{dollars(invoice.amount_cents / 100)}</Table.Td>
                    <Table.Td>
                      {invoice.refunded_cents > 0 ? dollars(invoice.refunded_cents / 100) : '–'}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        variant="default"
                        size="compact-md"
                        mih={44}
                        onClick={() => download(invoice)}
                        aria-label={t('myPlan.downloadInvoice', { number: invoice.number })}
                      >
                        {t('myPlan.download')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
