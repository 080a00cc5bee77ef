import { Input, useComputedColorScheme } from '@mantine/core';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardFieldProps } from './card-field-types';

/*
 * Stripe Elements' card field. This module is imported only by the checkout page and only
 * when a publishable key is configured; `@stripe/stripe-js/pure` adds Stripe's script to the
 * page only when loadStripe is first called (https://github.com/stripe/stripe-js#pure).
 */
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string) {
  let promise = loaded.get(key);
  if (!promise) {
    promise = loadStripe(key);
    loaded.set(key, promise);
  }
  return promise;
}

function CardInput({ onChange, tokenizer }: CardFieldProps) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string>();
  const dark = useComputedColorScheme('light') === 'dark';

  useEffect(() => {
    tokenizer.current = async (nameOnCard) => {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) throw new Error(t('checkout.cardLoading'));
      const result = await stripe.createToken(card, { name: nameOnCard });
      if (result.error) throw new Error(result.error.message ?? t('checkout.cardRefused'));
      return result.token.id;
    };
  }, [stripe, elements, tokenizer, t]);

  return (
    <Input.Wrapper label={t('checkout.card')} withAsterisk error={error}>
      <Input
        component="div"
        pt={10}
        h={44}
        aria-label={t('checkout.card')}
        style={{ overflow: 'hidden' }}
      >
        <CardElement
          options={{
            hidePostalCode: true,
            style: { base: { fontSize: '16px', color: dark ? '#f1f3f5' : '#212529' } },
          }}
          onChange={(event) => {
            setError(event.error?.message);
            onChange({
              empty: event.empty,
              complete: event.complete,
              ...(event.error && { error: event.error.message }),
            });
          }}
        />
      </Input>
    </Input.Wrapper>
  );
}

export default function StripeCardField({
  publishableKey,
  ...props
}: CardFieldProps & { publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <CardInput {...props} />
    </Elements>
  );
}
