import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Divider,
  Group,
  Loader,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type CheckoutType,
  checkoutPlanType,
  MESSAGES,
  type PaymentForm,
  PaymentFormSchema,
  type Profile,
  planInfoKey,
} from '@parla/contract';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { useFormat } from '../../../hooks/use-format';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { ApiError } from '../../../lib/api-client';
import { visibleError } from '../../../lib/form';
import { PLAN_NAME_KEYS } from '../../../lib/plan-features';
import { usePlanInfo } from '../../../lib/plan-info';
import { usePaymentConfig } from '../api/get-payment-config';
import { usePay } from '../api/pay';
import {
  type CardFieldState,
  canPay,
  EMPTY_CARD,
  isBillingFilled,
  needsCardEntry,
  planChange,
} from '../lib/checkout-rules';
import type { Tokenizer } from './card-field-types';
import { TestCardField } from './test-card-field';

// Stripe's script is loaded only from here, and only when a publishable key is configured.
const StripeCardField = lazy(() => import('./stripe-card-field'));

type Outcome =
  | { kind: 'success'; message: string }
  | { kind: 'warning'; message: string }
  | { kind: 'failure'; message: string };

/** Mantine's yellow text is below WCAG AA on its light background: body text instead. */
const READABLE = {
  title: { color: 'var(--mantine-color-text)' },
  message: { color: 'var(--mantine-color-text)' },
};

const newAttemptId = () => crypto.randomUUID();

/** An answer that settles the attempt; a lost answer (network, 5xx) may be retried as is. */
const isDefinitive = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * SPEC §2 Checkout with §4 "Checkout payment", §5 "Checkout" and §8 "Payment": the plan,
 * billing details, the saved card with edit and cancel editing, name on card and the card
 * field (only when needed), subtotal and total, and the pay button under §5's conditions.
 */
export function CheckoutForm({ type, profile }: { type: CheckoutType; profile: Profile }) {
  const config = usePaymentConfig();
  const payment = usePay();
  const info = usePlanInfo();
  const { user } = profile;
  const planType = checkoutPlanType(type);
  const terms = info.data?.[planInfoKey(planType)];
  const { t } = useTranslation();
  const { number } = useFormat();
  const notice = terms && planChange(profile.plan, planType, terms);
  const noticeText =
    notice &&
    t(notice.downgrade ? 'checkout.downgradeNotice' : 'checkout.changeNotice', {
      from: t(PLAN_NAME_KEYS[notice.from]),
      to: t(PLAN_NAME_KEYS[notice.to]),
      kept: number(notice.kept),
      added: number(notice.added),
      total: number(notice.total),
      perConvertFrom: number(notice.perConvertFrom),
      perConvertTo: number(notice.perConvertTo),
    });
  /** Set once a payment succeeded: Pay stays off, so one purchase intent is one charge. */
  const [paid, setPaid] = useState(false);
  /** The form values waiting for the buyer to confirm a change of an active plan. */
  const [confirming, setConfirming] = useState<{ values: PaymentForm | undefined }>();
  const hasPaymentMethod = user.metadata.has_payment_method_added && user.card !== null;
  const [editingCard, setEditingCard] = useState(false);
  const [card, setCard] = useState<CardFieldState>(EMPTY_CARD);
  const [outcome, setOutcome] = useState<Outcome>();
  const [tokenizing, setTokenizing] = useState(false);
  const tokenizer = useRef<Tokenizer | null>(null);
  const attemptId = useRef(newAttemptId());
  const form = useForm<PaymentForm>({
    resolver: zodResolver(PaymentFormSchema),
    mode: 'all',
    defaultValues: { name_on_card: user.card?.name ?? user.name ?? '' },
  });
  const needsCard = needsCardEntry(hasPaymentMethod, editingCard);
  const billingFilled = isBillingFilled(user);
  const submitting = payment.isPending || tokenizing;
  const enabled =
    !paid &&
    !confirming &&
    canPay({ billingFilled, needsCard, formValid: form.formState.isValid, card, submitting });
  const onCardChange = useCallback((state: CardFieldState) => setCard(state), []);
  const confirmation = useRef<HTMLDivElement>(null);
  const keepPlan = useRef<HTMLButtonElement>(null);
  const payButton = useRef<HTMLButtonElement>(null);
  const isConfirming = confirming !== undefined;
  // Issue 33 item 6: the question comes into view and takes the focus (it appeared below the
  // fold, and Pay seemed to do nothing). The focus goes to Cancel, so a second Enter on Pay
  // does not pay at once.
  useEffect(() => {
    if (!isConfirming) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    confirmation.current?.scrollIntoView?.({
      block: 'center',
      behavior: reduced ? 'auto' : 'smooth',
    });
    keepPlan.current?.focus({ preventScroll: true });
  }, [isConfirming]);

  /** Cancel: the question goes and the focus goes back to Pay. */
  const cancelConfirming = () => {
    setConfirming(undefined);
    requestAnimationFrame(() => payButton.current?.focus());
  };

  const toggleEditing = () => {
    // Turning editing off clears the card input and its validation (SPEC §4).
    if (editingCard) {
      setCard(EMPTY_CARD);
      form.clearErrors();
    }
    setEditingCard(!editingCard);
  };

  /** Pay: straight on from FREE; with an active plan, after the buyer confirmed the change. */
  function requestPayment(values: PaymentForm | undefined) {
    setOutcome(undefined);
    if (notice) setConfirming({ values });
    else void submit(values);
  }

  async function submit(values: PaymentForm | undefined) {
    setConfirming(undefined);
    setOutcome(undefined);
    let token: string | null = null;
    if (needsCard) {
      setTokenizing(true);
      try {
        const tokenize = tokenizer.current;
        if (!tokenize) throw new Error(MESSAGES.checkout.paymentFailed);
        token = await tokenize(values?.name_on_card ?? '');
      } catch (error) {
        // A failed card token shows the provider's message (SPEC §8).
        setOutcome({ kind: 'failure', message: (error as Error).message });
        return;
      } finally {
        setTokenizing(false);
      }
    }
    payment.mutate(
      {
        payment: {
          token,
          name_on_card: needsCard ? (values?.name_on_card ?? null) : null,
          type: checkoutPlanType(type),
        },
        isUpdateCard: hasPaymentMethod && editingCard,
        attemptId: attemptId.current,
      },
      {
        onSuccess: (result) => {
          attemptId.current = newAttemptId();
          setPaid(true);
          setEditingCard(false);
          setCard(EMPTY_CARD);
          setOutcome({
            kind: 'success',
            message:
              result.status === 'succeeded' ? MESSAGES.checkout.paymentSuccess : result.message,
          });
        },
        onError: (error) => {
          if (isDefinitive(error)) attemptId.current = newAttemptId();
          const status = error instanceof ApiError ? error.status : 0;
          const message = error.message || MESSAGES.checkout.paymentFailed;
          setOutcome(status === 403 ? { kind: 'warning', message } : { kind: 'failure', message });
        },
      },
    );
  }

  const onSubmit = needsCard ? form.handleSubmit(requestPayment) : () => requestPayment(undefined);
  const error = (name: string) => visibleError(form.formState, name);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit(event);
      }}
      noValidate
      aria-label={t('checkout.title')}
    >
      <Stack gap="lg">
        {config.data?.provider === 'test' && (
          <Alert
            color="yellow"
            variant="light"
            title={t('checkout.testMode')}
            role="note"
            styles={READABLE}
          >
            {t('checkout.testModeText')}
          </Alert>
        )}

        <PlanSummary type={type} />

        <Card withBorder padding="lg" component="section" aria-labelledby="billing-heading">
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={2} fz="lg" id="billing-heading">
                {t('checkout.billingDetails')}
              </Title>
              <Anchor component={Link} to="/account#billingSettings">
                {t('checkout.editBilling')}
              </Anchor>
            </Group>
            {billingFilled ? (
              <Text>
                {user.name}, {user.phone}
                <br />
                {[user.address.line1, user.address.line2, user.address.city, user.address.state]
                  .filter(Boolean)
                  .join(', ')}
                {user.address.postal_code ? ` ${user.address.postal_code}` : ''},{' '}
                {user.address.country}
              </Text>
            ) : (
              <Text fw={600}>{t('checkout.fillBilling')}</Text>
            )}
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="section" aria-labelledby="card-heading">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} fz="lg" id="card-heading">
                {t('checkout.card')}
              </Title>
              {hasPaymentMethod && (
                <Button variant="subtle" onClick={toggleEditing} h={44}>
                  {editingCard ? t('checkout.cancelEditing') : t('checkout.editCard')}
                </Button>
              )}
            </Group>
            {hasPaymentMethod && user.card && (
              <Text>
                {t('checkout.savedCard', {
                  brand: user.card.brand,
                  last4: user.card.last4,
                  expiry: `${String(user.card.exp_month).padStart(2, '0')}/${user.card.exp_year}`,
                })}
                {user.card.name ? ` (${user.card.name})` : ''}
              </Text>
            )}
            {needsCard && (
              <>
                <TextInput
                  {...form.register('name_on_card')}
                  label={t('checkout.nameOnCard')}
                  autoComplete="cc-name"
                  error={error('name_on_card')}
                  withAsterisk
                />
                {config.isPending ? (
                  <Skeleton height={44} />
                ) : config.data?.provider === 'stripe' ? (
                  <Suspense fallback={<Skeleton height={44} />}>
                    <StripeCardField
                      publishableKey={config.data.publishable_key}
                      onChange={onCardChange}
                      tokenizer={tokenizer}
                    />
                  </Suspense>
                ) : (
                  <TestCardField onChange={onCardChange} tokenizer={tokenizer} />
                )}
              </>
            )}
          </Stack>
        </Card>

        <Totals type={type} />

        {confirming && notice && (
          <Alert
            ref={confirmation}
            color={notice.downgrade ? 'orange' : 'blue'}
            variant="light"
            role="alertdialog"
            aria-labelledby="confirm-plan-heading"
            aria-describedby="confirm-plan-text"
            onKeyDown={(event) => {
              if (event.key === 'Escape') cancelConfirming();
            }}
            title={
              <span id="confirm-plan-heading">
                {t(notice.downgrade ? 'checkout.confirmDowngrade' : 'checkout.confirmChange')}
              </span>
            }
            styles={READABLE}
          >
            <Stack gap="sm">
              <Text id="confirm-plan-text">{noticeText}</Text>
              <Group justify="flex-end">
                <Button variant="default" h={44} onClick={cancelConfirming} ref={keepPlan}>
                  {t('checkout.cancel')}
                </Button>
                <Button h={44} onClick={() => void submit(confirming.values)}>
                  {t(notice.downgrade ? 'checkout.downgradeAndPay' : 'checkout.confirmAndPay')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}

        {outcome?.kind === 'success' && (
          <FormAlert kind="success" title={outcome.message}>
            {profile.plan.type === planType && (
              <Text>
                {t('checkout.planNow', {
                  plan: t(PLAN_NAME_KEYS[planType]),
                  left: number(profile.plan.count_characters),
                })}
              </Text>
            )}
            <Anchor component={Link} to="/account/plan">
              {t('checkout.seeMyPlan')}
            </Anchor>
          </FormAlert>
        )}
        {outcome?.kind === 'failure' && <FormAlert kind="failure" title={outcome.message} />}
        {outcome?.kind === 'warning' && (
          <Alert
            color="yellow"
            variant="light"
            role="alert"
            title={outcome.message}
            styles={READABLE}
          />
        )}

        <Group justify="flex-end">
          <Button type="submit" disabled={!enabled} h={44} miw={160} ref={payButton}>
            {submitting ? (
              <Loader size="sm" color="white" role="status" aria-label={t('checkout.paying')} />
            ) : (
              t('checkout.payNow')
            )}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const dollars = (price: number) => (Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`);

function PlanSummary({ type }: { type: CheckoutType }) {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const { number } = useFormat();
  const info = usePlanInfo();
  const terms = info.data?.[planInfoKey(checkoutPlanType(type))];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="plan-heading">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} fz="lg" id="plan-heading">
            {t('checkout.planTitle', { plan: t(PLAN_NAME_KEYS[checkoutPlanType(type)]) })}
          </Title>
          {terms ? (
            <Text c="dimmed">
              {t('checkout.planTerms', {
                characters: number(terms.count_characters),
                perConvert: number(terms.count_characters_per_convert),
              })}
            </Text>
          ) : (
            <Skeleton height={16} width={260} />
          )}
        </Stack>
        <Anchor component={Link} to={to('/pricing')}>
          {t('checkout.changePlan')}
        </Anchor>
      </Group>
    </Card>
  );
}

/** SPEC §9: prices are in dollars, and subtotal equals total. */
function Totals({ type }: { type: CheckoutType }) {
  const { t } = useTranslation();
  const info = usePlanInfo();
  const terms = info.data?.[planInfoKey(checkoutPlanType(type))];
  const price = terms ? dollars(terms.price) : undefined;
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('checkout.orderTotal')}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text>{t('checkout.subtotal')}</Text>
          {price ? <Text>{price}</Text> : <Skeleton height={16} width={60} />}
        </Group>
        <Divider />
        <Group justify="space-between">
          <Text fw={700}>{t('checkout.total')}</Text>
          {price ? <Text fw={700}>{price}</Text> : <Skeleton height={16} width={60} />}
        </Group>
      </Stack>
    </Card>
  );
}
