import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  AdminCharactersInputSchema,
  AdminPlanInputSchema,
  type AdminUserDetail,
  fieldErrors,
  PLAN_TYPES,
  type PlanType,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { type UserAction, userQueryOptions, useUserAction } from '../api/admin';
import { AdminPage, ScrollTable, useDateTime } from './admin-page';

type Errors = Record<string, string>;

/** The first message per field of a failed parse (the contract's words, naming the field). */
export function errorsOf(result: { success: boolean; error?: Parameters<typeof fieldErrors>[0] }) {
  const errors: Errors = {};
  if (!result.success && result.error) {
    for (const { path, message } of fieldErrors(result.error)) errors[path] ??= message;
  }
  return errors;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** A small table, or "nothing yet". */
function List({ label, head, rows }: { label: string; head: string[]; rows: ReactNode[][] }) {
  const { t } = useTranslation('admin');
  if (rows.length === 0) return <Text c="dimmed">{t('user.nothing')}</Text>;
  return (
    <ScrollTable label={label} minWidth={480}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            {head.map((cell) => (
              <Table.Th key={cell}>{cell}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            // Rows of a read-only list never move.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is shown as it came
            <Table.Tr key={index}>
              {row.map((cell, column) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                <Table.Td key={column}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function CharactersForm({ run }: { run: (action: UserAction) => Promise<unknown> }) {
  const { t } = useTranslation('admin');
  const [characters, setCharacters] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = AdminCharactersInputSchema.safeParse({
      characters: typeof characters === 'number' ? characters : Number.NaN,
      reason,
    });
    setErrors(errorsOf(parsed));
    if (!parsed.success) return;
    await run({ kind: 'characters', input: parsed.data });
    setCharacters('');
    setReason('');
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <NumberInput
          label={t('user.charactersLabel')}
          value={characters}
          onChange={setCharacters}
          allowDecimal={false}
          allowNegative
          thousandSeparator
          error={errors.characters}
          required
          styles={{ input: { minHeight: 44 } }}
        />
        <ReasonField value={reason} onChange={setReason} error={errors.reason} />
        <Button type="submit" h={44} w="fit-content">
          {t('user.charactersButton')}
        </Button>
      </Stack>
    </form>
  );
}

/** The reason an operator gives for a change (kept in the audit log). */
export function ReasonField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('admin');
  return (
    <TextInput
      label={t('common.reason')}
      description={t('common.reasonHint')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      maxLength={500}
      required
      styles={{ input: { minHeight: 44 } }}
    />
  );
}

function PlanForm({
  current,
  run,
}: {
  current: PlanType;
  run: (action: UserAction) => Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const [type, setType] = useState<string>(current);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = AdminPlanInputSchema.safeParse({ type, reason });
    setErrors(errorsOf(parsed));
    if (!parsed.success) return;
    await run({ kind: 'plan', input: parsed.data });
    setReason('');
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Select
          label={t('users.plan')}
          data={[...PLAN_TYPES]}
          value={type}
          onChange={(value) => setType(value ?? current)}
          allowDeselect={false}
          error={errors.type}
          styles={{ input: { minHeight: 44 } }}
        />
        <ReasonField value={reason} onChange={setReason} error={errors.reason} />
        <Button type="submit" h={44} w="fit-content">
          {t('user.planButton')}
        </Button>
      </Stack>
    </form>
  );
}

function Access({
  detail,
  run,
  onDeleted,
}: {
  detail: AdminUserDetail;
  run: (action: UserAction) => Promise<unknown>;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('admin');
  const [confirming, setConfirming] = useState(false);
  const { user } = detail;
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="default"
          h={44}
          onClick={() => run({ kind: user.disabled_date ? 'enable' : 'disable' })}
        >
          {user.disabled_date ? t('user.enable') : t('user.disable')}
        </Button>
        <Button
          variant="default"
          h={44}
          onClick={() => run({ kind: 'role', role: user.role === 'ADMIN' ? 'USER' : 'ADMIN' })}
        >
          {user.role === 'ADMIN' ? t('user.makeUser') : t('user.makeAdmin')}
        </Button>
        {!user.email_validated && (
          <Button variant="default" h={44} onClick={() => run({ kind: 'validation-mail' })}>
            {t('user.resend')}
          </Button>
        )}
        {!confirming && (
          <Button color="red.9" variant="outline" h={44} onClick={() => setConfirming(true)}>
            {t('user.delete')}
          </Button>
        )}
      </Group>
      {confirming && (
        <Group gap="sm" wrap="wrap">
          <Button
            color="red.9"
            h={44}
            onClick={async () => {
              await run({ kind: 'delete' });
              onDeleted();
            }}
          >
            {t('user.confirmDelete', { email: user.email })}
          </Button>
          <Button variant="default" h={44} onClick={() => setConfirming(false)}>
            {t('user.cancel')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** One user: what they have and did, and the actions of the console on them. */
export function UserDetail({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const { number, date, dollars } = useFormat();
  const dateTime = useDateTime();
  const navigate = useNavigate();
  const detail = useQuery(userQueryOptions(id));
  const action = useUserAction(id);
  const [done, setDone] = useState<string | undefined>();
  const run = async (next: UserAction) => {
    setDone(undefined);
    const result = await action.mutateAsync(next).catch(() => undefined);
    if (result === undefined) return;
    if (next.kind === 'characters' && typeof result === 'object' && result && 'plan' in result) {
      const { plan } = result as { plan: { count_characters: number } };
      setDone(t('user.charactersDone', { left: number(plan.count_characters) }));
    } else if (next.kind === 'plan') {
      setDone(t('user.planDone', { plan: next.input.type }));
    } else if (typeof result === 'object' && result && 'message' in result) {
      setDone(String((result as { message: string }).message));
    }
  };
  const email = detail.data?.user.email ?? '';
  return (
    <AdminPage title={email || t('users.title')} description={t('user.summary')}>
      <Anchor component={Link} to="/admin/users" w="fit-content">
        {t('user.back')}
      </Anchor>
      {detail.isError && (
        <Alert color="red" role="alert">
          {detail.error.message || t('common.failed')}
        </Alert>
      )}
      {action.isError && (
        <Alert color="red" role="alert">
          {action.error.message}
        </Alert>
      )}
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      {detail.data && (
        <Stack gap="lg">
          <Section title={t('user.summary')}>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
              <Text>
                {t('users.email')}: <Ltr>{detail.data.user.email}</Ltr>
              </Text>
              <Text>
                {t('users.role')}: {detail.data.user.role}
              </Text>
              <Text>
                {t('users.plan')}: {detail.data.user.plan.type}
              </Text>
              <Text data-testid="admin-characters-left">
                {t('users.characters')}: {number(detail.data.user.plan.count_characters)}
              </Text>
              <Text>
                {t('user.perConvert')}: {number(detail.data.user.plan.count_characters_per_convert)}
              </Text>
              <Text>
                {t('user.added')}: {number(detail.data.user.plan.count_characters_added)}
              </Text>
              <Text>
                {detail.data.user.email_validated ? t('user.validated') : t('user.notValidated')}
              </Text>
              <Text c={detail.data.user.disabled_date ? 'red.9' : undefined}>
                {t('users.status')}:{' '}
                {detail.data.user.disabled_date ? t('users.disabled') : t('users.active')}
              </Text>
              <Text>
                {t('users.created')}: {date(detail.data.user.created_date)}
              </Text>
            </SimpleGrid>
          </Section>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Section title={t('user.charactersTitle')}>
              <CharactersForm run={run} />
            </Section>
            <Section title={t('user.planTitle')}>
              <PlanForm
                key={detail.data.user.plan.type}
                current={detail.data.user.plan.type}
                run={run}
              />
            </Section>
          </SimpleGrid>
          <Section title={t('user.accessTitle')}>
            <Access
              detail={detail.data}
              run={run}
              onDeleted={() => navigate('/admin/users', { replace: true })}
            />
          </Section>
          <Section title={t('user.usage')}>
            <List
              label={t('user.usage')}
              head={[t('user.day'), t('user.conversions'), t('users.characters')]}
              rows={detail.data.usage.map((day) => [
                date(day.day),
                number(day.conversions),
                number(day.characters),
              ])}
            />
          </Section>
          <Section title={t('user.filesTitle')}>
            <Text>
              {t('user.files', {
                files: number(detail.data.files.count),
                bytes: number(detail.data.files.bytes),
              })}
            </Text>
            <List
              label={t('user.filesTitle')}
              head={[
                t('user.fileVoice'),
                t('user.fileFormat'),
                t('user.fileLength'),
                t('user.fileSize'),
                t('common.date'),
              ]}
              rows={detail.data.files.recent.map((file) => [
                file.voice,
                file.audio_format,
                t('user.fileSeconds', { seconds: number(Math.round(file.length)) }),
                number(file.size),
                dateTime(file.created_date),
              ])}
            />
          </Section>
          <Section title={t('user.jobs')}>
            <List
              label={t('user.jobs')}
              head={[
                t('user.jobTitle'),
                t('user.jobStatus'),
                t('users.characters'),
                t('common.date'),
              ]}
              rows={detail.data.jobs.map((job) => [
                job.title,
                job.status,
                number(job.characters),
                dateTime(job.created_date),
              ])}
            />
          </Section>
          <Section title={t('user.apiKeys')}>
            <List
              label={t('user.apiKeys')}
              head={[
                t('user.keyName'),
                t('user.keyPrefix'),
                t('users.created'),
                t('user.lastUsed'),
              ]}
              rows={detail.data.api_keys.map((key) => [
                key.name,
                <Ltr key="prefix">
                  <code>{key.prefix}…</code>
                </Ltr>,
                dateTime(key.created_date),
                key.last_used_date ? dateTime(key.last_used_date) : t('common.never'),
              ])}
            />
          </Section>
          <Section title={t('user.payments')}>
            <List
              label={t('user.payments')}
              head={[
                t('users.plan'),
                t('user.amount'),
                t('messages.status'),
                t('user.provider'),
                t('common.date'),
              ]}
              rows={detail.data.payments.map((payment) => [
                <Anchor key="plan" component={Link} to={`/admin/payments/${payment.id}`}>
                  {payment.plan_type}
                </Anchor>,
                dollars(payment.amount_cents / 100),
                payment.status,
                <Ltr key="provider">
                  {payment.provider} {payment.provider_payment_id ?? ''}
                </Ltr>,
                dateTime(payment.created_date),
              ])}
            />
          </Section>
          <Section title={t('user.signIns')}>
            <List
              label={t('user.signIns')}
              head={[t('common.date'), t('user.address'), t('user.browser')]}
              rows={detail.data.sign_ins.map((signIn) => [
                dateTime(signIn.date),
                <Ltr key="ip">{signIn.ip}</Ltr>,
                signIn.user_agent ?? '',
              ])}
            />
          </Section>
        </Stack>
      )}
    </AdminPage>
  );
}
