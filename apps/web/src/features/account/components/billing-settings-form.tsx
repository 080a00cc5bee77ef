import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  BillingFormSchema,
  type BillingFormValues,
  billingFormDefaults,
  billingSaveFailedMessage,
  COUNTRIES,
  type InvoiceInfoInput,
  MESSAGES,
  type ProfileUser,
  type TaxIdList,
  taxCodePlaceholder,
  taxIdLabel,
  taxIdOptionsFor,
} from '@parla/contract';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert';
import { visibleError } from '../../../lib/form';
import { useUpdateInvoiceInfo } from '../api/update-invoice-info';

const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({
  value: country.iso2,
  label: country.country,
}));

interface BillingSettingsFormProps {
  user: ProfileUser;
  /** GET /account/tax_ids; empty until it has loaded. */
  taxIds: TaxIdList;
}

/**
 * SPEC §2 "Billing Settings" and §4 "Company checkbox": the company's tax details are asked
 * (and required) only while the box is checked; otherwise null is sent for both. The tax
 * types are those of the selected country, and the code's placeholder is an example of the
 * chosen type's pattern.
 */
export function BillingSettingsForm({ user, taxIds }: BillingSettingsFormProps) {
  const { t } = useTranslation();
  const save = useUpdateInvoiceInfo();
  const form = useForm<BillingFormValues, unknown, InvoiceInfoInput>({
    resolver: zodResolver(BillingFormSchema),
    mode: 'all',
    defaultValues: billingFormDefaults(user),
  });
  const error = (name: string) => visibleError(form.formState, name);
  const [country, isCompany, taxType] = useWatch({
    control: form.control,
    name: ['address.country', 'isCompany', 'tax.type'],
  });
  const typeOptions = useMemo(() => taxIdOptionsFor(taxIds, country ?? null), [taxIds, country]);
  const chosenType = typeOptions.find((option) => option.type === taxType);

  const onSubmit = form.handleSubmit((payload) => save.mutate(payload));
  const sent = save.variables;
  const taxFilled = Boolean(sent?.tax.type && sent.tax.code);

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.billing')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            {...form.register('name')}
            label={t('account.name')}
            autoComplete="name"
            error={error('name')}
            withAsterisk
          />
          <TextInput
            {...form.register('phone')}
            type="tel"
            label={t('account.phone')}
            autoComplete="tel"
            error={error('phone')}
            withAsterisk
          />
          <Controller
            control={form.control}
            name="address.country"
            render={({ field }) => (
              <Select
                ref={field.ref}
                name={field.name}
                label={t('account.country')}
                data={COUNTRY_OPTIONS}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  // A tax type belongs to one country: drop it when the country changes.
                  const current = form.getValues('tax.type');
                  if (current && !taxIdOptionsFor(taxIds, value).some((o) => o.type === current)) {
                    form.setValue('tax.type', '', { shouldValidate: form.formState.isSubmitted });
                  }
                }}
                onBlur={field.onBlur}
                searchable
                nothingFoundMessage={t('account.noCountry')}
                autoComplete="off"
                error={error('address.country')}
                withAsterisk
              />
            )}
          />
          <TextInput
            {...form.register('address.state')}
            label={t('account.state')}
            autoComplete="address-level1"
            error={error('address.state')}
          />
          <TextInput
            {...form.register('address.city')}
            label={t('account.city')}
            autoComplete="address-level2"
            error={error('address.city')}
            withAsterisk
          />
          <TextInput
            {...form.register('address.line1')}
            label={t('account.line1')}
            autoComplete="address-line1"
            error={error('address.line1')}
            withAsterisk
          />
          <TextInput
            {...form.register('address.line2')}
            label={t('account.line2')}
            autoComplete="address-line2"
            error={error('address.line2')}
          />
          <TextInput
            {...form.register('address.postal_code')}
            label={t('account.postalCode')}
            autoComplete="postal-code"
            error={error('address.postal_code')}
          />
        </SimpleGrid>
        <Alert color="blue" variant="light" role="note">
          {t('account.billingNote')}
        </Alert>
        <Checkbox
          {...form.register('isCompany', {
            deps: ['tax.type', 'tax.code'],
          })}
          label={t('account.company')}
        />
        {isCompany && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Controller
              control={form.control}
              name="tax.type"
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  name={field.name}
                  label={t('account.taxType')}
                  data={typeOptions.map((option) => ({
                    value: option.type,
                    label: taxIdLabel(option.type),
                  }))}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  placeholder={country ? undefined : t('account.countryFirst')}
                  nothingFoundMessage={t('account.noTaxType')}
                  error={error('tax.type')}
                  withAsterisk
                />
              )}
            />
            <TextInput
              {...form.register('tax.code')}
              label={t('account.taxCode')}
              placeholder={taxCodePlaceholder(chosenType)}
              autoComplete="off"
              error={error('tax.code')}
              withAsterisk
            />
          </SimpleGrid>
        )}
        {save.isSuccess && <FormAlert kind="success" title={MESSAGES.billing.saveSuccess} />}
        {save.isError && (
          <FormAlert kind="failure" title={billingSaveFailedMessage(taxFilled)}>
            {save.error.message}
          </FormAlert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} h={44}>
            {t('account.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
