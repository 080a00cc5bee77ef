import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  ADMIN_PLAN_MESSAGES,
  type AdminPlan,
  AdminPlanTermsInputSchema,
  ENGINES,
  type Engine,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { planListQueryOptions, usePlanChange } from '../api/admin-plans';
import { AdminPage, useDateTime } from './admin-page';
import { errorsOf } from './user-detail';

/** Each engine's word, written out in full (the words' test looks for every key). */
const ENGINE_WORDS = {
  neural: 'plans.engine.neural',
  standard: 'plans.engine.standard',
} as const satisfies Record<Engine, string>;

const MIB = 1024 * 1024;

type Errors = Record<string, string>;
type Amount = number | string;

const amount = (value: Amount) => (typeof value === 'number' ? value : Number.NaN);

/** One plan's terms as a form; saved whole, checked with the contract's schema first. */
export function PlanForm({ plan, onSaved }: { plan: AdminPlan; onSaved: (type: string) => void }) {
  const { t } = useTranslation('admin');
  const dateTime = useDateTime();
  const headingId = useId();
  const change = usePlanChange();
  const [price, setPrice] = useState<Amount>(plan.price);
  const [characters, setCharacters] = useState<Amount>(plan.count_characters);
  const [perConvert, setPerConvert] = useState<Amount>(plan.count_characters_per_convert);
  // Shown in MiB (whole numbers), stored in bytes.
  const [storage, setStorage] = useState<Amount>(Math.round(plan.storage_bytes / MIB));
  const [engines, setEngines] = useState<string[]>(plan.engines);
  const [errors, setErrors] = useState<Errors>({});
  const free = plan.type === 'FREE';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = AdminPlanTermsInputSchema.safeParse({
      price: amount(price),
      count_characters: amount(characters),
      count_characters_per_convert: amount(perConvert),
      storage_bytes: amount(storage) * MIB,
      engines,
    });
    const found = errorsOf(parsed);
    if (free && amount(price) !== 0) found.price ??= ADMIN_PLAN_MESSAGES.freePrice;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    try {
      await change.mutateAsync({ type: plan.type, terms: parsed.data });
      onSaved(plan.type);
    } catch (error) {
      // The server's field messages beside their fields; anything else above the form.
      if (error instanceof ApiError) {
        setErrors(Object.fromEntries(error.fields.map((field) => [field.path, field.message])));
      }
    }
  };

  const field = { styles: { input: { minHeight: 44 } }, thousandSeparator: true, required: true };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Stack gap={2}>
            <Title order={2} size="h4" id={headingId}>
              {plan.type}
            </Title>
            <Text size="sm" c="dimmed">
              {plan.updated_at
                ? t('plans.updated', { date: dateTime(plan.updated_at) })
                : t('plans.seed')}
            </Text>
          </Stack>
          <NumberInput
            {...field}
            label={t('plans.price')}
            description={free ? t('plans.freePrice') : undefined}
            value={price}
            onChange={setPrice}
            min={0}
            decimalScale={2}
            prefix="$"
            disabled={free}
            error={errors.price}
          />
          <NumberInput
            {...field}
            label={t('plans.characters')}
            value={characters}
            onChange={setCharacters}
            min={0}
            allowDecimal={false}
            error={errors.count_characters}
          />
          <NumberInput
            {...field}
            label={t('plans.perConvert')}
            value={perConvert}
            onChange={setPerConvert}
            min={0}
            allowDecimal={false}
            error={errors.count_characters_per_convert}
          />
          <NumberInput
            {...field}
            label={t('plans.storage')}
            description={t('plans.storageHint')}
            value={storage}
            onChange={setStorage}
            min={0}
            allowDecimal={false}
            error={errors.storage_bytes}
          />
          <Checkbox.Group
            label={t('plans.engines')}
            description={t('plans.enginesHint')}
            value={engines}
            onChange={setEngines}
            error={errors.engines ?? errors['engines.0']}
          >
            <Group gap="md" mt={4}>
              {ENGINES.map((engine: Engine) => (
                <Checkbox key={engine} value={engine} label={t(ENGINE_WORDS[engine])} />
              ))}
            </Group>
          </Checkbox.Group>
          {change.isError &&
            !(change.error instanceof ApiError && change.error.fields.length > 0) && (
              <Alert color="red" role="alert">
                {change.error.message || t('common.failed')}
              </Alert>
            )}
          <Button type="submit" h={44} w="fit-content" loading={change.isPending}>
            {t('plans.save', { plan: plan.type })}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** /admin/plans (issue 31 §4): every plan's terms, each edited in its own form. */
export function PlansPage() {
  const { t } = useTranslation('admin');
  const plans = useQuery(planListQueryOptions);
  const [saved, setSaved] = useState<string | undefined>();
  return (
    <AdminPage title={t('plans.title')} description={t('plans.description')}>
      <Alert color="blue" title={t('plans.effectTitle')}>
        {t('plans.effect')}
      </Alert>
      {plans.isError && (
        <Alert color="red" role="alert">
          {plans.error.message || t('common.failed')}
        </Alert>
      )}
      {saved && (
        <Alert color="green" role="status">
          {t('plans.saved', { plan: saved })}
        </Alert>
      )}
      {plans.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {plans.data.plans.map((plan) => (
            // A new key after a save: the form starts again from what the server kept.
            <PlanForm
              key={`${plan.type}:${plan.updated_at}`}
              plan={plan}
              onSaved={(type) => setSaved(type)}
            />
          ))}
        </SimpleGrid>
      )}
    </AdminPage>
  );
}
