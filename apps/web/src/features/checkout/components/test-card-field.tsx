import { SimpleGrid, TextInput } from '@mantine/core';
import { checkTestCard, encodeTestCardToken, type TestCardInput } from '@parla/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardFieldProps } from './card-field-types';

/**
 * The built-in test provider's card input (no Stripe key configured): number, expiry and CVC,
 * checked as a card field would (Luhn, known test numbers, a future date). The token it makes
 * is the test provider's, never a real card's.
 */
export function TestCardField({ onChange, tokenizer }: CardFieldProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState<TestCardInput>({ number: '', expiry: '', cvc: '' });
  const [touched, setTouched] = useState(false);
  const empty = !input.number && !input.expiry && !input.cvc;
  const complete = Boolean(input.number && input.expiry && input.cvc);
  const checked = complete ? checkTestCard(input) : undefined;
  const error = checked && !checked.ok ? checked.message : undefined;

  useEffect(() => {
    onChange({ empty, complete: Boolean(checked?.ok), ...(error && { error }) });
  }, [empty, checked?.ok, error, onChange]);

  useEffect(() => {
    tokenizer.current = async () => {
      const result = checkTestCard(input);
      if (!result.ok) throw new Error(result.message);
      return encodeTestCardToken(result.card);
    };
  }, [input, tokenizer]);

  const set = (key: keyof TestCardInput) => (event: React.ChangeEvent<HTMLInputElement>) => {
    // Read now: the event's currentTarget is gone by the time the updater runs.
    const value = event.currentTarget.value;
    setInput((previous) => ({ ...previous, [key]: value }));
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <TextInput
        label={t('checkout.cardNumber')}
        value={input.number}
        onChange={set('number')}
        onBlur={() => setTouched(true)}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        error={touched || complete ? error : undefined}
        withAsterisk
        style={{ gridColumn: 'span 1' }}
      />
      <TextInput
        label={t('checkout.expiry')}
        value={input.expiry}
        onChange={set('expiry')}
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder="12/34"
        withAsterisk
      />
      <TextInput
        label="CVC"
        value={input.cvc}
        onChange={set('cvc')}
        inputMode="numeric"
        autoComplete="cc-csc"
        placeholder="123"
        withAsterisk
      />
    </SimpleGrid>
  );
}
