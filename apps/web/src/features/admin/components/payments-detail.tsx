import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  type AdminPaymentDetail,
  type AdminRefund,
  type AdminRefundInput,
  AdminRefundInputSchema,
  REFUND_CHARACTERS,
  type RefundCharacters,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { ApiError } from '../../../lib/api-client';
import { saveApiFile } from '../../../lib/save-blob';
import { invoicePdfPath, paymentQueryOptions, useRefund } from '../api/payments';
import { AdminPage, ScrollTable, useDateTime } from './admin-page';
import { PaymentStatusBadge } from './payments-page';
import { errorsOf, ReasonField } from './user-detail';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

const newKey = () => crypto.randomUUID();

/**
 * The Refund dialog: the amount (all that is left by default), the reason, what to do with the
 * plan's characters, then a confirmation. One Idempotency-Key per refund: kept when the
 * answer is lost (a second try is the same refund), renewed after an answer.
 */
function RefundDialog({
  payment,
  opened,
  onClose,
}: {
  payment: AdminPaymentDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const { dollars, number } = useFormat();
  const rest = payment.amount_cents - payment.amount_refunded_cents;
  const [amount, setAmount] = useState<number | string>(rest / 100);
  const [reason, setReason] = useState('');
  const [characters, setCharacters] = useState<string>('proportional');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<AdminRefundInput | null>(null);
  const [key, setKey] = useState(newKey);
  const refund = useRefund(payment.id);
  const choices: Record<RefundCharacters, { label: string; effect: string }> = {
    all: {
      label: t('payments.characters.all'),
      effect: t('payments.charactersEffect.all', { characters: number(payment.count_characters) }),
    },
    proportional: {
      label: t('payments.characters.proportional'),
      effect: t('payments.charactersEffect.proportional', {
        characters: number(payment.count_characters),
      }),
    },
    none: { label: t('payments.characters.none'), effect: t('payments.charactersEffect.none') },
  };

  const review = (event: FormEvent) => {
    event.preventDefault();
    const cents = typeof amount === 'number' ? Math.round(amount * 100) : Number.NaN;
    const parsed = AdminRefundInputSchema.safeParse({ amount_cents: cents, reason, characters });
    const found = errorsOf(parsed);
    if (parsed.success && cents > rest) {
      found.amount_cents = t('payments.overRest', { rest: dollars(rest / 100) });
    }
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) setConfirming(parsed.data);
  };
  const confirm = async () => {
    if (!confirming) return;
    try {
      await refund.mutateAsync({ input: confirming, key });
      setKey(newKey());
      setConfirming(null);
      setReason('');
      onClose();
    } catch (error) {
      // A lost answer keeps the key: trying again is the same refund, never a second one.
      if (error instanceof ApiError && error.status !== 0) {
        setKey(newKey());
        const fields: Record<string, string> = {};
        for (const field of error.fields) fields[field.path] ??= field.message;
        setErrors(fields);
        setConfirming(null);
      }
    }
  };
  const refunded = confirming?.amount_cents ?? 0;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('payments.refundTitle')}
      closeButtonProps={{ 'aria-label': t('payments.close') }}
      centered
    >
      {confirming ? (
        <Stack gap="md">
          <Text>
            {t('payments.confirmText', {
              amount: dollars(refunded / 100),
              email: payment.user.email,
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {choices[confirming.characters].effect}
          </Text>
          {refund.isError && (
            <Alert color="red" role="alert">
              {refund.error.message}
            </Alert>
          )}
          <Group gap="sm">
            <Button color="red.9" h={44} onClick={confirm} loading={refund.isPending}>
              {t('payments.confirm', { amount: dollars(refunded / 100) })}
            </Button>
            <Button variant="default" h={44} onClick={() => setConfirming(null)}>
              {t('user.cancel')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={review} noValidate>
          <Stack gap="md">
            <NumberInput
              label={t('payments.amountLabel')}
              description={t('payments.amountHint', { rest: dollars(rest / 100) })}
              value={amount}
              onChange={setAmount}
              min={0.01}
              max={rest / 100}
              decimalScale={2}
              fixedDecimalScale
              prefix="$"
              error={errors.amount_cents}
              required
              styles={{ input: { minHeight: 44 } }}
            />
            <ReasonField value={reason} onChange={setReason} error={errors.reason} />
            <Radio.Group
              label={t('payments.charactersLabel')}
              value={characters}
              onChange={setCharacters}
              error={errors.characters}
            >
              <Stack gap="xs" mt="xs">
                {REFUND_CHARACTERS.map((choice) => (
                  <Radio key={choice} value={choice} label={choices[choice].label} />
                ))}
              </Stack>
            </Radio.Group>
            {refund.isError &&
              !(refund.error instanceof ApiError && refund.error.fields.length) && (
                <Alert color="red" role="alert">
                  {refund.error.message}
                </Alert>
              )}
            <Button type="submit" h={44} w="fit-content">
              {t('payments.review')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** One payment: its provider ids, plan, invoice, refunds, and the Refund dialog. */
export function PaymentDetail({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const { dollars, number } = useFormat();
  const dateTime = useDateTime();
  const payment = useQuery(paymentQueryOptions(id));
  const [refunding, setRefunding] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const refundStatuses: Record<AdminRefund['status'], string> = {
    pending: t('payments.refundStatuses.pending'),
    succeeded: t('payments.refundStatuses.succeeded'),
    failed: t('payments.refundStatuses.failed'),
  };
  const data = payment.data;
  const title = data
    ? t('payments.detailTitle', { amount: dollars(data.amount_cents / 100) })
    : t('payments.title');
  const download = async (detail: AdminPaymentDetail) => {
    setDownloadError(null);
    try {
      await saveApiFile(invoicePdfPath(detail.id), `${detail.invoice_number}.pdf`);
    } catch (error) {
      setDownloadError((error as Error).message || t('common.failed'));
    }
  };
  return (
    <AdminPage title={title} description={t('payments.detailDescription')}>
      <Anchor component={Link} to="/admin/payments" w="fit-content">
        {t('payments.back')}
      </Anchor>
      {payment.isError && (
        <Alert color="red" role="alert">
          {payment.error.message || t('common.failed')}
        </Alert>
      )}
      {data && (
        <Stack gap="lg">
          <Card withBorder padding="lg" component="section" aria-labelledby="payment-summary">
            <Stack gap="md">
              <Group justify="space-between" wrap="wrap">
                <Group gap="sm">
                  <Title order={2} size="h4" id="payment-summary">
                    {t('payments.summary')}
                  </Title>
                  <PaymentStatusBadge status={data.status} />
                </Group>
                <Group gap="sm">
                  {data.invoice_number && (
                    <Button variant="default" h={44} onClick={() => download(data)}>
                      {t('payments.downloadInvoice')}
                    </Button>
                  )}
                  {data.status === 'succeeded' || data.status === 'partially_refunded' ? (
                    <Button
                      color="red.9"
                      variant="outline"
                      h={44}
                      onClick={() => setRefunding(true)}
                    >
                      {t('payments.refund')}
                    </Button>
                  ) : null}
                </Group>
              </Group>
              {downloadError && (
                <Alert color="red" role="alert">
                  {downloadError}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                <Field label={t('users.email')}>
                  <Anchor component={Link} to={`/admin/users/${data.user.id}`}>
                    <Ltr>{data.user.email}</Ltr>
                  </Anchor>
                </Field>
                <Field label={t('users.plan')}>
                  {data.plan_type} ·{' '}
                  {t('payments.characterCount', { characters: number(data.count_characters) })}
                </Field>
                <Field label={t('user.amount')}>
                  {dollars(data.amount_cents / 100)} {data.currency.toUpperCase()}
                </Field>
                <Field label={t('payments.refunded')}>
                  {dollars(data.amount_refunded_cents / 100)}
                </Field>
                <Field label={t('common.date')}>{dateTime(data.created_date)}</Field>
                <Field label={t('payments.invoice')}>
                  <Ltr>{data.invoice_number ?? '–'}</Ltr>
                </Field>
                <Field label={t('user.provider')}>{data.provider}</Field>
                <Field label={t('payments.paymentId')}>
                  <Ltr>
                    <code>{data.provider_payment_id ?? '–'}</code>
                  </Ltr>
                </Field>
                <Field label={t('payments.chargeId')}>
                  <Ltr>
                    <code>{data.provider_charge_id ?? '–'}</code>
                  </Ltr>
                </Field>
                {data.message && <Field label={t('payments.message')}>{data.message}</Field>}
              </SimpleGrid>
            </Stack>
          </Card>
          <Card withBorder padding="lg" component="section" aria-labelledby="payment-refunds">
            <Stack gap="sm">
              <Title order={2} size="h4" id="payment-refunds">
                {t('payments.refunds')}
              </Title>
              {data.refunds.length === 0 ? (
                <Text c="dimmed">{t('user.nothing')}</Text>
              ) : (
                <ScrollTable label={t('payments.refunds')} minWidth={760}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('common.date')}</Table.Th>
                        <Table.Th>{t('user.amount')}</Table.Th>
                        <Table.Th>{t('payments.status')}</Table.Th>
                        <Table.Th>{t('payments.charactersTaken')}</Table.Th>
                        <Table.Th>{t('common.reason')}</Table.Th>
                        <Table.Th>{t('audit.actor')}</Table.Th>
                        <Table.Th>{t('payments.refundId')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.refunds.map((refund) => (
                        <Table.Tr key={refund.id}>
                          <Table.Td>{dateTime(refund.created_date)}</Table.Td>
                          <Table.Td>{dollars(refund.amount_cents / 100)}</Table.Td>
                          <Table.Td>
                            {refundStatuses[refund.status]}
                            {refund.message ? ` (${refund.message})` : ''}
                          </Table.Td>
                          <Table.Td>{number(refund.characters_taken)}</Table.Td>
                          <Table.Td>{refund.reason}</Table.Td>
                          <Table.Td>
                            <Ltr>{refund.actor_email ?? ''}</Ltr>
                          </Table.Td>
                          <Table.Td>
                            <Ltr>
                              <code>{refund.provider_refund_id ?? '–'}</code>
                            </Ltr>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollTable>
              )}
            </Stack>
          </Card>
          {refunding && (
            <RefundDialog payment={data} opened={refunding} onClose={() => setRefunding(false)} />
          )}
        </Stack>
      )}
    </AdminPage>
  );
}
